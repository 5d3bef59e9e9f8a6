/* spmvlab gen: writes a synthetic matrix (spmvlab/gen.h) as Matrix Market,
 * or generates every member of a benchmark set into the cache. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "host_options.h"
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

/* gen --help: the usage, the flags of the table, then every kind's
 * parameters (only's alone when a kind is named). */
static void usage(const spmvlab_flags *f, FILE *out, const spmvlab_gen_kind *only)
{
    if (only) {
        fprintf(out, "usage: spmvlab gen %s [--KEY VALUE]... -o FILE.mtx[.gz]\n\n", only->name);
        print_kind(out, only, 1);
        return;
    }
    host_options_help(f,
                      "usage: spmvlab gen KIND [--KEY VALUE | --KEY=VALUE | KEY=VALUE]... -o FILE.mtx[.gz] [--stats]\n"
                      "       spmvlab gen --matrix-set NAME|FILE.ini [--part tune|heldout]\n"
                      "       spmvlab gen --list NAME|FILE.ini [--part tune|heldout]\n"
                      "Writes a synthetic matrix; a seed gives the same matrix on every machine.\n",
                      out);
    fprintf(out, "\nkinds and their parameters (default in the second column):\n");
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

/* gen --matrix-set NAME or gen --list NAME, each with an optional --part P. */
static int gen_set(const spmvlab_flags *f)
{
    spmvlab_set set;
    spmvlab_err err;
    spmvlab_part part = SPMVLAB_PART_TUNE;
    int with_part = spmvlab_flags_given(f, OPT_PART) > 0, listing = spmvlab_flags_given(f, OPT_LIST_SET) > 0;
    const char *name = spmvlab_flags_text(f, listing ? OPT_LIST_SET : OPT_MATRIX_SET);
    if (f->noperands || spmvlab_flags_given(f, OPT_MATRIX_SET) + listing > 1 || spmvlab_flags_given(f, OPT_OUTPUT)) {
        fprintf(stderr, "spmvlab gen: %s takes one set name or file, then optionally --part tune|heldout.\n",
                listing ? "--list" : "--matrix-set");
        return EXIT_USAGE;
    }
    if ((with_part && spmvlab_part_parse(spmvlab_flags_text(f, OPT_PART), &part, &err)) ||
        spmvlab_set_load(name, &set, &err)) {
        fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    if (with_part)
        spmvlab_set_keep_part(&set, part);
    int rc = EXIT_OK;
    if (listing)
        list_set(&set);
    else
        rc = materialize_set(&set);
    spmvlab_set_free(&set);
    return rc;
}

/* The kind's parameters, from --KEY VALUE flags and KEY=VALUE operands
 * (after the kind), into p. Returns 0, or an exit status after saying why. */
static int read_params(const spmvlab_flags *f, spmvlab_gen_params *p)
{
    spmvlab_err err;
    for (int u = 0; u < f->nuses; u++) {
        const spmvlab_flag_use *use = &f->uses[u];
        if (use->row >= f->nrows && spmvlab_gen_params_set(p, f->extra[use->row - f->nrows].key, use->text, &err)) {
            fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
            return EXIT_USAGE;
        }
    }
    for (int i = 1; i < f->noperands; i++) {
        const char *a = f->operands[i], *eq = strchr(a, '=');
        char key[64];
        if (!eq) {
            fprintf(stderr, "spmvlab gen: unexpected argument '%s'; see spmvlab gen %s --help.\n", a, f->operands[0]);
            return EXIT_USAGE;
        }
        snprintf(key, sizeof key, "%.*s", (int)(eq - a), a);
        if (spmvlab_gen_params_set(p, key, eq + 1, &err)) {
            fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* gen KIND ...: the matrix written to -o. */
static int gen_matrix(const spmvlab_flags *f)
{
    const char *kind = f->operands[0], *out = spmvlab_flags_text(f, OPT_OUTPUT);
    spmvlab_gen_params p;
    spmvlab_err err;
    memset(&p, 0, sizeof p);
    int stats = spmvlab_flags_given(f, OPT_STATS) > 0, rc = read_params(f, &p);
    if (rc)
        return rc;
    char desc[1024];
    if (spmvlab_gen_describe(kind, &p, desc, sizeof desc, &err)) {
        fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    if (!out[0]) {
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

int cmd_gen(int argc, char **argv)
{
    spmvlab_flags f;
    spmvlab_err err;
    host_options_init(&f, HOST_GEN, "spmvlab gen");
    /* A kind comes first; its parameters are flags of this command line. */
    const spmvlab_gen_kind *k = argc > 1 && argv[1][0] != '-' ? spmvlab_gen_kind_find(argv[1]) : NULL;
    if (argc > 1 && argv[1][0] != '-' && !k) {
        spmvlab_gen_check(argv[1], NULL, &err);
        fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    f.extra = k ? k->params : NULL;
    int rc = spmvlab_flags_parse(&f, argc, argv, &err);
    if (rc > 0) {
        if (rc == SPMVLAB_FLAGS_MARKDOWN)
            spmvlab_flags_markdown(&f, stdout);
        else
            usage(&f, stdout, k);
        rc = EXIT_OK;
    } else if (rc < 0) {
        fprintf(stderr, "spmvlab gen: %s.\n", err.msg);
        rc = EXIT_USAGE;
    } else if (spmvlab_flags_given(&f, OPT_MATRIX_SET) || spmvlab_flags_given(&f, OPT_LIST_SET)) {
        rc = gen_set(&f);
    } else if (!k) {
        usage(&f, stderr, NULL);
        rc = EXIT_USAGE;
    } else {
        rc = gen_matrix(&f);
    }
    spmvlab_flags_free(&f);
    return rc;
}
