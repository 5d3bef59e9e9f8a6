/* Speedups with bootstrap intervals, and tune's fields; see run_compare.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run_compare.h"
#include "spmvlab/cache.h"
#include "spmvlab/stats.h"

static const double *primary(const run_row *r, int single)
{
    return single ? r->single_samples : r->batch_samples;
}

static int timed_ok(const run_row *r, int single)
{
    return strcmp(r->status, "ok") == 0 && r->nsamples > 0 && primary(r, single);
}

void compare_rows(run_row **rows, int n, const run_row *base, const char *baseline_label, int paired, int single,
                  double noise, uint64_t seed)
{
    for (int i = 0; i < n; i++) {
        run_row *r = rows[i];
        snprintf(r->baseline, sizeof r->baseline, "%s", baseline_label ? baseline_label : "");
        r->speedup = r->speedup_lo = r->speedup_hi = NAN;
        r->outcome[0] = '\0';
        if (!base || !timed_ok(r, single) || !timed_ok(base, single))
            continue;
        if (strcmp(r->instance, base->instance) == 0) {
            r->speedup = r->speedup_lo = r->speedup_hi = 1;
            snprintf(r->outcome, sizeof r->outcome, "baseline");
            continue;
        }
        /* A seed per cell, so a result does not depend on the others. */
        char key[512];
        int len = snprintf(key, sizeof key, "%s|%s|%s", r->matrix, r->instance, r->dtype);
        uint64_t s = spmvlab_hash64(key, (size_t)len, seed);
        spmvlab_ci ci;
        int same = paired && r->nsamples == base->nsamples;
        if (spmvlab_bootstrap_ratio(primary(base, single), base->nsamples, primary(r, single), r->nsamples, same,
                                    RUN_BOOTSTRAP_ITERS, RUN_CI_LEVEL, s, &ci))
            continue;
        r->speedup = ci.point;
        r->speedup_lo = ci.lo;
        r->speedup_hi = ci.hi;
        snprintf(r->outcome, sizeof r->outcome, "%s", spmvlab_outcome_name(spmvlab_outcome_of(&ci, noise)));
    }
}

void tune_rows(run_row **rows, const char *const *base_of, int n)
{
    for (int i = 0; i < n; i++) {
        int first = 1;
        for (int j = 0; j < i; j++)
            if (strcmp(base_of[i], base_of[j]) == 0)
                first = 0;
        if (!first)
            continue;
        double wall = 0, peak = 0, best = INFINITY;
        int best_j = -1;
        for (int j = i; j < n; j++) {
            if (strcmp(base_of[i], base_of[j]) != 0)
                continue;
            run_row *r = rows[j];
            if (r->wall_ms > 0)
                wall += r->wall_ms;
            if (r->convert_peak_bytes > peak)
                peak = r->convert_peak_bytes;
            if (strcmp(r->status, "ok") == 0 && r->ms > 0 && r->ms < best) {
                best = r->ms;
                best_j = j;
            }
        }
        for (int j = i; j < n; j++) {
            if (strcmp(base_of[i], base_of[j]) != 0)
                continue;
            run_row *r = rows[j];
            r->tune_ms = wall;
            r->tune_peak_bytes = peak;
            r->tune_spmvs = best_j >= 0 ? wall / best : NAN;
            r->tune_best = best_j >= 0 ? (j == best_j) : NAN;
        }
    }
}
