/* The selector judged on measured results; see select_evaluate.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "select_evaluate.h"

static double oracle_ms(const select_member *m, int instances)
{
    double best = NAN;
    for (int i = 0; i < instances; i++)
        if (m->state[i] == SELECT_OK && m->ms[i] > 0 && !(m->ms[i] >= best))
            best = m->ms[i];
    return best;
}

static int baseline_index(const select_corpus *c)
{
    for (int i = 0; i < c->instances; i++)
        if (strcmp(c->instance[i].instance, c->baseline) == 0)
            return i;
    return -1;
}

/* The time a rule gets on member m taking instance i: its own where it ran
 * ok; else the baseline's (a run falls back to it), else the slowest ok. */
static double time_taking(const select_corpus *c, const select_member *m, int i, int base)
{
    if (i >= 0 && m->state[i] == SELECT_OK && m->ms[i] > 0)
        return m->ms[i];
    if (base >= 0 && m->state[base] == SELECT_OK && m->ms[base] > 0)
        return m->ms[base];
    double worst = NAN;
    for (int j = 0; j < c->instances; j++)
        if (m->state[j] == SELECT_OK && m->ms[j] > 0 && !(m->ms[j] <= worst))
            worst = m->ms[j];
    return worst;
}

/* The one instance with the best geomean fraction of the oracle over the
 * evidence members (a refusal timed as time_taking says). */
static int best_single(const select_corpus *c, const unsigned char *evidence, int base)
{
    int best = -1;
    double best_log = -INFINITY;
    for (int i = 0; i < c->instances; i++) {
        double logs = 0;
        int n = 0;
        for (int m = 0; m < c->members; m++) {
            const select_member *mb = &c->member[m];
            double o = oracle_ms(mb, c->instances);
            if (!evidence[m] || !(o > 0))
                continue;
            logs += log(o / time_taking(c, mb, i, base));
            n++;
        }
        if (n && logs / n > best_log) {
            best_log = logs / n;
            best = i;
        }
    }
    return best;
}

/* Marks the evidence for query q (-1: for the held-out setup). */
static void mark_evidence(const select_corpus *c, select_setup setup, int only_part, int q, unsigned char *evidence)
{
    for (int m = 0; m < c->members; m++) {
        const select_member *mb = &c->member[m];
        if (setup == SELECT_SETUP_HELDOUT)
            evidence[m] = mb->part == SPMVLAB_PART_TUNE;
        else
            evidence[m] = (only_part < 0 || mb->part == only_part) && strcmp(mb->family, c->member[q].family) != 0;
    }
}

static int alloc_eval(select_eval *e, int n)
{
    e->query = malloc(((size_t)n + 1) * sizeof *e->query);
    int bad = !e->query;
    for (int r = 0; r < SELECT_RULES; r++) {
        e->fraction[r] = malloc(((size_t)n + 1) * sizeof(double));
        e->pick[r] = malloc(((size_t)n + 1) * sizeof(int));
        bad |= !e->fraction[r] || !e->pick[r];
    }
    return bad ? -1 : 0;
}

/* The selector's two picks on query mb from its candidates: the first it
 * accepts (prediction only) and the fastest it accepts (measured). */
static void pick_from(const select_member *mb, const select_choice *ch, int *predicted, int *measured)
{
    *predicted = *measured = -1;
    for (int j = 0; j < ch->ncandidates; j++) {
        int i = ch->candidate[j];
        if (mb->state[i] != SELECT_OK || !(mb->ms[i] > 0))
            continue;
        if (*predicted < 0)
            *predicted = i;
        if (*measured < 0 || mb->ms[i] < mb->ms[*measured])
            *measured = i;
    }
}

int select_evaluate(const select_corpus *c, const select_params *p, select_setup setup, int only_part,
                    select_eval *e, spmvlab_err *err)
{
    memset(e, 0, sizeof *e);
    unsigned char *evidence = calloc((size_t)c->members + 1, 1);
    int *single_count = calloc((size_t)c->instances + 1, sizeof *single_count);
    if (!evidence || !single_count || alloc_eval(e, c->members)) {
        free(evidence), free(single_count);
        select_eval_free(e);
        return spmvlab_errf(err, "select: out of host memory for the evaluation"), -1;
    }
    int base = baseline_index(c), single = -1, rc = 0;
    if (setup == SELECT_SETUP_HELDOUT) {
        mark_evidence(c, setup, only_part, 0, evidence);
        single = best_single(c, evidence, base);
    }
    double logs[SELECT_RULES] = {0}, candidates = 0, choose_ms = 0;
    for (int q = 0; q < c->members && rc == 0; q++) {
        const select_member *mb = &c->member[q];
        double o = oracle_ms(mb, c->instances);
        int is_query = setup == SELECT_SETUP_HELDOUT ? mb->part == SPMVLAB_PART_HELDOUT
                                                     : only_part < 0 || mb->part == only_part;
        if (!is_query || !(o > 0))
            continue;
        if (setup == SELECT_SETUP_FAMILY) {
            mark_evidence(c, setup, only_part, q, evidence);
            single = best_single(c, evidence, base);
        }
        select_choice ch;
        spmvlab_err why;
        if (select_choose_with(&mb->features, c, p, mb->matrix, evidence, &ch, &why)) {
            ch.ncandidates = 0; /* no evidence near it: the baseline */
        }
        choose_ms += ch.cost_ms;
        candidates += ch.ncandidates;
        e->measured += ch.disagree;
        int n = e->queries++, pick[SELECT_RULES];
        e->query[n] = q;
        pick_from(mb, &ch, &pick[SELECT_RULE_PREDICTED], &pick[SELECT_RULE_MEASURED]);
        e->none_accepted += pick[SELECT_RULE_MEASURED] < 0;
        pick[SELECT_RULE_BASELINE] = base;
        pick[SELECT_RULE_SINGLE] = single;
        if (single >= 0)
            single_count[single]++;
        for (int r = 0; r < SELECT_RULES; r++) {
            double t = time_taking(c, mb, pick[r], base);
            e->pick[r][n] = pick[r] >= 0 && mb->state[pick[r]] == SELECT_OK ? pick[r] : base;
            e->fraction[r][n] = o / t;
            logs[r] += log(o / t);
            e->exact[r] += o / t >= 1 - 1e-12;
        }
    }
    if (e->queries == 0) {
        spmvlab_errf(err, "no member of the results is a query of this evaluation (%s)",
                     setup == SELECT_SETUP_HELDOUT ? "no held-out member with an ok row" : "no member with an ok row");
        rc = -1;
    }
    for (int r = 0; rc == 0 && r < SELECT_RULES; r++)
        e->geomean[r] = exp(logs[r] / e->queries);
    if (rc == 0) {
        int top = 0;
        for (int i = 1; i < c->instances; i++)
            top = single_count[i] > single_count[top] ? i : top;
        snprintf(e->single, sizeof e->single, "%s", c->instance[top].instance);
        e->candidates = candidates / e->queries;
        e->per_fold = setup == SELECT_SETUP_FAMILY;
        e->choose_ms = choose_ms / e->queries;
    }
    free(evidence), free(single_count);
    if (rc)
        select_eval_free(e);
    return rc;
}

static const char *rule_name(const select_eval *e, int r, char *buf, size_t len)
{
    static const char *const names[] = {"selector", "selector, no measurement", "always the baseline", ""};
    if (r == SELECT_RULE_SINGLE && e->per_fold)
        snprintf(buf, len, "always best single, per fold");
    else if (r == SELECT_RULE_SINGLE)
        snprintf(buf, len, "always %s", e->single);
    else
        snprintf(buf, len, "%s", names[r]);
    return buf;
}

typedef struct worst_entry {
    int n;
    double fraction;
} worst_entry;

static int by_fraction(const void *a, const void *b)
{
    const worst_entry *x = a, *y = b;
    return x->fraction < y->fraction ? -1 : x->fraction > y->fraction ? 1 : x->n - y->n;
}

void select_eval_print(FILE *f, const select_corpus *c, const select_eval *e, int worst)
{
    worst_entry *w = malloc(((size_t)e->queries + 1) * sizeof *w);
    fprintf(f, "  %-28s %9s %12s  %s\n", "rule", "of oracle", "exact best", "worst matrices (fraction, instance taken)");
    for (int r = 0; r < SELECT_RULES; r++) {
        char name[160];
        fprintf(f, "  %-28s %9.3f %5d of %-4d ", rule_name(e, r, name, sizeof name), e->geomean[r], e->exact[r],
                e->queries);
        for (int n = 0; w && n < e->queries; n++)
            w[n] = (worst_entry){n, e->fraction[r][n]};
        if (w)
            qsort(w, (size_t)e->queries, sizeof *w, by_fraction);
        for (int j = 0; w && j < worst && j < e->queries; j++) {
            int pick = e->pick[r][w[j].n];
            fprintf(f, "%s%s %.2f (%s)", j ? "; " : " ", c->member[e->query[w[j].n]].matrix, w[j].fraction,
                    pick >= 0 ? c->instance[pick].instance : "-");
        }
        fputc('\n', f);
    }
    if (e->per_fold)
        fprintf(f, "  (the best single instance of each query's evidence; most often %s)\n", e->single);
    fprintf(f, "  cost of the choice: %.2f candidates built per matrix; measured where the evidence disagreed on %d of "
               "%d; %d accepted no candidate (timed as the baseline); %.3f ms of host time per choice\n",
            e->candidates, e->measured, e->queries, e->none_accepted, e->choose_ms);
    free(w);
}

void select_eval_free(select_eval *e)
{
    free(e->query);
    for (int r = 0; r < SELECT_RULES; r++) {
        free(e->fraction[r]);
        free(e->pick[r]);
    }
    memset(e, 0, sizeof *e);
}
