/*
 * The plugin registry: each refusal has its own sentence — not loadable
 * (with dlerror's text), no entry symbol, ABI mismatch naming both
 * versions, name not matching the file, duplicate name, required member
 * missing, a file or folder every user may write to — and plugins are
 * never loaded implicitly from the working directory. The broken plugins
 * come from tests/bad_plugins (SPMVLAB_TEST_PLUGIN_DIR). Last, the memory
 * limit of an instance stops a runaway allocation with status limit.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

static const char *plugdir;
static char tmp[] = "/tmp/spmvlab-registry-XXXXXX";

static void plugin_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/libspmvlab_%s.so", plugdir, name);
}

/* Loads the file of test plugin name into a fresh registry, expecting a
 * refusal whose sentence holds every word (NULL-ended). */
static void expect_refused(const char *name, const char *const *words)
{
    char path[PATH_MAX];
    plugin_path(path, sizeof path, name);
    spmvlab_registry *r = spmvlab_registry_new();
    spmvlab_err err = {{0}};
    const spmvlab_loaded *l = spmvlab_registry_load_file(r, path, &err);
    if (l)
        fprintf(stderr, "%s was loaded but must be refused\n", name);
    TEST_CHECK(l == NULL);
    TEST_CONTAINS(err.msg, path);
    for (int k = 0; words[k]; k++)
        TEST_CONTAINS(err.msg, words[k]);
    TEST_CHECK(spmvlab_registry_count(r) == 0);
    spmvlab_registry_free(r);
}
#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

static int copy_file(const char *from, const char *to, mode_t mode)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    if (!in || !out) {
        if (in)
            fclose(in);
        if (out)
            fclose(out);
        return -1;
    }
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    fclose(out);
    return chmod(to, mode);
}

/* A fresh folder below tmp with mode, holding a copy of the probe plugin. */
static void folder_with_probe(const char *sub, mode_t dir_mode, mode_t file_mode, char *file, size_t len)
{
    char dir[PATH_MAX / 2], probe[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/%s", tmp, sub);
    mkdir(dir, 0700);
    snprintf(file, len, "%s/libspmvlab_probe.so", dir);
    plugin_path(probe, sizeof probe, "probe");
    TEST_CHECK(copy_file(probe, file, file_mode) == 0);
    TEST_CHECK(chmod(dir, dir_mode) == 0);
}

static void refuses_each_broken_plugin(void)
{
    char abi_major[96], abi_minor[96];
    snprintf(abi_major, sizeof abi_major, "was built for plugin ABI %d.%d, but this spmvlab loads ABI %d.0 to %d.%d",
             SPMVLAB_ABI_MAJOR + 1, SPMVLAB_ABI_MINOR, SPMVLAB_ABI_MAJOR, SPMVLAB_ABI_MAJOR, SPMVLAB_ABI_MINOR);
    snprintf(abi_minor, sizeof abi_minor, "was built for plugin ABI %d.%d, but this spmvlab loads ABI %d.0 to %d.%d",
             SPMVLAB_ABI_MAJOR, SPMVLAB_ABI_MINOR + 1, SPMVLAB_ABI_MAJOR, SPMVLAB_ABI_MAJOR, SPMVLAB_ABI_MINOR);
    expect_refused("bad_abi_major", WORDS(abi_major));
    expect_refused("bad_abi_minor", WORDS(abi_minor));
    expect_refused("bad_no_entry", WORDS("is not an spmvlab plugin", "exports no spmvlab_plugin_entry function"));
    expect_refused("bad_null_entry", WORDS("returned no descriptor from spmvlab_plugin_entry"));
    expect_refused("bad_misnamed",
                   WORDS("declares the name 'bad_other' but its file is named for 'bad_misnamed'", "libspmvlab_<name>.so"));
    expect_refused("bad_no_convert", WORDS("lacks the required member 'convert'"));
    /* Every member is set, but beyond struct_size: must not be read. */
    expect_refused("bad_short", WORDS("lacks the required member 'convert'"));
}

static void refuses_a_file_that_is_not_a_shared_object(void)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/libspmvlab_text.so", tmp);
    FILE *f = fopen(path, "w");
    fputs("this is not an ELF file\n", f);
    fclose(f);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    TEST_CHECK(h == NULL);
    char why[512];
    snprintf(why, sizeof why, "%s", dlerror());
    spmvlab_registry *r = spmvlab_registry_new();
    spmvlab_err err;
    TEST_CHECK(spmvlab_registry_load_file(r, path, &err) == NULL);
    TEST_CONTAINS(err.msg, "cannot load plugin");
    TEST_CONTAINS(err.msg, why);
    snprintf(path, sizeof path, "%s/no_such_file.so", tmp);
    TEST_CHECK(spmvlab_registry_load_file(r, path, &err) == NULL);
    TEST_CONTAINS(err.msg, "no such file");
    snprintf(path, sizeof path, "%s/plugin.so", tmp);
    f = fopen(path, "w");
    fclose(f);
    TEST_CHECK(spmvlab_registry_load_file(r, path, &err) == NULL);
    TEST_CONTAINS(err.msg, "plugin files are named libspmvlab_<name>.so");
    spmvlab_registry_free(r);
}

static void refuses_a_duplicate_name(void)
{
    char first[PATH_MAX], second[PATH_MAX];
    plugin_path(first, sizeof first, "bad_dup");
    snprintf(second, sizeof second, "%s/dup/libspmvlab_bad_dup.so", plugdir);
    spmvlab_registry *r = spmvlab_registry_new();
    spmvlab_err err;
    const spmvlab_loaded *a = spmvlab_registry_load_file(r, first, &err);
    TEST_CHECK(a != NULL);
    TEST_CHECK(spmvlab_registry_load_file(r, first, &err) == a); /* the same file again is no duplicate */
    TEST_CHECK(spmvlab_registry_load_file(r, second, &err) == NULL);
    TEST_CONTAINS(err.msg, "declares the name 'bad_dup', which");
    TEST_CONTAINS(err.msg, "already provides");
    TEST_CONTAINS(err.msg, "dup/libspmvlab_bad_dup.so");
    TEST_CHECK(spmvlab_registry_count(r) == 1);
    spmvlab_registry_free(r);
}

static void refuses_files_and_folders_everyone_may_write(void)
{
    char file[PATH_MAX];
    spmvlab_err err;
    spmvlab_registry *r = spmvlab_registry_new();
    folder_with_probe("private", 0700, 0755, file, sizeof file);
    TEST_CHECK(spmvlab_registry_load_file(r, file, &err) != NULL); /* the control */
    spmvlab_registry_free(r);

    r = spmvlab_registry_new();
    folder_with_probe("writable_file", 0700, 0757, file, sizeof file);
    TEST_CHECK(spmvlab_registry_load_file(r, file, &err) == NULL);
    TEST_CONTAINS(err.msg, "refusing plugin");
    TEST_CONTAINS(err.msg, "the file is writable by every user");
    folder_with_probe("writable_folder", 0777, 0755, file, sizeof file);
    TEST_CHECK(spmvlab_registry_load_file(r, file, &err) == NULL);
    TEST_CONTAINS(err.msg, "writable_folder is writable by every user");
    folder_with_probe("sticky_folder", 01777, 0755, file, sizeof file);
    TEST_CHECK(spmvlab_registry_load_file(r, file, &err) == NULL);
    TEST_CONTAINS(err.msg, "sticky_folder is writable by every user");
    /* Found by name on the search path: refused all the same. */
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/writable_folder", tmp);
    spmvlab_registry_add_dir(r, dir);
    TEST_CHECK(spmvlab_registry_get(r, "probe", &err) == NULL);
    TEST_CONTAINS(err.msg, "is writable by every user");
    TEST_CHECK(spmvlab_registry_count(r) == 0);
    spmvlab_registry_free(r);
}

static void never_loads_from_the_working_directory(void)
{
    char file[PATH_MAX], cwd[PATH_MAX], here[PATH_MAX];
    folder_with_probe("cwd", 0755, 0755, file, sizeof file);
    snprintf(here, sizeof here, "%s/cwd", tmp);
    TEST_CHECK(getcwd(cwd, sizeof cwd) != NULL);
    TEST_CHECK(chdir(here) == 0);
    const char *saved = getenv("SPMVLAB_PLUGIN_PATH");
    char *keep = saved ? strdup(saved) : NULL;
    static const char *const paths[] = {"", ":", "::", NULL};
    for (int k = 0; k < 4; k++) {
        if (paths[k])
            setenv("SPMVLAB_PLUGIN_PATH", paths[k], 1);
        else
            unsetenv("SPMVLAB_PLUGIN_PATH");
        spmvlab_registry *r = spmvlab_registry_new();
        spmvlab_err err;
        TEST_CHECK(spmvlab_registry_get(r, "probe", &err) == NULL);
        TEST_CONTAINS(err.msg, "unknown plugin 'probe'");
        char sp[8192];
        spmvlab_registry_search_path(r, sp, sizeof sp);
        TEST_CHECK(strstr(sp, here) == NULL);
        for (char *s = sp; *s; s = strchr(s, ':') ? strchr(s, ':') + 1 : s + strlen(s))
            TEST_CHECK(*s == '/'); /* only absolute folders */
        TEST_CHECK(spmvlab_registry_scan(r, NULL, NULL) >= 0);
        for (int i = 0; i < spmvlab_registry_count(r); i++)
            TEST_CHECK(strcmp(spmvlab_registry_at(r, i)->desc->name, "probe") != 0);
        spmvlab_registry_free(r);
    }
    if (keep) {
        setenv("SPMVLAB_PLUGIN_PATH", keep, 1);
        free(keep);
    }
    TEST_CHECK(chdir(cwd) == 0);
    spmvlab_registry *r = spmvlab_registry_new();
    spmvlab_err err;
    static const char *const not_names[] = {"Probe", "", "probe.so", "dir/Probe", "dir/"};
    for (size_t k = 0; k < sizeof not_names / sizeof *not_names; k++) {
        TEST_CHECK(spmvlab_registry_get(r, not_names[k], &err) == NULL);
        TEST_CONTAINS(err.msg, "is not a plugin name");
    }
    /* DIR/NAME loads only DIR/libspmvlab_NAME.so, which the user named. */
    static const char *const no_files[] = {"../probe", "./probe", "pro/be"};
    for (size_t k = 0; k < sizeof no_files / sizeof *no_files; k++) {
        TEST_CHECK(spmvlab_registry_get(r, no_files[k], &err) == NULL);
        TEST_CONTAINS(err.msg, "there is no ");
    }
    spmvlab_registry_free(r);
}

static void finds_plugins_on_the_search_path_in_order(void)
{
    char file[PATH_MAX], dir[PATH_MAX], probe[PATH_MAX];
    folder_with_probe("first", 0755, 0755, file, sizeof file);
    snprintf(dir, sizeof dir, "%s/first", tmp);
    spmvlab_registry *r = spmvlab_registry_new();
    spmvlab_registry_add_dir(r, dir);
    spmvlab_registry_add_dir(r, plugdir);
    spmvlab_err err;
    const spmvlab_loaded *l = spmvlab_registry_get(r, "probe", &err);
    TEST_CHECK(l != NULL);
    char real[PATH_MAX];
    TEST_CHECK(l && realpath(file, real) && strcmp(l->path, real) == 0);
    TEST_CHECK(spmvlab_registry_get(r, "probe", &err) == l);
    TEST_CHECK(l && strcmp(l->desc->name, "probe") == 0 && l->desc->options && l->desc->struct_size > 0);
    plugin_path(probe, sizeof probe, "probe");
    TEST_CHECK(spmvlab_registry_load_file(r, probe, &err) == NULL); /* same name from a second folder */
    TEST_CONTAINS(err.msg, "already provides");
    TEST_CHECK(spmvlab_registry_get(r, "no_such_plugin", &err) == NULL);
    TEST_CONTAINS(err.msg, "unknown plugin 'no_such_plugin': no libspmvlab_no_such_plugin.so on the search path");
    TEST_CONTAINS(err.msg, plugdir);
    spmvlab_registry_free(r);
}

typedef struct refusals {
    int count;
    char text[4096];
} refusals;

static void note_refusal(const char *path, const char *why, void *arg)
{
    refusals *x = arg;
    x->count++;
    size_t used = strlen(x->text);
    snprintf(x->text + used, sizeof x->text - used, "%s\n", why);
    (void)path;
}

static void scan_loads_the_good_and_reports_the_bad(void)
{
    spmvlab_registry *r = spmvlab_registry_new();
    spmvlab_registry_add_dir(r, plugdir);
    refusals x = {0, ""};
    int loaded = spmvlab_registry_scan(r, note_refusal, &x);
    /* Loadable: probe, bad_dup and the five that fail only when run. */
    static const char *const good[] = {"probe", "bad_dup", "bad_segv", "bad_abort", "bad_hang", "bad_oom", "bad_wrong"};
    for (size_t k = 0; k < sizeof good / sizeof *good; k++) {
        spmvlab_err err;
        TEST_CHECK(spmvlab_registry_get(r, good[k], &err) != NULL);
    }
    TEST_CHECK(loaded >= 7);
    TEST_CHECK(x.count == 7);
    TEST_CONTAINS(x.text, "lacks the required member 'convert'");
    TEST_CONTAINS(x.text, "returned no descriptor");
    TEST_CONTAINS(x.text, "declares the name 'bad_other'");
    spmvlab_registry_free(r);
}

/* A plugin that allocates without end meets the instance's memory limit:
 * status limit, the sentence names the limit, nothing stays allocated. */
static void memory_limit_turns_runaway_allocation_into_limit(void)
{
    spmvlab_registry *r = spmvlab_registry_new();
    spmvlab_registry_add_dir(r, plugdir);
    spmvlab_err err;
    const spmvlab_loaded *pl = spmvlab_registry_get(r, "bad_oom", &err);
    TEST_CHECK(pl != NULL);
    spmvlab_csr A;
    if (!pl || test_gen_uniform(&A, 100, 100, 5, 1)) {
        spmvlab_registry_free(r);
        return;
    }
    spmvlab_runtime rt;
    TEST_CHECK(spmvlab_runtime_open(&rt, 0, 0, &err) == 0);
    rt.mem_limit = 64u << 20; /* blocks of 1, 2, ... 32 MiB fit; 64 more do not */
    spmvlab_prepared pm;
    TEST_CHECK(spmvlab_prepare(&rt, &A, "runaway", SPMVLAB_F64, &pm, &err) == 0);
    spmvlab_optset opts;
    TEST_CHECK(spmvlab_optset_init(&opts, pl->desc, &err) == 0);
    TEST_CHECK(spmvlab_optset_set(&opts, "bad_oom", "first_mib", "1", &err) == 0);
    spmvlab_instance in;
    spmvlab_status st = spmvlab_instance_convert(&in, &rt, pl, "bad_oom", &opts, &pm, &err);
    TEST_CHECK(st == SPMVLAB_LIMIT);
    TEST_CHECK(strcmp(spmvlab_status_name(st), "limit") == 0);
    TEST_CONTAINS(err.msg, "bad_oom on runaway: ");
    TEST_CONTAINS(err.msg, "would exceed the memory limit of 67108864 bytes");
    TEST_CHECK(in.cur_bytes == 0 && in.live_allocs == 0 && in.fmt == NULL);
    TEST_CHECK(in.peak_bytes == 63u << 20);

    /* Without a limit the allocator itself refuses (1 TiB first): oom. */
    rt.mem_limit = 0;
    TEST_CHECK(spmvlab_optset_set(&opts, "bad_oom", "first_mib", "1048576", &err) == 0);
    st = spmvlab_instance_convert(&in, &rt, pl, "bad_oom", &opts, &pm, &err);
    TEST_CHECK(st == SPMVLAB_NOMEM);
    TEST_CHECK(strcmp(spmvlab_status_name(st), "oom") == 0);
    TEST_CONTAINS(err.msg, "out of host memory");
    spmvlab_optset_free(&opts);
    spmvlab_prepared_free(&pm);
    spmvlab_runtime_close(&rt);
    spmvlab_csr_free(&A);
    spmvlab_registry_free(r);
}

int main(void)
{
    plugdir = getenv("SPMVLAB_TEST_PLUGIN_DIR");
    char probe[PATH_MAX];
    if (plugdir) {
        snprintf(probe, sizeof probe, "%s/libspmvlab_probe.so", plugdir);
    }
    if (!plugdir || access(probe, R_OK) != 0) {
        printf("test_registry: skipped, the test plugins are not built (SPMVLAB_TEST_PLUGIN_DIR)\n");
        return 77;
    }
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    refuses_each_broken_plugin();
    refuses_a_file_that_is_not_a_shared_object();
    refuses_a_duplicate_name();
    refuses_files_and_folders_everyone_may_write();
    never_loads_from_the_working_directory();
    finds_plugins_on_the_search_path_in_order();
    scan_loads_the_good_and_reports_the_bad();
    memory_limit_turns_runaway_allocation_into_limit();
    char cmd[256];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' && rm -rf '%s'", tmp, tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return test_done("test_registry");
}
