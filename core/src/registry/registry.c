/*
 * The plugin registry: finds libspmvlab_<name>.so on a search path, loads it
 * with RTLD_NOW | RTLD_LOCAL and checks it before anyone calls into it. Each
 * refusal has its own sentence: not loadable, no entry symbol, ABI mismatch,
 * name not matching the file, duplicate name, required member missing, and
 * files or folders anyone may write to.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin_file.h"
#include "spmvlab/core.h"

#ifndef SPMVLAB_INSTALL_PLUGIN_DIR
#define SPMVLAB_INSTALL_PLUGIN_DIR "/usr/local/lib/spmvlab"
#endif

/* The build's own plugins, "csr,coo,...": plugins/CMakeLists.txt sets it.
 * Only these are in-tree; another file in an install folder (one's own
 * plugin after cmake --install) is just a plugin on the search path. */
#ifndef SPMVLAB_IN_TREE_PLUGINS
#define SPMVLAB_IN_TREE_PLUGINS ""
#endif

#define MAX_DIRS 32
#define MAX_PLUGINS 256

struct spmvlab_registry {
    char *dirs[MAX_DIRS];
    int ndirs;
    int defaults_added;
    char *shipped[4];           /* the build tree's and install folders, where the in-tree plugins are */
    int nshipped;
    spmvlab_loaded *loaded[MAX_PLUGINS];
    spmvlab_plugin descs[MAX_PLUGINS];
    int nloaded;
};

spmvlab_registry *spmvlab_registry_new(void) { return calloc(1, sizeof(spmvlab_registry)); }

void spmvlab_registry_free(spmvlab_registry *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->ndirs; i++)
        free(r->dirs[i]);
    for (int i = 0; i < r->nshipped; i++)
        free(r->shipped[i]);
    /* Handles stay open: format handles or descriptor strings may still be
     * referenced by results being written on the way out. */
    for (int i = 0; i < r->nloaded; i++) {
        free(r->loaded[i]->owned_options);
        free(r->loaded[i]);
    }
    free(r);
}

static void add_dir(spmvlab_registry *r, const char *dir)
{
    if (!dir || !*dir || r->ndirs == MAX_DIRS)
        return;
    for (int i = 0; i < r->ndirs; i++)
        if (strcmp(r->dirs[i], dir) == 0)
            return;
    r->dirs[r->ndirs++] = strdup(dir);
}

void spmvlab_registry_add_dir(spmvlab_registry *r, const char *dir) { add_dir(r, dir); }

/* A folder of in-tree plugins: searched after the user's folders, and the
 * one a user's plugin of the same name must not silently replace. */
static void add_shipped_dir(spmvlab_registry *r, const char *dir)
{
    add_dir(r, dir);
    if (r->nshipped < (int)(sizeof r->shipped / sizeof *r->shipped))
        r->shipped[r->nshipped++] = strdup(dir);
}

/* The environment, the build tree and the install folder come after the
 * explicit folders; the working directory is never searched implicitly. */
static void add_default_dirs(spmvlab_registry *r)
{
    if (r->defaults_added)
        return;
    r->defaults_added = 1;
    const char *env = getenv("SPMVLAB_PLUGIN_PATH");
    if (env) {
        char *copy = strdup(env), *save = NULL;
        for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
            add_dir(r, d);
        free(copy);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char dir[PATH_MAX + 32];
            snprintf(dir, sizeof dir, "%s/../plugins", exe); /* build tree */
            char real[PATH_MAX];
            if (realpath(dir, real))
                add_shipped_dir(r, real);
            snprintf(dir, sizeof dir, "%s/../lib/spmvlab", exe); /* relocated install */
            if (realpath(dir, real))
                add_shipped_dir(r, real);
        }
    }
    add_shipped_dir(r, SPMVLAB_INSTALL_PLUGIN_DIR);
}

void spmvlab_registry_search_path(const spmvlab_registry *r, char *buf, size_t len)
{
    add_default_dirs((spmvlab_registry *)r);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->ndirs && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ":" : "", r->dirs[i]);
}

static int valid_name(const char *s)
{
    if (!s || !*s || strlen(s) > 63)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

static const spmvlab_loaded *find_loaded(const spmvlab_registry *r, const char *name)
{
    for (int i = 0; i < r->nloaded; i++)
        if (strcmp(r->loaded[i]->desc->name, name) == 0)
            return r->loaded[i];
    return NULL;
}

const spmvlab_loaded *spmvlab_registry_load_file(spmvlab_registry *r, const char *path, spmvlab_err *err)
{
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        spmvlab_errf(err, "cannot load plugin %s: no such file", path);
        return NULL;
    }
    for (int i = 0; i < r->nloaded; i++)
        if (strcmp(r->loaded[i]->path, real) == 0)
            return r->loaded[i];
    if (r->nloaded == MAX_PLUGINS) {
        spmvlab_errf(err, "cannot load plugin %s: more than %d plugins", path, MAX_PLUGINS);
        return NULL;
    }
    if (plugin_file_writable_by_others(path, real, err))
        return NULL;
    /* The name counts as the file was named where it was found (a link may
     * point at a file of another name). */
    char file_name[64];
    plugin_file_name(path, file_name, sizeof file_name);
    if (!file_name[0]) {
        spmvlab_errf(err, "refusing plugin %s: plugin files are named libspmvlab_<name>.so", path);
        return NULL;
    }
    dlerror();
    void *h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        spmvlab_errf(err, "cannot load plugin %s: %s", path, why ? why : "unknown dlopen error");
        return NULL;
    }
    spmvlab_plugin_entry_fn entry;
    *(void **)&entry = dlsym(h, SPMVLAB_ENTRY_SYMBOL);
    if (!entry) {
        spmvlab_errf(err, "%s is not an spmvlab plugin: it exports no %s function", path,
                     SPMVLAB_ENTRY_SYMBOL);
        dlclose(h);
        return NULL;
    }
    const spmvlab_plugin *d = entry();
    if (!d) {
        spmvlab_errf(err, "plugin %s returned no descriptor from %s", path, SPMVLAB_ENTRY_SYMBOL);
        dlclose(h);
        return NULL;
    }
    if (d->abi_major != SPMVLAB_ABI_MAJOR || d->abi_minor > SPMVLAB_ABI_MINOR) {
        spmvlab_errf(err, "plugin %s was built for plugin ABI %u.%u, but this spmvlab loads ABI %d.0 to %d.%d",
                     path, d->abi_major, d->abi_minor, SPMVLAB_ABI_MAJOR, SPMVLAB_ABI_MAJOR, SPMVLAB_ABI_MINOR);
        dlclose(h);
        return NULL;
    }
    spmvlab_plugin *copy = &r->descs[r->nloaded];
    memset(copy, 0, sizeof *copy);
    size_t n = d->struct_size < sizeof *copy ? d->struct_size : sizeof *copy;
    memcpy(copy, d, n);
    copy->struct_size = (uint32_t)n;
    static const struct { const char *name; size_t end; } required[] = {
        {"name", offsetof(spmvlab_plugin, name) + sizeof(void *)},
        {"convert", offsetof(spmvlab_plugin, convert) + sizeof(void *)},
        {"spmv", offsetof(spmvlab_plugin, spmv) + sizeof(void *)},
        {"destroy", offsetof(spmvlab_plugin, destroy) + sizeof(void *)},
    };
    for (size_t k = 0; k < sizeof required / sizeof *required; k++) {
        void *member = NULL;
        if (n >= required[k].end)
            memcpy(&member, (char *)copy + required[k].end - sizeof(void *), sizeof member);
        if (!member) {
            spmvlab_errf(err, "plugin %s lacks the required member '%s'", path, required[k].name);
            dlclose(h);
            return NULL;
        }
    }
    if (copy->abi_minor == 0 && !copy->footprint) {
        spmvlab_errf(err, "plugin %s lacks the required member 'footprint' (optional from ABI 1.1 on)", path);
        dlclose(h);
        return NULL;
    }
    if (!valid_name(copy->name)) {
        spmvlab_errf(err, "plugin %s declares the name '%s', which is not of the form [a-z0-9_]+", path,
                     copy->name);
        dlclose(h);
        return NULL;
    }
    if (strcmp(copy->name, file_name) != 0) {
        spmvlab_errf(err, "plugin %s declares the name '%s' but its file is named for '%s' (libspmvlab_<name>.so)",
                     path, copy->name, file_name);
        dlclose(h);
        return NULL;
    }
    const spmvlab_loaded *twin = find_loaded(r, copy->name);
    if (twin) {
        spmvlab_errf(err, "plugin %s declares the name '%s', which %s already provides; one name, one plugin "
                     "file in a run: give yours a name of its own to run the two side by side", path,
                     copy->name, twin->path);
        dlclose(h);
        return NULL;
    }
    spmvlab_option *owned_options = NULL;
    if (spmvlab_option_table_adopt(copy, path, &owned_options, err)) {
        dlclose(h);
        return NULL;
    }
    if (!copy->summary)
        copy->summary = "";
    if (!copy->version)
        copy->version = "";
    if (!copy->reference)
        copy->reference = "";
    spmvlab_loaded *l = calloc(1, sizeof *l);
    if (!l) {
        spmvlab_errf(err, "out of host memory loading %s", path);
        free(owned_options);
        dlclose(h);
        return NULL;
    }
    l->owned_options = owned_options;
    l->desc = copy;
    l->handle = h;
    snprintf(l->path, sizeof l->path, "%s", real);
    plugin_file_hash(real, l->hash);
    r->loaded[r->nloaded++] = l;
    return l;
}

/* The plugin named DIR/NAME: the file DIR/libspmvlab_NAME.so, loaded as
 * the user asked even where an in-tree plugin has that name. */
static const spmvlab_loaded *get_qualified(spmvlab_registry *r, const char *qualified, spmvlab_err *err)
{
    const char *slash = strrchr(qualified, '/');
    if (!valid_name(slash + 1)) {
        spmvlab_errf(err, "'%s' is not a plugin name; a plugin of a folder is named DIR/NAME, NAME of the form "
                     "[a-z0-9_]+", qualified);
        return NULL;
    }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.*s/libspmvlab_%s.so", (int)(slash - qualified), qualified, slash + 1);
    if (access(path, F_OK) != 0) {
        spmvlab_errf(err, "unknown plugin '%s': there is no %s", qualified, path);
        return NULL;
    }
    return spmvlab_registry_load_file(r, path, err);
}

/* 1 when name is one of the build's own plugins. */
static int is_in_tree_name(const char *name)
{
    static const char list[] = SPMVLAB_IN_TREE_PLUGINS;
    size_t n = strlen(name);
    for (const char *s = list; n && (s = strstr(s, name)) != NULL; s++)
        if ((s == list || s[-1] == ',') && (s[n] == ',' || s[n] == '\0'))
            return 1;
    return 0;
}

/* 1 when the plugin file found in a user's folder has an in-tree namesake
 * (another file of the same name, one of the build's own plugins, in a
 * shipped folder), its path in other. */
static int shadows_in_tree(const spmvlab_registry *r, const char *found, const char *name, char *other, size_t len)
{
    char real[PATH_MAX], real_other[PATH_MAX];
    if (!is_in_tree_name(name) || !realpath(found, real))
        return 0;
    for (int i = 0; i < r->nshipped; i++) {
        snprintf(other, len, "%s/libspmvlab_%s.so", r->shipped[i], name);
        if (realpath(other, real_other) && strcmp(real, real_other) != 0)
            return 1;
        if (realpath(other, real_other))
            return 0; /* the user's folder is the in-tree one */
    }
    return 0;
}

int spmvlab_registry_names(spmvlab_registry *r, char (*names)[64], int max)
{
    add_default_dirs(r);
    int n = 0;
    for (int i = 0; i < r->ndirs && n < max; i++) {
        DIR *d = opendir(r->dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) && n < max) {
            plugin_file_name(e->d_name, names[n], sizeof names[n]);
            n += names[n][0] != '\0';
        }
        closedir(d);
    }
    return n;
}

int spmvlab_registry_knows(spmvlab_registry *r, const char *name)
{
    char path[PATH_MAX];
    const char *slash = strrchr(name, '/');
    if (slash) {
        snprintf(path, sizeof path, "%.*s/libspmvlab_%s.so", (int)(slash - name), name, slash + 1);
        return valid_name(slash + 1) && access(path, F_OK) == 0;
    }
    if (!valid_name(name))
        return 0;
    if (find_loaded(r, name))
        return 1;
    add_default_dirs(r);
    for (int i = 0; i < r->ndirs; i++) {
        snprintf(path, sizeof path, "%s/libspmvlab_%s.so", r->dirs[i], name);
        if (access(path, F_OK) == 0)
            return 1;
    }
    return 0;
}

const spmvlab_loaded *spmvlab_registry_get(spmvlab_registry *r, const char *name, spmvlab_err *err)
{
    if (strchr(name, '/'))
        return get_qualified(r, name, err);
    if (!valid_name(name)) {
        spmvlab_errf(err, "'%s' is not a plugin name; names are of the form [a-z0-9_]+", name);
        return NULL;
    }
    /* A file of this name already loaded (as DIR/NAME, or by library =)
     * answers the plain name only when it is the search path's file too:
     * one name, one plugin file in a run. */
    const spmvlab_loaded *l = find_loaded(r, name);
    add_default_dirs(r);
    for (int i = 0; i < r->ndirs; i++) {
        char path[PATH_MAX], other[PATH_MAX], real[PATH_MAX];
        snprintf(path, sizeof path, "%s/libspmvlab_%s.so", r->dirs[i], name);
        if (access(path, F_OK) != 0)
            continue;
        if (shadows_in_tree(r, path, name, other, sizeof other)) {
            spmvlab_errf(err, "plugin '%s' of %s has the name of the in-tree plugin %s; to run the folder's one, "
                         "name it with its folder, '%s/%s', or give it a name of its own", name, r->dirs[i], other,
                         r->dirs[i], name);
            return NULL;
        }
        if (!l)
            return spmvlab_registry_load_file(r, path, err);
        if (realpath(path, real) && strcmp(real, l->path) == 0)
            return l;
        spmvlab_errf(err, "'%s' names the plugin %s, but this run already loaded another file called '%s', %s; "
                     "one name, one plugin file in a run: give yours a name of its own to run the two side by side",
                     name, path, name, l->path);
        return NULL;
    }
    if (l)
        return l;
    char sp[2048], names[MAX_PLUGINS][64], hint[128] = "";
    const char *list[MAX_PLUGINS];
    int n = spmvlab_registry_names(r, names, MAX_PLUGINS);
    for (int i = 0; i < n; i++)
        list[i] = names[i];
    spmvlab_did_you_mean(name, list, n, hint, sizeof hint);
    spmvlab_registry_search_path(r, sp, sizeof sp);
    spmvlab_errf(err, "unknown plugin '%s'%s: no libspmvlab_%s.so on the search path %s", name, hint, name,
                 sp[0] ? sp : "(empty)");
    return NULL;
}

int spmvlab_registry_scan(spmvlab_registry *r, void (*refused)(const char *, const char *, void *), void *arg)
{
    add_default_dirs(r);
    int count = 0;
    for (int i = 0; i < r->ndirs; i++) {
        DIR *d = opendir(r->dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            char name[64];
            plugin_file_name(e->d_name, name, sizeof name);
            if (!name[0])
                continue;
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/%s", r->dirs[i], e->d_name);
            const spmvlab_loaded *same = find_loaded(r, name);
            char real[PATH_MAX];
            if (same && realpath(path, real) && strcmp(real, same->path) == 0)
                continue;
            if (same)
                continue; /* an earlier folder on the path wins, as for lookups */
            spmvlab_err err;
            char other[PATH_MAX];
            if (shadows_in_tree(r, path, name, other, sizeof other)) {
                if (refused) {
                    spmvlab_errf(&err, "it has the name of the in-tree plugin %s; run it as '%s/%s'", other,
                                 r->dirs[i], name);
                    refused(path, err.msg, arg);
                }
                continue;
            }
            if (spmvlab_registry_load_file(r, path, &err))
                count++;
            else if (refused)
                refused(path, err.msg, arg);
        }
        closedir(d);
    }
    return count;
}

int spmvlab_registry_count(const spmvlab_registry *r) { return r->nloaded; }

const spmvlab_loaded *spmvlab_registry_at(const spmvlab_registry *r, int i)
{
    return i >= 0 && i < r->nloaded ? r->loaded[i] : NULL;
}
