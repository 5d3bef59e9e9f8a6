/*
 * The paths of a benchmark set: relative paths resolved against the set's
 * root, and folder entries (dir =) replaced by one entry per matrix file,
 * sorted by name, with names that then appear twice refused.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

/* Joins dir and a relative path; absolute paths stay as they are.
 * Returns -1 when the result does not fit. */
static int join(char *out, size_t len, const char *dir, const char *path)
{
    if (path[0] == '/' || !dir[0])
        return gen_textf(out, len, "%s", path);
    return gen_textf(out, len, "%s/%s", dir, path);
}

/* Relative paths resolve against [set] root, itself relative to the set
 * file's folder (default: that folder). */
int gen_set_resolve_paths(spmvlab_set *s, const char *file, const char *root, spmvlab_err *err)
{
    char *abs = realpath(file, NULL), dir[SPMVLAB_PATH_LEN], base[SPMVLAB_PATH_LEN];
    gen_textf(dir, sizeof dir, "%s", abs ? abs : file);
    free(abs);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        strcpy(dir, ".");
    if (join(base, sizeof base, dir, root[0] ? root : "."))
        return spmvlab_errf(err, "%s: the root folder's path is too long", file), -1;
    char *clean = realpath(base, NULL); /* drops "..", when the folder exists */
    if (clean)
        gen_textf(base, sizeof base, "%s", clean);
    free(clean);
    for (int i = 0; i < s->count; i++) {
        spmvlab_set_entry *e = &s->entries[i];
        char raw[SPMVLAB_PATH_LEN];
        memcpy(raw, e->path, sizeof raw);
        if (e->kind[0])
            continue;
        if (join(e->path, sizeof e->path, base, raw))
            return spmvlab_errf(err, "%s:%d: the path of [%s] is too long", file, e->line,
                                e->name), -1;
        clean = realpath(e->path, NULL);
        if (clean)
            gen_textf(e->path, sizeof e->path, "%s", clean);
        free(clean);
    }
    return 0;
}

static int is_matrix_file(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && ((n > 4 && strcmp(name + n - 4, ".mtx") == 0) ||
                              (n > 7 && strcmp(name + n - 7, ".mtx.gz") == 0));
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the matrix files of folder entry e (sorted by name) to list. */
static int list_folder(const char *file, spmvlab_err *err, const spmvlab_set_entry *e,
                       spmvlab_set_entry **list, int *n, int *cap)
{
    DIR *d = opendir(e->path);
    if (!d) {
        if (e->optional)
            return 0;
        return spmvlab_errf(err, "%s:%d: [%s]: cannot read folder %s: %s", file, e->line,
                            e->name, e->path, strerror(errno)), -1;
    }
    char **names = NULL;
    int count = 0, rc = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (!is_matrix_file(de->d_name))
            continue;
        char **grown = realloc(names, (size_t)(count + 1) * sizeof *names);
        char *copy = grown ? strdup(de->d_name) : NULL;
        if (grown)
            names = grown;
        if (!copy) {
            rc = -1;
            spmvlab_errf(err, "out of host memory listing %s", e->path);
            break;
        }
        names[count++] = copy;
    }
    closedir(d);
    if (count)
        qsort(names, (size_t)count, sizeof *names, cmp_names);
    for (int i = 0; i < count && rc == 0; i++) {
        if (*n == *cap) {
            int c = *cap ? 2 * *cap : 64;
            spmvlab_set_entry *grown = realloc(*list, (size_t)c * sizeof *grown);
            if (!grown) {
                rc = -1;
                spmvlab_errf(err, "out of host memory listing %s", e->path);
                break;
            }
            *list = grown;
            *cap = c;
        }
        spmvlab_set_entry *m = &(*list)[(*n)++];
        memset(m, 0, sizeof *m);
        char label[256];
        spmvlab_matrix_label(names[i], label, sizeof label);
        if (strlen(label) >= sizeof m->name || !gen_name_ok(label)) {
            rc = -1;
            spmvlab_errf(err, "%s:%d: [%s]: file %s does not give a matrix name [A-Za-z0-9_.+-]+",
                         file, e->line, e->name, names[i]);
            break;
        }
        strcpy(m->name, label);
        if (join(m->path, sizeof m->path, e->path, names[i])) {
            rc = -1;
            spmvlab_errf(err, "%s:%d: [%s]: a path is too long", file, e->line, e->name);
        }
        m->optional = e->optional;
        memcpy(m->family, e->family, sizeof m->family);
        m->line = e->line;
    }
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* Replaces each folder entry by one entry per matrix file in it, then
 * refuses names that now appear twice. */
int gen_set_expand_folders(spmvlab_set *s, const char *file, const unsigned char *is_dir, spmvlab_err *err)
{
    spmvlab_set_entry *list = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < s->count; i++) {
        if (is_dir[i]) {
            if (list_folder(file, err, &s->entries[i], &list, &n, &cap)) {
                free(list);
                return -1;
            }
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            spmvlab_set_entry *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown) {
                free(list);
                return spmvlab_errf(err, "out of host memory"), -1;
            }
            list = grown;
        }
        list[n++] = s->entries[i];
    }
    free(s->entries);
    s->entries = list;
    s->count = n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(list[i].name, list[j].name) == 0)
                return spmvlab_errf(err, "%s:%d: matrix %s appears twice (also from line %d)",
                                    file, list[i].line, list[i].name, list[j].line), -1;
    if (n == 0)
        return spmvlab_errf(err, "%s: the set holds no matrices", file), -1;
    return 0;
}
