/*
 * spmvlab check PLUGIN: the conformance suite a plugin author runs. For
 * every declared dtype and every matrix (built-in edge cases, then files):
 * convert, footprint against tracked allocations, spmv_host (and the GPU
 * path with --gpu) twice with fresh random x into NaN-poisoned y, checked
 * against the reference bound, and destroy leaving zero bytes. A clean
 * refusal (unsupported / limit with a sentence) passes as a refusal. Then
 * two instances with different options side by side, and the refusal of
 * every dtype the plugin does not declare. Each check runs in a child
 * process with a time limit, so a crash or a hang is one failed line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_cases.h"
#include "check_suite.h"
#include "commands.h"
#include "collect.h"
#include "spmvlab/edge.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: spmvlab check PLUGIN|FILE.so [options]\n"
            "  --plugin-dir DIR     search DIR for plugins first\n"
            "  --set KEY=VALUE      option for the instance under test (repeatable)\n"
            "  --dtype f64|f32|f16  check only this dtype (repeatable; default: all declared)\n"
            "  --matrix FILE        also check this matrix (repeatable)\n"
            "  --matrix-dir DIR     also check every .mtx/.mtx.gz in DIR\n"
            "  --max-nnz N          skip matrix files with more non-zeros\n"
            "  --skip-missing       exit 77 (skipped) when a --matrix-dir does not exist\n"
            "  --no-edge-cases      only the matrix files\n"
            "  --gpu                also run the GPU path (exit 77 without a GPU)\n"
            "  --seed N             seed of the random x (default 1)\n"
            "  --timeout S          seconds one check may take in its child process (default 60; 0: none)\n"
            "  --no-fork            run every check in this process (to debug under gdb; a crash ends the run)\n"
            "  -v                   add the plugin's log lines to each result\n");
}

/* Whether target names a plugin file that exists: a .so path as given, or
 * what run -p takes, NAME (its libspmvlab_NAME.so in a folder of the search
 * path) or DIR/NAME (DIR/libspmvlab_NAME.so). A plugin that exists but
 * fails to load fails its first check (exit 1); one that does not exist is
 * bad usage (exit 2). */
static int plugin_exists(spmvlab_registry *reg, const char *target)
{
    if (check_target_is_file(target))
        return access(target, F_OK) == 0;
    return spmvlab_registry_knows(reg, target);
}

/* The "did you mean" of an unknown plugin name: the nearest plugin on the
 * search path, as run's refusal names it. */
static const char *plugin_hint(spmvlab_registry *reg, const char *target, char *hint, size_t len)
{
    char names[256][64];
    const char *list[256];
    int n = spmvlab_registry_names(reg, names, 256);
    for (int i = 0; i < n; i++)
        list[i] = names[i];
    return spmvlab_did_you_mean(target, list, n, hint, len);
}

int cmd_check(int argc, char **argv)
{
    check_settings o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.edge_cases = 1;
    o.timeout_s = 60;
    const char *target = NULL;
    char **paths = NULL;
    int npaths = 0, skip_missing = 0;
    const char *dirs[16];
    int ndirs = 0;
    spmvlab_registry *reg = spmvlab_registry_new();
    int rc = EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            rc = EXIT_OK;
            goto out;
        } else if (strcmp(a, "--plugin-dir") == 0 && more)
            spmvlab_registry_add_dir(reg, argv[++i]);
        else if (strcmp(a, "--set") == 0 && more) {
            if (o.nsets == CHECK_MAX_SETS) {
                fprintf(stderr, "spmvlab check: too many --set options.\n");
                goto out;
            }
            o.sets[o.nsets++] = argv[++i];
        } else if (strcmp(a, "--dtype") == 0 && more) {
            spmvlab_dtype d;
            if (spmvlab_dtype_parse(argv[++i], &d)) {
                fprintf(stderr, "spmvlab check: unknown dtype '%s'; use f64, f32 or f16.\n", argv[i]);
                goto out;
            }
            o.dtype_mask |= SPMVLAB_DTYPE_BIT(d);
        } else if (strcmp(a, "--matrix") == 0 && more) {
            spmvlab_err err;
            if (collect_inputs(argv[++i], &paths, &npaths, &err) < 0) {
                fprintf(stderr, "spmvlab check: %s.\n", err.msg);
                goto out;
            }
        } else if (strcmp(a, "--matrix-dir") == 0 && more && ndirs < 16)
            dirs[ndirs++] = argv[++i];
        else if (strcmp(a, "--max-nnz") == 0 && more)
            o.max_nnz = atol(argv[++i]);
        else if (strcmp(a, "--skip-missing") == 0)
            skip_missing = 1;
        else if (strcmp(a, "--no-edge-cases") == 0)
            o.edge_cases = 0;
        else if (strcmp(a, "--gpu") == 0)
            o.gpu = 1;
        else if (strcmp(a, "--seed") == 0 && more)
            o.seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(a, "--timeout") == 0 && more) {
            char *end;
            o.timeout_s = strtod(argv[++i], &end);
            if (*end || o.timeout_s < 0) {
                fprintf(stderr, "spmvlab check: --timeout wants seconds (a number >= 0), not '%s'.\n", argv[i]);
                goto out;
            }
        } else if (strcmp(a, "--no-fork") == 0)
            o.no_fork = 1;
        else if (strcmp(a, "-v") == 0)
            o.verbose = 1;
        else if (a[0] != '-' && !target)
            target = a;
        else {
            static const char *const flags[] = {"--plugin-dir", "--set", "--dtype", "--matrix", "--matrix-dir",
                                                "--max-nnz", "--skip-missing", "--no-edge-cases", "--gpu", "--seed",
                                                "--timeout", "--no-fork", "-v", "--help"};
            char hint[96];
            spmvlab_did_you_mean(a, flags, (int)(sizeof flags / sizeof *flags), hint, sizeof hint);
            fprintf(stderr, "spmvlab check: unknown or incomplete argument '%s'%s; see --help.\n", a, hint);
            goto out;
        }
    }
    if (!target) {
        usage(stderr);
        goto out;
    }
    if (!plugin_exists(reg, target)) {
        char sp[4096], hint[96];
        spmvlab_registry_search_path(reg, sp, sizeof sp);
        const char *slash = strrchr(target, '/');
        if (check_target_is_file(target))
            fprintf(stderr, "spmvlab check: plugin file %s does not exist.\n", target);
        else if (slash)
            fprintf(stderr, "spmvlab check: unknown plugin '%s': there is no %.*s/libspmvlab_%s.so.\n", target,
                    (int)(slash - target), target, slash + 1);
        else
            fprintf(stderr, "spmvlab check: unknown plugin '%s'%s: no libspmvlab_%s.so on the search path %s; "
                            "'spmvlab list' shows the plugins found.\n",
                    target, plugin_hint(reg, target, hint, sizeof hint), target, sp);
        goto out;
    }
    for (int d = 0; d < ndirs; d++) {
        spmvlab_err err;
        if (collect_inputs(dirs[d], &paths, &npaths, &err) < 0) {
            if (skip_missing) {
                printf("skipped: matrix folder %s does not exist\n", dirs[d]);
                rc = EXIT_SKIPPED;
                goto out;
            }
            fprintf(stderr, "spmvlab check: %s.\n", err.msg);
            goto out;
        }
    }
    o.paths = paths;
    o.npaths = npaths;
    rc = check_run(reg, target, &o);
out:
    free_paths(paths, npaths);
    spmvlab_registry_free(reg);
    return rc;
}
