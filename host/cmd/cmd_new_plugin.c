/*
 * spmvlab new-plugin NAME [DIR]: writes a minimal, working, commented
 * plugin (a row-per-thread CSR format: host conversion, spmv_host, kernel,
 * options table, ini, README, out-of-tree CMakeLists.txt with its tests)
 * that builds against the installed package and passes `spmvlab check`
 * unchanged. The files are templates/plugin/ compiled into this program
 * (templates/embed.cmake), with @NAME@ and @NAME_UPPER@ replaced.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "host_options.h"
#include "spmvlab/core.h"

typedef struct template_file {
    const char *name; /* file name, with @NAME@ */
    const char *text; /* contents, NUL-terminated */
} template_file;

/* Generated from templates/plugin; ends with a NULL name. */
extern const template_file spmvlab_plugin_template[];

static const char intro[] =
    "usage: spmvlab new-plugin NAME [DIR] [--force]\n"
    "  writes a working plugin called NAME into DIR (default ./NAME):\n"
    "  NAME.c, NAME.cu, NAME_kernels.h, NAME.ini, README.md, CMakeLists.txt\n"
    "  NAME: a lower-case letter, then lower-case letters, digits or '_' (at most 40)\n";

/* The plugin name becomes C identifiers and the file libspmvlab_NAME.so. */
static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 40 || s[0] < 'a' || s[0] > 'z')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

/* Returns text with @NAME@ and @NAME_UPPER@ replaced (malloc'd), or NULL. */
static char *substitute(const char *text, const char *name, const char *upper)
{
    static const char *const keys[] = {"@NAME@", "@NAME_UPPER@"};
    const char *vals[] = {name, upper};
    size_t cap = strlen(text) * 2 + 64, used = 0;
    char *out = malloc(cap);
    while (out && *text) {
        size_t add = 1;
        const char *from = text;
        for (int k = 0; k < 2; k++)
            if (strncmp(text, keys[k], strlen(keys[k])) == 0) {
                from = vals[k];
                add = strlen(vals[k]);
                text += strlen(keys[k]) - 1;
                break;
            }
        if (used + add + 1 > cap) {
            char *g = realloc(out, cap = 2 * (used + add + 1));
            if (!g) {
                free(out);
                return NULL;
            }
            out = g;
        }
        memcpy(out + used, from, add);
        used += add;
        text++;
    }
    if (out)
        out[used] = '\0';
    return out;
}

/* mkdir -p; returns 0 or -1 with errno set. */
static int make_dirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    if (mkdir(buf, 0777) && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(buf, &st) || !S_ISDIR(st.st_mode))
        return errno = ENOTDIR, -1;
    return 0;
}

/* The prefix this program is installed under, when it holds the CMake
 * package; "" when running from a build tree. */
static void installed_prefix(char *out, size_t len)
{
    char exe[PATH_MAX], probe[PATH_MAX + 64];
    out[0] = '\0';
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return;
    *slash = '\0';
    slash = strrchr(exe, '/');
    if (!slash)
        return;
    *slash = '\0'; /* <prefix>/bin/spmvlab -> <prefix> */
    static const char *const libdirs[] = {"lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"};
    for (size_t k = 0; k < sizeof libdirs / sizeof *libdirs; k++) {
        snprintf(probe, sizeof probe, "%s/%s/cmake/spmvlab/spmvlabConfig.cmake", exe[0] ? exe : "", libdirs[k]);
        if (access(probe, R_OK) == 0) {
            snprintf(out, len, "%s", exe[0] ? exe : "/");
            return;
        }
    }
}

int cmd_new_plugin(int argc, char **argv)
{
    spmvlab_flags f;
    host_options_init(&f, HOST_NEW_PLUGIN, "spmvlab new-plugin");
    int rc = host_options_read(&f, argc, argv, intro);
    if (!rc && (f.noperands < 1 || f.noperands > 2)) {
        if (f.noperands)
            fprintf(stderr, "spmvlab new-plugin: unexpected argument '%s'; see --help.\n", f.operands[2]);
        else
            fputs(intro, stderr);
        rc = -1;
    }
    const char *name = f.noperands > 0 ? f.operands[0] : NULL, *dir = f.noperands > 1 ? f.operands[1] : NULL;
    int force = spmvlab_flags_given(&f, OPT_FORCE) > 0;
    spmvlab_flags_free(&f);
    if (rc)
        return rc > 0 ? EXIT_OK : EXIT_USAGE;
    if (!valid_name(name)) {
        fprintf(stderr,
                "spmvlab new-plugin: '%s' cannot be a plugin name: use a lower-case letter, then lower-case "
                "letters, digits or '_' (at most 40 characters).\n",
                name);
        return EXIT_USAGE;
    }
    if (!dir)
        dir = name;
    char upper[64];
    size_t n = strlen(name);
    for (size_t k = 0; k <= n; k++)
        upper[k] = (char)(name[k] >= 'a' && name[k] <= 'z' ? name[k] - 'a' + 'A' : name[k]);
    /* Refuse before writing anything, so a refusal leaves no half plugin. */
    char path[PATH_MAX];
    for (const template_file *t = spmvlab_plugin_template; t->name && !force; t++) {
        char *file = substitute(t->name, name, upper);
        snprintf(path, sizeof path, "%s/%s", dir, file ? file : t->name);
        free(file);
        if (access(path, F_OK) == 0) {
            fprintf(stderr, "spmvlab new-plugin: %s already exists; choose another folder or add --force.\n", path);
            return EXIT_USAGE;
        }
    }
    if (make_dirs(dir)) {
        fprintf(stderr, "spmvlab new-plugin: cannot create the folder %s: %s.\n", dir, strerror(errno));
        return EXIT_FAILED;
    }
    for (const template_file *t = spmvlab_plugin_template; t->name; t++) {
        char *file = substitute(t->name, name, upper), *text = substitute(t->text, name, upper);
        if (!file || !text) {
            free(file);
            free(text);
            fprintf(stderr, "spmvlab new-plugin: out of memory.\n");
            return EXIT_FAILED;
        }
        snprintf(path, sizeof path, "%s/%s", dir, file);
        FILE *f = fopen(path, "w");
        int bad = !f || fputs(text, f) < 0;
        if (f && fclose(f))
            bad = 1;
        free(file);
        free(text);
        if (bad) {
            fprintf(stderr, "spmvlab new-plugin: cannot write %s: %s.\n", path, strerror(errno));
            return EXIT_FAILED;
        }
        printf("wrote %s\n", path);
    }
    char prefix[PATH_MAX];
    installed_prefix(prefix, sizeof prefix);
    printf("\nNext (docs/writing-a-plugin.md explains each step):\n");
    if (prefix[0])
        printf("  cmake -S %s -B %s/build -DCMAKE_PREFIX_PATH=%s\n", dir, dir, prefix);
    else
        printf("  cmake --install <spmvlab build> --prefix <prefix>   # once: the CMake package\n"
               "  cmake -S %s -B %s/build -DCMAKE_PREFIX_PATH=<prefix>\n",
               dir, dir);
    printf("  cmake --build %s/build\n"
           "  spmvlab check %s --plugin-dir %s/build          # the conformance suite, on the CPU\n"
           "  spmvlab check %s --plugin-dir %s/build --gpu    # and on a GPU\n",
           dir, name, dir, name, dir);
    return EXIT_OK;
}
