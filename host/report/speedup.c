/* Speedups with bootstrap intervals, and tune's fields; see speedup.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speedup.h"
#include "summary.h"
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

/* ---- report --baseline ------------------------------------------------ */

/* Rows by matrix and dtype, each group in file order. */
static int by_group(const void *x, const void *y)
{
    const run_row *a = *(run_row *const *)x, *b = *(run_row *const *)y;
    int c = strcmp(a->matrix, b->matrix);
    if (!c)
        c = strcmp(a->dtype, b->dtype);
    return c ? c : (a > b) - (a < b); /* rows keep their file order */
}

/* One row against the baseline's row x of its matrix and dtype (NULL when
 * x has none there). */
static void rebase_row(run_row *r, const run_row *x, const char *label)
{
    /* x / r = (b / r) / (b / x) for the run's baseline b: the bounds of the
     * two intervals against b bound the new one. */
    double lo = x ? r->speedup_lo / x->speedup_hi : NAN, hi = x ? r->speedup_hi / x->speedup_lo : NAN;
    snprintf(r->baseline, sizeof r->baseline, "%s", label);
    r->speedup = r->speedup_lo = r->speedup_hi = NAN;
    r->outcome[0] = '\0';
    int timed = x && strcmp(r->status, "ok") == 0 && strcmp(x->status, "ok") == 0 && r->ms > 0 && x->ms > 0;
    if (!timed)
        return;
    if (r == x) {
        r->speedup = r->speedup_lo = r->speedup_hi = 1;
        snprintf(r->outcome, sizeof r->outcome, "baseline");
        return;
    }
    r->speedup = x->ms / r->ms;
    if (lo > 0 && hi > 0 && !isinf(hi)) {
        r->speedup_lo = lo;
        r->speedup_hi = hi;
        spmvlab_ci ci = {r->speedup, lo, hi};
        spmvlab_outcome o = spmvlab_outcome_of(&ci, r->noise >= 0 ? r->noise : 0);
        snprintf(r->outcome, sizeof r->outcome, "%s", spmvlab_outcome_name(o));
    }
}

/* The distinct instances of rows, comma separated, into out. */
static void list_instances(const run_rows *rows, char *out, size_t len)
{
    out[0] = '\0';
    for (int i = 0; i < rows->n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(rows->v[j].instance, rows->v[i].instance) == 0;
        size_t n = strlen(out);
        if (!seen && n + 1 < len)
            snprintf(out + n, len - n, "%s%s", n ? ", " : "", rows->v[i].instance);
    }
}

/* 1 when row r is the baseline row label asks for: the instance label,
 * or with VENDOR_BEST a vendor row (the fastest of them is taken). */
static int is_base(const run_row *r, const char *label, int vendor)
{
    return vendor ? summary_is_vendor_row(r) : strcmp(r->instance, label) == 0;
}

int compare_rebase(run_rows *rows, const char *label, spmvlab_err *err)
{
    int found = 0, vendor = strcmp(label, VENDOR_BEST) == 0;
    for (int i = 0; i < rows->n && !found; i++)
        found = is_base(&rows->v[i], label, vendor);
    if (!found && vendor)
        return spmvlab_errf(err, "baseline '%s' is the fastest %s instance per matrix, and the results have no %s row",
                            VENDOR_BEST, VENDOR_PLUGIN, VENDOR_PLUGIN), -1;
    if (!found) {
        char names[1024], hint[192];
        list_instances(rows, names, sizeof names);
        const char **labels = malloc(((size_t)rows->n + 1) * sizeof *labels);
        for (int i = 0; labels && i < rows->n; i++)
            labels[i] = rows->v[i].instance;
        spmvlab_did_you_mean(label, labels, labels ? rows->n : 0, hint, sizeof hint);
        free(labels);
        return spmvlab_errf(err, "baseline '%s'%s is not among the instances of the results (%s)", label, hint,
                            names),
               -1;
    }
    run_row **order = malloc(((size_t)rows->n + 1) * sizeof *order);
    if (!order)
        return spmvlab_errf(err, "out of host memory"), -1;
    for (int i = 0; i < rows->n; i++)
        order[i] = &rows->v[i];
    qsort(order, (size_t)rows->n, sizeof *order, by_group);
    for (int g = 0, end; g < rows->n; g = end) {
        const run_row *x = NULL;
        for (end = g; end < rows->n && strcmp(order[g]->matrix, order[end]->matrix) == 0 &&
                      strcmp(order[g]->dtype, order[end]->dtype) == 0;
             end++)
            if (!is_base(order[end], label, vendor))
                continue;
            else if (!vendor)
                x = order[end]; /* a later row of a cell replaces an earlier one */
            else if (strcmp(order[end]->status, "ok") == 0 && order[end]->ms > 0 && (!x || order[end]->ms < x->ms))
                x = order[end];
        /* The others read the baseline's old interval, so it is copied
         * before its own row changes. */
        run_row base;
        int have = x && run_row_copy(&base, x) == 0;
        for (int i = g; i < end; i++)
            rebase_row(order[i], order[i] == x ? order[i] : have ? &base : NULL, label);
        if (have)
            run_row_clear(&base);
    }
    free(order);
    return 0;
}
