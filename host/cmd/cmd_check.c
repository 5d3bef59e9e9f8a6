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
#include "collect.h"
#include "commands.h"
#include "host_options.h"
#include "spmvlab/edge.h"

static const char intro[] = "usage: spmvlab check PLUGIN|FILE.so [options]\n"
                            "Runs the conformance suite on one plugin (a name on the search path, DIR/NAME or a\n"
                            "plugin file).\n";

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

/* The options read into o and the folders to search; returns 0, or an
 * exit status after saying why. */
static int read_settings(const spmvlab_flags *f, check_settings *o, spmvlab_registry *reg, char ***paths,
                         int *npaths)
{
    int at = 0;
    for (const spmvlab_flag_use *u; (u = spmvlab_flags_next(f, OPT_PLUGIN_DIR, &at));)
        spmvlab_registry_add_dir(reg, u->text);
    at = 0;
    for (const spmvlab_flag_use *u; (u = spmvlab_flags_next(f, OPT_OPTION, &at));) {
        if (o->nsets == CHECK_MAX_SETS) {
            fprintf(stderr, "spmvlab check: more than %d --option values.\n", CHECK_MAX_SETS);
            return EXIT_USAGE;
        }
        o->sets[o->nsets++] = u->text;
    }
    at = 0;
    for (const spmvlab_flag_use *u; (u = spmvlab_flags_next(f, OPT_CHECK_DTYPE, &at));) {
        char list[64];
        snprintf(list, sizeof list, "%s", u->text);
        for (char *save = NULL, *t = strtok_r(list, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
            spmvlab_dtype d;
            if (spmvlab_dtype_parse(t, &d)) {
                fprintf(stderr, "spmvlab check: unknown dtype '%s'; use f64, f32 or f16.\n", t);
                return EXIT_USAGE;
            }
            o->dtype_mask |= SPMVLAB_DTYPE_BIT(d);
        }
    }
    at = 0;
    for (const spmvlab_flag_use *u; (u = spmvlab_flags_next(f, OPT_MATRIX, &at));) {
        spmvlab_err err;
        if (collect_inputs(u->text, paths, npaths, &err) < 0) {
            fprintf(stderr, "spmvlab check: %s.\n", err.msg);
            return EXIT_USAGE;
        }
    }
    const char *seed = spmvlab_flags_text(f, OPT_SEED);
    char *end;
    o->seed = strtoull(seed, &end, 10);
    if (!seed[0] || *end) {
        fprintf(stderr, "spmvlab check: --seed '%s' is not a whole number.\n", seed);
        return EXIT_USAGE;
    }
    o->max_nnz = atol(spmvlab_flags_text(f, OPT_MAX_NNZ));
    o->timeout_s = atof(spmvlab_flags_text(f, OPT_CHECK_TIMEOUT));
    o->edge_cases = !spmvlab_flags_given(f, OPT_NO_EDGE_CASES);
    o->gpu = spmvlab_flags_given(f, OPT_GPU) > 0;
    o->no_fork = spmvlab_flags_given(f, OPT_NO_FORK) > 0;
    o->verbose = spmvlab_flags_given(f, OPT_VERBOSE) > 0;
    return 0;
}

int cmd_check(int argc, char **argv)
{
    check_settings o;
    memset(&o, 0, sizeof o);
    char **paths = NULL;
    int npaths = 0;
    spmvlab_registry *reg = spmvlab_registry_new();
    spmvlab_flags f;
    host_options_init(&f, HOST_CHECK, "spmvlab check");
    int rc = host_options_read(&f, argc, argv, intro);
    if (rc) {
        rc = rc > 0 ? EXIT_OK : EXIT_USAGE;
        goto out;
    }
    rc = EXIT_USAGE;
    if (f.noperands != 1) {
        fprintf(stderr, f.noperands ? "spmvlab check: one plugin at a time, not %d; see spmvlab check --help.\n"
                                    : "spmvlab check: no plugin named; see spmvlab check --help.\n",
                f.noperands);
        goto out;
    }
    const char *target = f.operands[0];
    if ((rc = read_settings(&f, &o, reg, &paths, &npaths)))
        goto out;
    rc = EXIT_USAGE;
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
    int at = 0;
    for (const spmvlab_flag_use *u; (u = spmvlab_flags_next(&f, OPT_MATRIX_DIR, &at));) {
        spmvlab_err err;
        if (collect_inputs(u->text, &paths, &npaths, &err) < 0) {
            if (spmvlab_flags_given(&f, OPT_SKIP_MISSING)) {
                printf("skipped: matrix folder %s does not exist\n", u->text);
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
    spmvlab_flags_free(&f);
    free_paths(paths, npaths);
    spmvlab_registry_free(reg);
    return rc;
}
