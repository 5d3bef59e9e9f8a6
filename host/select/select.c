/* The selector's choice: nearest members in the normalised log-feature
 * space, then the instance with the best geomean speedup over them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

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

typedef struct ranked {
    int member;
    double distance;
    const char *label;
} ranked;

static int by_distance(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->distance != y->distance)
        return x->distance < y->distance ? -1 : 1;
    return strcmp(x->label, y->label);
}

int select_choose(const spmvlab_features *f, const select_corpus *c, int k, const char *self,
                  select_choice *out, spmvlab_err *err)
{
    double t0 = spmvlab_now_ms(), v[SPMVLAB_FEATURE_COUNT];
    memset(out, 0, sizeof *out);
    spmvlab_features_vector(f, v);
    for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++)
        v[d] = (v[d] - c->mean[d]) / c->scale[d];
    ranked *r = malloc(((size_t)c->members + 1) * sizeof *r);
    if (!r)
        return spmvlab_errf(err, "select: out of host memory for %d members", c->members), -1;
    int n = 0;
    for (int m = 0; m < c->members; m++) {
        if (self && strcmp(c->member[m].matrix, self) == 0)
            continue;
        double s = 0;
        for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++)
            s += (v[d] - c->member[m].z[d]) * (v[d] - c->member[m].z[d]);
        r[n++] = (ranked){m, sqrt(s), c->member[m].matrix};
    }
    qsort(r, (size_t)n, sizeof *r, by_distance);
    k = k < 1 ? 1 : k > SELECT_MAX_K ? SELECT_MAX_K : k;
    out->k = k < n ? k : n;
    for (int j = 0; j < out->k; j++) {
        out->neighbour[j] = r[j].member;
        out->distance[j] = r[j].distance;
    }
    free(r);
    /* The most neighbours covered first (an instance that failed on a
     * neighbour is a risk there), then the best geomean, then the label. */
    int best = -1, best_cov = 0;
    double best_log = 0;
    for (int i = 0; i < c->instances; i++) {
        int cov = 0;
        double logs = 0;
        for (int j = 0; j < out->k; j++) {
            double s = c->member[out->neighbour[j]].speedup[i];
            if (isfinite(s) && s > 0) {
                cov++;
                logs += log(s);
            }
        }
        if (cov == 0)
            continue;
        double mean_log = logs / cov;
        if (cov > best_cov || (cov == best_cov && mean_log > best_log)) {
            best = i;
            best_cov = cov;
            best_log = mean_log;
        }
    }
    if (best < 0)
        return spmvlab_errf(err, "select: no instance was measured ok on the %d nearest corpus matrices",
                            out->k), -1;
    out->chosen = c->instance[best];
    out->index = best;
    out->covered = best_cov;
    out->predicted = exp(best_log);
    out->cost_ms = spmvlab_now_ms() - t0;
    return 0;
}

void select_corpus_free(select_corpus *c)
{
    for (int m = 0; m < c->members; m++)
        free(c->member[m].speedup);
    free(c->member);
    free(c->instance);
    memset(c, 0, sizeof *c);
}
