/* spmvlab select: recommends a plugin instance per matrix from the results
 * of a corpus (host/select/select.h), with the evidence: the nearest corpus
 * matrices and the chosen instance's speedup on each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/cache.h"
#include "commands.h"
#include "host_options.h"
#include "collect.h"
#include "select.h"
#include "select_evaluate.h"

typedef struct select_args {
    const char *results, *features, *dtype;
    const char *evaluate;     /* --evaluate FILE: judge the selector on it instead */
    const char *more[16];     /* with --evaluate: more results files (given after it) */
    const char *set;          /* --families: the family keys of this set's members */
    int nmore;
    int part;                 /* -1 every member, else spmvlab_part */
    select_params params;
    char **paths;
    int npaths;
} select_args;

static const char intro[] =
    "usage: spmvlab select --results FILE.csv [options] MATRIX...\n"
    "       spmvlab select --evaluate RESULTS.csv [MORE.csv...] [options]\n"
    "\n"
    "Recommends a plugin and options for each matrix from a corpus's results\n"
    "(a CSV of spmvlab run): the instances ranked by their fraction of the fastest\n"
    "on the k corpus matrices nearest in structure, over those each ran on, with\n"
    "the candidates run would build and measure on the matrix.\n"
    "\n"
    "--evaluate judges the selector on measured results: (a) evidence from the tune\n"
    "part, queries from the held-out part; (b) each member a query with its family left\n"
    "out (with --part P, within that part only), over the rows of every file given. A\n"
    "family is a member's name without its size suffix, or its family = NAME in the set\n"
    "of --families NAME|FILE. Prints the fraction of the oracle (the fastest instance per\n"
    "matrix, geomean), the exact-best share and the worst matrices, beside always the\n"
    "baseline and always the best single instance. The rules of the choice\n"
    "(--weight-power to --feature-weights) are explained in docs/corpus.md.\n";

/* --feature-weights W0,...,W9 into p. Returns 0, or -1 with a sentence printed. */
static int parse_feature_weights(const char *v, select_params *p)
{
    const char *at = v;
    char *end;
    for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++) {
        p->feature_weight[d] = strtod(at, &end);
        if (end == at || p->feature_weight[d] < 0 || (*end != ',' && d < SPMVLAB_FEATURE_COUNT - 1) ||
            (d == SPMVLAB_FEATURE_COUNT - 1 && *end)) {
            fprintf(stderr, "spmvlab select: --feature-weights %s is not %d numbers >= 0 separated by commas.\n", v,
                    SPMVLAB_FEATURE_COUNT);
            return -1;
        }
        at = end + 1;
    }
    return 0;
}

/* The rules of the choice the flags give, over the defaults. Returns 0, or
 * -1 with a sentence printed. */
static int read_rules(const spmvlab_flags *f, select_params *p)
{
    const spmvlab_flag_use *u;
    if ((u = spmvlab_flags_last(f, OPT_K)))
        p->k = (int)u->v.i;
    if ((u = spmvlab_flags_last(f, OPT_WEIGHT_POWER)))
        p->distance_power = u->v.f;
    if ((u = spmvlab_flags_last(f, OPT_MIN_SUPPORT)))
        p->min_support = u->v.f;
    if ((u = spmvlab_flags_last(f, OPT_MARGIN)))
        p->margin = u->v.f;
    if ((u = spmvlab_flags_last(f, OPT_MEASURE)))
        p->measure = (int)u->v.i;
    return (u = spmvlab_flags_last(f, OPT_FEATURE_WEIGHTS)) ? parse_feature_weights(u->text, p) : 0;
}

/* The flags and operands read into a. Returns -1 to go on, or an exit
 * status after saying why. */
static int read_args(const spmvlab_flags *f, select_args *a)
{
    spmvlab_err err;
    *a = (select_args){.dtype = spmvlab_flags_text(f, OPT_DTYPE), .part = -1};
    select_params_default(&a->params);
    const spmvlab_flag_use *u;
    a->results = (u = spmvlab_flags_last(f, OPT_RESULTS)) ? u->text : NULL;
    a->features = (u = spmvlab_flags_last(f, OPT_FEATURES)) ? u->text : NULL;
    a->evaluate = (u = spmvlab_flags_last(f, OPT_EVALUATE)) ? u->text : NULL;
    a->set = (u = spmvlab_flags_last(f, OPT_FAMILIES)) ? u->text : NULL;
    if (read_rules(f, &a->params))
        return EXIT_USAGE;
    if ((u = spmvlab_flags_last(f, OPT_PART))) {
        spmvlab_part part;
        if (spmvlab_part_parse(u->text, &part, &err)) {
            fprintf(stderr, "spmvlab select: %s.\n", err.msg);
            return EXIT_USAGE;
        }
        a->part = (int)part;
    }
    for (int i = 0; i < f->noperands; i++) {
        const char *o = f->operands[i];
        if (a->evaluate) { /* more results files: the held-out part's beside the tune part's */
            if (a->nmore == (int)(sizeof a->more / sizeof *a->more)) {
                fprintf(stderr, "spmvlab select: --evaluate takes at most %d results files.\n", a->nmore + 1);
                return EXIT_USAGE;
            }
            a->more[a->nmore++] = o;
        } else if (collect_inputs(o, &a->paths, &a->npaths, &err) < 0) {
            fprintf(stderr, "spmvlab select: %s.\n", err.msg);
            return EXIT_USAGE;
        }
    }
    if (a->set && !a->evaluate) {
        fprintf(stderr, "spmvlab select: --families gives families to --evaluate, which is not given.\n");
        return EXIT_USAGE;
    }
    if (a->evaluate && (a->results || a->npaths)) {
        fprintf(stderr, "spmvlab select: --evaluate takes results files (after it), not --results or matrices.\n");
        return EXIT_USAGE;
    }
    if (!a->evaluate && (!a->results || a->npaths == 0)) {
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
    if (ch->ncandidates > 1) {
        printf("  candidates, the fastest the matrix accepts wins (%s):",
               ch->disagree ? "the evidence disagrees, so they are measured" : "the first refuses some neighbours");
        for (int j = 0; j < ch->ncandidates; j++)
            printf("%s %s %.3f", j ? ";" : "", c->instance[ch->candidate[j]].instance, ch->score[j]);
        printf(" of the fastest\n");
    }
    printf("  %-32s %8s %8s\n", "neighbour", "distance", "speedup");
    for (int j = 0; j < ch->k; j++) {
        const select_member *m = &c->member[ch->neighbour[j]];
        printf("  %-32s %8.3f %8.3g\n", m->matrix, ch->distance[j], m->speedup[ch->index]);
    }
}

/* select --evaluate: both setups on one results file (the held-out one
 * only when the file holds both parts). */
static int evaluate(select_args *a)
{
    select_corpus c;
    spmvlab_err err;
    const char *files[17] = {a->evaluate};
    for (int f = 0; f < a->nmore; f++)
        files[f + 1] = a->more[f];
    if (select_corpus_open_many(files, a->nmore + 1, a->features, a->dtype, -1, &c, &err)) {
        fprintf(stderr, "spmvlab select: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    if (c.left_out_note[0])
        fprintf(stderr, "spmvlab select: %s.\n", c.left_out_note);
    if (a->set && select_corpus_families(&c, a->set, &err)) {
        fprintf(stderr, "spmvlab select: %s.\n", err.msg);
        select_corpus_free(&c);
        return EXIT_USAGE;
    }
    int parts[2] = {0, 0};
    for (int m = 0; m < c.members; m++)
        parts[c.member[m].part == SPMVLAB_PART_HELDOUT]++;
    const select_params *p = &a->params;
    printf("evaluation of the selector on %s (%s, %d members: %d tune, %d held-out; %d instances; baseline %s)\n"
           "rules: k %d, neighbour weight 1/(distance+0.1)^%g, min support %g, margin %g, at most %d measured\n",
           a->evaluate, c.dtype, c.members, parts[0], parts[1], c.instances, c.baseline[0] ? c.baseline : "(none)",
           p->k, p->distance_power, p->min_support, p->margin, p->measure);
    int rc = EXIT_OK;
    for (int s = 0; s < 2; s++) {
        select_eval e;
        if (s == SELECT_SETUP_HELDOUT)
            printf("\n(a) evidence: the tune part; queries: the held-out part\n");
        else
            printf("\n(b) leave one family out: each %s%smember a query, its family's members not evidence\n",
                   a->part < 0 ? "" : spmvlab_part_name((spmvlab_part)a->part), a->part < 0 ? "" : " ");
        if (s == SELECT_SETUP_HELDOUT && (!parts[0] || !parts[1])) {
            printf("  not evaluated: the results hold no member of the %s part\n", parts[0] ? "held-out" : "tune");
            continue;
        }
        if (select_evaluate(&c, p, (select_setup)s, a->part, &e, &err)) {
            fprintf(stderr, "spmvlab select: %s.\n", err.msg);
            rc = EXIT_USAGE;
            continue;
        }
        select_eval_print(stdout, &c, &e, 3);
        select_eval_free(&e);
    }
    select_corpus_free(&c);
    return rc;
}

/* A choice for every matrix a names, from its corpus. */
static int choose_for_matrices(select_args *ap);

int cmd_select(int argc, char **argv)
{
    select_args a = {0};
    spmvlab_flags f;
    host_options_init(&f, HOST_SELECT, "spmvlab select");
    int rc = host_options_read(&f, argc, argv, intro);
    if (rc)
        rc = rc > 0 ? EXIT_OK : EXIT_USAGE;
    else if ((rc = read_args(&f, &a)) < 0)
        rc = a.evaluate ? evaluate(&a) : choose_for_matrices(&a);
    free_paths(a.paths, a.npaths);
    spmvlab_flags_free(&f);
    return rc;
}

static int choose_for_matrices(select_args *ap)
{
    select_args a = *ap;
    select_corpus c = {0};
    spmvlab_err err;
    int rc = EXIT_USAGE;
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
    if (c.left_out_note[0])
        fprintf(stderr, "spmvlab select: %s.\n", c.left_out_note);
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
        if (bad || select_choose_with(&f, &c, &a.params, label, NULL, &ch, &err)) {
            fprintf(stderr, "spmvlab select: %s: %s.\n", a.paths[p], err.msg);
            rc = EXIT_FAILED;
            continue;
        }
        print_choice(a.paths[p], &c, &ch, features_ms);
    }
done:
    select_corpus_free(&c);
    return rc;
}
