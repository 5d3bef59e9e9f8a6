/* spmvlab select: recommends a plugin instance per matrix from the results
 * of a corpus (host/select/select.h), with the evidence: the nearest corpus
 * matrices and the chosen instance's speedup on each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/cache.h"
#include "commands.h"
#include "collect.h"
#include "select.h"

typedef struct select_args {
    const char *results, *features, *dtype;
    int k, part;              /* part: -1 every member, else spmvlab_part */
    char **paths;
    int npaths;
} select_args;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: spmvlab select --results FILE.csv [options] MATRIX...\n"
            "\n"
            "Recommends a plugin and options for each matrix from a corpus's results\n"
            "(a CSV of spmvlab run): of the instances measured on the k corpus matrices\n"
            "nearest in structure, the one with the best geomean speedup over the baseline.\n"
            "\n"
            "  --results FILE   results CSV of the corpus (required)\n"
            "  --features FILE  corpus features: read when present, written when computed\n"
            "  --k N            neighbours weighed (default %d, at most %d)\n"
            "  --dtype T        rows of this dtype only (default f64)\n"
            "  --part P         corpus members of this part only: tune or heldout\n",
            SELECT_DEFAULT_K, SELECT_MAX_K);
}

static int parse_args(int argc, char **argv, select_args *a)
{
    spmvlab_err err;
    *a = (select_args){NULL, NULL, "f64", SELECT_DEFAULT_K, -1, NULL, 0};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int has_value = i + 1 < argc;
        static const char *const flags[] = {"--results", "--features", "--k", "--dtype", "--part", "--help"};
        int known = 0;
        for (int f = 0; f < 6; f++)
            known |= strcmp(o, flags[f]) == 0;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage(stdout);
            return EXIT_OK;
        } else if (o[0] == '-' && !known) {
            char hint[96];
            spmvlab_did_you_mean(o, flags, 6, hint, sizeof hint);
            fprintf(stderr, "spmvlab select: unknown option '%s'%s; see spmvlab select --help.\n", o, hint);
            return EXIT_USAGE;
        } else if (o[0] == '-' && !has_value) {
            fprintf(stderr, "spmvlab select: %s needs a value.\n", o);
            return EXIT_USAGE;
        } else if (strcmp(o, "--results") == 0) {
            a->results = argv[++i];
        } else if (strcmp(o, "--features") == 0) {
            a->features = argv[++i];
        } else if (strcmp(o, "--dtype") == 0) {
            a->dtype = argv[++i];
        } else if (strcmp(o, "--k") == 0) {
            char *end;
            long k = strtol(argv[++i], &end, 10);
            if (*end || k < 1 || k > SELECT_MAX_K) {
                fprintf(stderr, "spmvlab select: --k %s is not a whole number in [1, %d].\n",
                        argv[i], SELECT_MAX_K);
                return EXIT_USAGE;
            }
            a->k = (int)k;
        } else if (strcmp(o, "--part") == 0) {
            spmvlab_part part;
            if (spmvlab_part_parse(argv[++i], &part, &err)) {
                fprintf(stderr, "spmvlab select: %s.\n", err.msg);
                return EXIT_USAGE;
            }
            a->part = (int)part;
        } else if (collect_inputs(o, &a->paths, &a->npaths, &err) < 0) {
            fprintf(stderr, "spmvlab select: %s.\n", err.msg);
            return EXIT_USAGE;
        }
    }
    if (!a->results || a->npaths == 0) {
        fprintf(stderr, "spmvlab select: %s.\n",
                !a->results ? "no results file (--results FILE.csv)" : "no matrix to choose for");
        return EXIT_USAGE;
    }
    return -1;
}

/* The label a results file gives a matrix file: its name without folder
 * and without .mtx[.gz] or .gen. */
static void label_of(const char *path, char *out, size_t len)
{
    const char *base = strrchr(path, '/');
    snprintf(out, len, "%s", base ? base + 1 : path);
    static const char *const suffixes[] = {".gz", ".mtx", SPMVLAB_RECIPE_SUFFIX};
    for (int s = 0; s < 3; s++) {
        size_t n = strlen(out), m = strlen(suffixes[s]);
        if (n > m && strcmp(out + n - m, suffixes[s]) == 0)
            out[n - m] = '\0';
    }
}

/* One matrix's choice and its evidence; the time is this matrix's own (its
 * loading, its features and the choice), the corpus's preparation being
 * printed once above. */
static void print_choice(const char *path, const select_corpus *c, const select_choice *ch,
                         double features_ms)
{
    const select_instance *in = &ch->chosen;
    printf("%s: %s (plugin %s%s%s)\n", path, in->instance, in->plugin, in->options[0] ? "; " : "",
           in->options);
    printf("  predicted %.3gx the baseline %s (geomean over %d of %d neighbours); chosen in %.2f ms"
           " (of which loading and features %.2f ms)\n",
           ch->predicted, c->baseline[0] ? c->baseline : "(unnamed)", ch->covered, ch->k,
           ch->cost_ms + features_ms, features_ms);
    printf("  %-32s %8s %8s\n", "neighbour", "distance", "speedup");
    for (int j = 0; j < ch->k; j++) {
        const select_member *m = &c->member[ch->neighbour[j]];
        printf("  %-32s %8.3f %8.3g\n", m->matrix, ch->distance[j], m->speedup[ch->index]);
    }
}

int cmd_select(int argc, char **argv)
{
    select_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0) {
        free_paths(a.paths, a.npaths);
        return rc;
    }
    select_corpus c = {0};
    spmvlab_err err;
    rc = EXIT_USAGE;
    double opened = spmvlab_now_ms();
    if (select_corpus_open(a.results, a.features, a.dtype, a.part, &c, &err)) {
        fprintf(stderr, "spmvlab select: %s.\n", err.msg);
        goto done;
    }
    /* Reading the corpus (its features computed when no --features file
     * holds them) is the larger cost, paid once: stated apart. */
    printf("corpus %s: %d matrices, %d instances (%s), speedups over the baseline %s; prepared in %.2f ms "
           "(features of %d matrices computed, %d read from --features)\n", a.results, c.members, c.instances,
           c.dtype, c.baseline[0] ? c.baseline : "(unnamed)", spmvlab_now_ms() - opened, c.computed,
           c.members - c.computed);
    rc = EXIT_OK;
    for (int p = 0; p < a.npaths; p++) {
        spmvlab_csr A;
        spmvlab_features f;
        select_choice ch;
        char label[256];
        double t0 = spmvlab_now_ms();
        int lrc = spmvlab_matrix_load(a.paths[p], &A, &err);
        if (lrc == -2) { /* a kind spmvlab does not handle: skipped, as run skips it */
            fprintf(stderr, "spmvlab select: skipping %s: %s.\n", a.paths[p], err.msg);
            continue;
        }
        if (lrc) {
            fprintf(stderr, "spmvlab select: %s.\n", err.msg);
            rc = EXIT_USAGE; /* the others are still chosen for */
            continue;
        }
        int bad = spmvlab_features_of(&A, &f, &err);
        spmvlab_csr_free(&A);
        double features_ms = spmvlab_now_ms() - t0;
        label_of(a.paths[p], label, sizeof label);
        if (bad || select_choose(&f, &c, a.k, label, &ch, &err)) {
            fprintf(stderr, "spmvlab select: %s: %s.\n", a.paths[p], err.msg);
            rc = EXIT_FAILED;
            continue;
        }
        print_choice(a.paths[p], &c, &ch, features_ms);
    }
done:
    select_corpus_free(&c);
    free_paths(a.paths, a.npaths);
    return rc;
}
