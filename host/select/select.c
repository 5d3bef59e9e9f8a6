/* The selector's choice: nearest members in the normalised log-feature
 * space, then the instances ranked by their weighted fraction of the
 * fastest over the neighbours they ran on. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

void select_params_default(select_params *p)
{
    memset(p, 0, sizeof *p);
    /* chosen leaving one family out on the tune part (docs/perf/2026-11-28-select) */
    p->k = SELECT_DEFAULT_K;
    p->distance_power = 2;
    p->min_support = 0.3;
    p->margin = 1.1;
    p->measure = 2;
    for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++)
        p->feature_weight[d] = 1;
    p->feature_weight[2] = 3; /* nnz: what is launch-bound and what streams */
    p->feature_weight[4] = 3; /* row_cv: what needs balancing */
}

void select_corpus_normalise(select_corpus *c)
{
    for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++) {
        double sum = 0, sq = 0;
        for (int m = 0; m < c->members; m++) {
            double v[SPMVLAB_FEATURE_COUNT];
            spmvlab_features_vector(&c->member[m].features, v);
            c->member[m].z[d] = v[d];
            sum += v[d];
            sq += v[d] * v[d];
        }
        double n = c->members > 0 ? c->members : 1, mean = sum / n, var = sq / n - mean * mean;
        /* A feature constant over the corpus separates nothing: weight 1. */
        c->mean[d] = mean;
        c->scale[d] = var > 1e-12 ? sqrt(var) : 1;
        for (int m = 0; m < c->members; m++)
            c->member[m].z[d] = (c->member[m].z[d] - mean) / c->scale[d];
    }
}

/* 1 when s, from its start to its end, is a size such as "2e5" or "1.5e7". */
static int is_size(const char *s)
{
    int digits = 0;
    while (isdigit((unsigned char)*s) || *s == '.')
        digits += isdigit((unsigned char)*s++) != 0;
    if (!digits || *s++ != 'e' || !isdigit((unsigned char)*s))
        return 0;
    while (isdigit((unsigned char)*s))
        s++;
    return *s == '\0';
}

void select_family_of(const char *matrix, char *out, size_t len)
{
    snprintf(out, len, "%s", matrix);
    char *dash = strrchr(out, '-');
    if (dash && dash > out && is_size(dash + 1)) {
        *dash = '\0';
        return;
    }
    /* R-MAT members name their scale (rmat-s18-e16): the scale is the size */
    char *s = strstr(out, "-s");
    if (strncmp(out, "rmat", 4) == 0 && s && isdigit((unsigned char)s[2])) {
        char *end = s + 2;
        while (isdigit((unsigned char)*end))
            end++;
        memmove(s, end, strlen(end) + 1);
    }
}

typedef struct ranked {
    int index;
    double value;
    const char *label;
} ranked;

/* Smaller value first, then the label. */
static int by_value(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return strcmp(x->label, y->label);
}

/* The k nearest usable members into out->neighbour. Returns 0, or -1 out of memory. */
static int find_neighbours(const double *v, const select_corpus *c, const select_params *p, const char *self,
                           const unsigned char *usable, select_choice *out)
{
    ranked *r = malloc(((size_t)c->members + 1) * sizeof *r);
    if (!r)
        return -1;
    int n = 0;
    for (int m = 0; m < c->members; m++) {
        if ((self && strcmp(c->member[m].matrix, self) == 0) || (usable && !usable[m]))
            continue;
        double s = 0;
        for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++) {
            double e = p->feature_weight[d] * (v[d] - c->member[m].z[d]);
            s += e * e;
        }
        r[n++] = (ranked){m, sqrt(s), c->member[m].matrix};
    }
    qsort(r, (size_t)n, sizeof *r, by_value);
    int k = p->k < 1 ? 1 : p->k > SELECT_MAX_K ? SELECT_MAX_K : p->k;
    out->k = k < n ? k : n;
    for (int j = 0; j < out->k; j++) {
        out->neighbour[j] = r[j].index;
        out->distance[j] = r[j].value;
    }
    free(r);
    return 0;
}

/* One instance's evidence over the neighbours: the weighted mean log of
 * its fraction of each neighbour's fastest, over those it ran ok on. */
typedef struct evidence {
    double support;          /* share of the neighbours' weight it ran ok on */
    double log_frac;         /* weighted mean log(speedup / neighbour's best) */
    double log_speedup;      /* weighted mean log speedup (the prediction) */
    int covered;
} evidence;

static evidence weigh(const select_corpus *c, const select_params *p, const select_choice *ch, int i)
{
    evidence e = {0, 0, 0, 0};
    double total = 0, w_ok = 0;
    for (int j = 0; j < ch->k; j++) {
        const select_member *m = &c->member[ch->neighbour[j]];
        double w = p->distance_power > 0 ? pow(ch->distance[j] + 0.1, -p->distance_power) : 1;
        total += w;
        double s = m->speedup[i];
        if (m->state[i] != SELECT_OK || !(s > 0) || !(m->best > 0))
            continue;
        e.covered++;
        w_ok += w;
        e.log_frac += w * log(s / m->best);
        e.log_speedup += w * log(s);
    }
    if (w_ok > 0) {
        e.log_frac /= w_ok;
        e.log_speedup /= w_ok;
    }
    e.support = total > 0 ? w_ok / total : 0;
    return e;
}

/* The candidates to build on the matrix: the top one; those within the
 * margin of it, up to p->measure; and, when none of these ran on every
 * neighbour, the best one that did, in case the matrix refuses the rest. */
static void pick_candidates(const ranked *order, int n, const evidence *ev, const select_params *p,
                            select_choice *out)
{
    out->ncandidates = 0;
    int full = 0;
    for (int r = 0; r < n && out->ncandidates < SELECT_MAX_CANDIDATES - 1; r++) {
        int i = order[r].index;
        int within = r == 0 || (out->ncandidates < p->measure && -order[r].value + log(p->margin) >= -order[0].value);
        if (!within)
            break;
        out->candidate[out->ncandidates] = i;
        out->score[out->ncandidates++] = exp(-order[r].value);
        full |= ev[i].covered == out->k;
    }
    out->disagree = out->ncandidates > 1;
    for (int r = 1; r < n && !full; r++) {
        int i = order[r].index;
        if (ev[i].covered == out->k) {
            int seen = 0;
            for (int q = 0; q < out->ncandidates; q++)
                seen |= out->candidate[q] == i;
            if (!seen) {
                out->candidate[out->ncandidates] = i;
                out->score[out->ncandidates++] = exp(-order[r].value);
            }
            full = 1;
        }
    }
}

int select_choose_with(const spmvlab_features *f, const select_corpus *c, const select_params *p,
                       const char *self, const unsigned char *usable, select_choice *out, spmvlab_err *err)
{
    double t0 = spmvlab_now_ms(), v[SPMVLAB_FEATURE_COUNT];
    memset(out, 0, sizeof *out);
    spmvlab_features_vector(f, v);
    for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++)
        v[d] = (v[d] - c->mean[d]) / c->scale[d];
    evidence *ev = malloc(((size_t)c->instances + 1) * sizeof *ev);
    ranked *order = malloc(((size_t)c->instances + 1) * sizeof *order);
    if (!ev || !order || find_neighbours(v, c, p, self, usable, out)) {
        free(ev), free(order);
        return spmvlab_errf(err, "select: out of host memory for %d members", c->members), -1;
    }
    /* Ranked by the weighted fraction of the fastest over the neighbours
     * each ran on: a refusal elsewhere says nothing of the speed where it
     * runs. Too little support is noise, so it must reach min_support. */
    int n = 0;
    for (int i = 0; i < c->instances; i++) {
        ev[i] = weigh(c, p, out, i);
        if (ev[i].covered > 0 && ev[i].support + 1e-12 >= p->min_support)
            order[n++] = (ranked){i, -ev[i].log_frac, c->instance[i].instance};
    }
    for (int i = 0; n == 0 && i < c->instances; i++) /* no instance has the support: any evidence */
        if (ev[i].covered > 0)
            order[n++] = (ranked){i, -ev[i].log_frac, c->instance[i].instance};
    qsort(order, (size_t)n, sizeof *order, by_value);
    if (n == 0) {
        free(ev), free(order);
        return spmvlab_errf(err, "select: no instance was measured ok on the %d nearest corpus matrices",
                            out->k), -1;
    }
    pick_candidates(order, n, ev, p, out);
    int best = order[0].index;
    out->chosen = c->instance[best];
    out->index = best;
    out->covered = ev[best].covered;
    out->predicted = exp(ev[best].log_speedup);
    free(ev), free(order);
    out->cost_ms = spmvlab_now_ms() - t0;
    return 0;
}

int select_choose(const spmvlab_features *f, const select_corpus *c, int k, const char *self,
                  select_choice *out, spmvlab_err *err)
{
    select_params p;
    select_params_default(&p);
    p.k = k;
    return select_choose_with(f, c, &p, self, NULL, out, err);
}

void select_corpus_free(select_corpus *c)
{
    for (int m = 0; m < c->members; m++) {
        free(c->member[m].speedup);
        free(c->member[m].ms);
        free(c->member[m].state);
    }
    free(c->member);
    free(c->instance);
    memset(c, 0, sizeof *c);
}
