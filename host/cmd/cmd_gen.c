/* spmvlab gen: writes a synthetic matrix (spmvlab/gen.h) as Matrix Market,
 * or generates every member of a benchmark set into the cache. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "spmvlab/core.h"
#include "spmvlab/gen.h"

/* One kind and its parameters; common = 0 leaves out seed and values,
 * which every kind shares. */
static void print_kind(FILE *out, const spmvlab_gen_kind *k, int common)
{
    fprintf(out, "  %-12s %s\n", k->name, k->summary);
    for (const spmvlab_option *o = k->params; o->key; o++)
        if (common || (strcmp(o->key, "seed") != 0 && strcmp(o->key, "values") != 0))
            fprintf(out, "      --%-12s %-8s %s\n", o->key, o->def, o->help);
}

static void usage(FILE *out, const spmvlab_gen_kind *only)
{
    if (only) {
        fprintf(out, "usage: spmvlab gen %s [--KEY VALUE]... -o FILE.mtx[.gz]\n\n", only->name);
        print_kind(out, only, 1);
        return;
    }
    fprintf(out,
            "usage: spmvlab gen KIND [--KEY VALUE | --KEY=VALUE | KEY=VALUE]... -o FILE.mtx[.gz]\n"
            "       spmvlab gen --set NAME|FILE.ini [--part tune|heldout]\n"
            "                                    generate a set's matrices into the cache\n"
            "       spmvlab gen --list NAME|FILE.ini [--part tune|heldout]\n"
            "                                    list a set's members, each with its part of the split\n"
            "\n"
            "Writes a synthetic matrix; a seed gives the same matrix on every machine.\n"
            "Options: -o FILE (required; .gz compresses), --stats (row-length statistics).\n"
            "\nkinds and their parameters (default in the second column):\n");
    for (int i = 0; spmvlab_gen_kind_at(i); i++)
        print_kind(out, spmvlab_gen_kind_at(i), 0);
    fprintf(out, "\nevery kind also takes:\n");
    for (const spmvlab_option *o = spmvlab_gen_kind_at(0)->params; o->key; o++)
        if (strcmp(o->key, "seed") == 0 || strcmp(o->key, "values") == 0)
            fprintf(out, "      --%-12s %-8s %s\n", o->key, o->def, o->help);
}

/* Prints "name part what" for every member of a set, what being the
 * generator description or the file. */
static void list_set(const spmvlab_set *set)
{
    for (int i = 0; i < set->count; i++) {
        const spmvlab_set_entry *e = &set->entries[i];
        char what[SPMVLAB_PATH_LEN];
        spmvlab_err err;
        if (!e->kind[0] || spmvlab_gen_describe(e->kind, &e->params, what, sizeof what, &err))
            snprintf(what, sizeof what, "%s", e->kind[0] ? e->kind : e->path);
        printf("%-32s %-8s %s\n", e->name, spmvlab_part_name(spmvlab_split_part(e->name)), what);
    }
}

/* Generates (or finds) every matrix of a set; prints "name path". */
static int materialize_set(const spmvlab_set *set)
{
    int rc = EXIT_OK;
    spmvlab_err err;
    for (int i = 0; i < set->count; i++) {
        char path[4096];
        double t0 = spmvlab_now_ms();
        int st = spmvlab_set_materialize(set, i, path, sizeof path, &err);
        if (st < 0) {
            fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
            rc = EXIT_FAILED;
        } else if (st > 0) {
            fprintf(stderr, "spmvlab gen: skipped: %s.\n", err.msg);
        } else {
            printf("%-24s %s (%.1f s)\n", set->entries[i].name, path,
                   (spmvlab_now_ms() - t0) / 1000);
            fflush(stdout);
        }
    }
    return rc;
}

/* gen --set NAME or gen --list NAME, each with an optional --part P. */
static int gen_set(int argc, char **argv)
{
    spmvlab_set set;
    spmvlab_err err;
    spmvlab_part part = SPMVLAB_PART_TUNE;
    int with_part = argc == 5 && strcmp(argv[3], "--part") == 0;
    if (argc != 3 && !with_part) {
        fprintf(stderr, "spmvlab gen: %s takes one set name or file, then optionally --part tune|heldout.\n",
                argv[1]);
        return EXIT_USAGE;
    }
    if ((with_part && spmvlab_part_parse(argv[4], &part, &err)) || spmvlab_set_load(argv[2], &set, &err)) {
        fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    if (with_part)
        spmvlab_set_keep_part(&set, part);
    int rc = EXIT_OK;
    if (strcmp(argv[1], "--list") == 0)
        list_set(&set);
    else
        rc = materialize_set(&set);
    spmvlab_set_free(&set);
    return rc;
}

int cmd_gen(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout, NULL);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (strcmp(argv[1], "--set") == 0 || strcmp(argv[1], "--list") == 0)
        return gen_set(argc, argv);
    const char *kind = argv[1], *out = NULL;
    const spmvlab_gen_kind *k = spmvlab_gen_kind_find(kind);
    spmvlab_gen_params p;
    spmvlab_err err;
    memset(&p, 0, sizeof p);
    int stats = 0;
    if (!k) {
        spmvlab_gen_check(kind, NULL, &err);
        fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, k);
            return EXIT_OK;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (++i == argc) {
                fprintf(stderr, "spmvlab gen: %s needs a file name.\n", a);
                return EXIT_USAGE;
            }
            out = argv[i];
        } else if (strcmp(a, "--stats") == 0) {
            stats = 1;
        } else if (strncmp(a, "--", 2) == 0 || strchr(a, '=')) {
            /* --key value, --key=value or key=value */
            char key[64], value[128];
            const char *body = strncmp(a, "--", 2) == 0 ? a + 2 : a, *eq = strchr(body, '=');
            if (eq) {
                snprintf(key, sizeof key, "%.*s", (int)(eq - body), body);
                snprintf(value, sizeof value, "%s", eq + 1);
            } else if (i + 1 < argc) {
                snprintf(key, sizeof key, "%s", body);
                snprintf(value, sizeof value, "%s", argv[++i]);
            } else {
                fprintf(stderr, "spmvlab gen: %s needs a value.\n", a);
                return EXIT_USAGE;
            }
            if (spmvlab_gen_params_set(&p, key, value, &err)) {
                fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "spmvlab gen: unexpected argument '%s'; see spmvlab gen %s --help.\n",
                    a, kind);
            return EXIT_USAGE;
        }
    }
    char desc[1024];
    if (spmvlab_gen_describe(kind, &p, desc, sizeof desc, &err)) {
        fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    if (!out) {
        fprintf(stderr, "spmvlab gen: no output file (-o FILE.mtx).\n");
        return EXIT_USAGE;
    }
    spmvlab_csr A;
    double t0 = spmvlab_now_ms();
    if (spmvlab_gen(kind, &p, &A, &err)) {
        fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    double t1 = spmvlab_now_ms();
    char comment[1100];
    snprintf(comment, sizeof comment, "generated by spmvlab gen: %s", desc);
    if (spmvlab_mtx_write(out, &A, comment, &err)) {
        fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
        spmvlab_csr_free(&A);
        return EXIT_FAILED;
    }
    double t2 = spmvlab_now_ms();
    printf("%s: %s\n  %d x %d, %d non-zeros; generated in %.2f s, written in %.2f s\n", out, desc,
           A.rows, A.cols, A.nnz, (t1 - t0) / 1000, (t2 - t1) / 1000);
    if (stats) {
        spmvlab_row_stats s;
        spmvlab_row_stats_of(&A, &s);
        printf("  row lengths: min %d, mean %.2f, max %d, stddev %.2f, empty rows %d\n", s.min,
               s.mean, s.max, s.stddev, s.empty);
    }
    spmvlab_csr_free(&A);
    return EXIT_OK;
}
