/* The A/B summary; see summary.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "origin.h"
#include "row_out.h"
#include "status.h"
#include "summary.h"
#include "spmvlab/cache.h"

const double run_taus[RUN_NTAU] = {1, 1.1, 1.25, 1.5, 2};

static int is_ok(const run_row *r) { return strcmp(r->status, "ok") == 0; }
static int is_input(const run_row *r)
{
    run_class c = run_status_class(r->status);
    return c == RUN_CLASS_SKIPPED || c == RUN_CLASS_UNREADABLE;
}
static int has_time(const run_row *r) { return is_ok(r) && r->ms > 0 && !isinf(r->ms); }

void summary_group_of(const run_row *r, char out[8])
{
    if (r->value_storage[0] && strcmp(r->value_storage, r->dtype) != 0)
        snprintf(out, 8, "%.3s/%.3s", r->dtype, r->value_storage);
    else
        snprintf(out, 8, "%.7s", r->dtype);
}

static int find_inst(const run_summary *s, const char *dtype, const char *inst)
{
    for (int i = s->ninst - 1; i >= 0; i--)
        if (strcmp(s->inst[i].dtype, dtype) == 0 && strcmp(s->inst[i].instance, inst) == 0)
            return i;
    return -1;
}

static int find_mat(const run_summary *s, const char *dtype, const char *m)
{
    for (int i = s->nmat - 1; i >= 0; i--)
        if (strcmp(s->mat[i].dtype, dtype) == 0 && strcmp(s->mat[i].matrix, m) == 0)
            return i;
    return -1;
}

int summary_is_vendor_row(const run_row *r)
{
    return strcmp(r->plugin, VENDOR_PLUGIN) == 0 && strncmp(r->message, ORIGIN_SELECTED, strlen(ORIGIN_SELECTED)) != 0;
}

/* Each matrix's vendor-best time, then each instance's geomean speedup
 * over it, with the bootstrap interval of the baseline's. */
static void add_vendor_best(run_summary *s, const run_rows *rows, const int *cell, double *sp, uint64_t seed)
{
    for (int m = 0; m < s->nmat; m++)
        for (int k = 0; k < s->ninst; k++) {
            int i = cell[(size_t)m * s->ninst + k];
            if (i < 0 || !has_time(&rows->v[i]) || !summary_is_vendor_row(&rows->v[i]) ||
                rows->v[i].ms >= s->mat[m].vendor_ms)
                continue;
            s->mat[m].vendor_ms = rows->v[i].ms;
            snprintf(s->mat[m].vendor, sizeof s->mat[m].vendor, "%s", rows->v[i].instance);
            s->vendor = 1;
        }
    for (int m = 0; m < s->nmat; m++)
        if (isinf(s->mat[m].vendor_ms))
            s->mat[m].vendor_ms = NAN;
    for (int k = 0; k < s->ninst; k++) {
        sum_instance *si = &s->inst[k];
        int c = 0;
        for (int m = 0; m < s->nmat; m++) {
            int i = cell[(size_t)m * s->ninst + k];
            if (i >= 0 && has_time(&rows->v[i]) && s->mat[m].vendor_ms > 0)
                sp[c++] = s->mat[m].vendor_ms / rows->v[i].ms;
        }
        si->vendor_compared = c;
        uint64_t h = spmvlab_hash64(si->instance, strlen(si->instance), seed ^ 0x76656e646f72ull);
        if (spmvlab_bootstrap_geomean(sp, c, 5000, 0.95, h, &si->vendor))
            si->vendor.point = si->vendor.lo = si->vendor.hi = NAN;
    }
}

/* The baseline most rows name, unless one is given. */
static void pick_baseline(const run_rows *rows, const char *want, char *out, size_t len)
{
    out[0] = '\0';
    if (want && want[0]) {
        snprintf(out, len, "%s", want);
        return;
    }
    int best = 0;
    for (int i = 0; i < rows->n; i++) {
        const char *b = rows->v[i].baseline;
        if (!b[0] || (out[0] && strcmp(out, b) == 0))
            continue;
        int count = 0;
        for (int j = i; j < rows->n; j++)
            count += strcmp(rows->v[j].baseline, b) == 0;
        if (count > best) {
            best = count;
            snprintf(out, len, "%s", b);
        }
        if (best * 2 > rows->n)
            break;
    }
}

static void add_cell(sum_instance *si, sum_matrix *sm, const run_row *r)
{
    si->cells++;
    switch (run_status_class(r->status)) {
    case RUN_CLASS_OK: si->ok++; break;
    case RUN_CLASS_WRONG: si->wrong++; break;
    case RUN_CLASS_REFUSED: si->refused++; break;
    default: si->failed++; break;
    }
    if (is_ok(r) && r->speedup > 0) {
        si->compared++;
        if (strcmp(r->outcome, "win") == 0)
            si->wins++;
        else if (strcmp(r->outcome, "loss") == 0)
            si->losses++;
        else if (strcmp(r->outcome, "tie") == 0)
            si->ties++;
    }
    if (is_ok(r))
        sm->ok++;
    if (has_time(r) && !(r->ms >= sm->best_ms)) {
        sm->best_ms = r->ms;
        sm->best_gflops = r->gflops;
        sm->best_speedup = r->speedup;
        snprintf(sm->best, sizeof sm->best, "%s", r->instance);
    }
}

/* Performance profile of one dtype from the cell table. */
static int profile_dtype(run_summary *s, const run_rows *rows, const int *cell, const char *dt)
{
    int *ks = malloc(((size_t)s->ninst + 1) * sizeof *ks), *ms = malloc(((size_t)s->nmat + 1) * sizeof *ms);
    int nk = 0, nm = 0, rc = -1;
    double *times = NULL, *frac = NULL;
    if (!ks || !ms)
        goto out;
    for (int k = 0; k < s->ninst; k++)
        if (strcmp(s->inst[k].dtype, dt) == 0)
            ks[nk++] = k;
    for (int m = 0; m < s->nmat; m++)
        if (strcmp(s->mat[m].dtype, dt) == 0)
            ms[nm++] = m;
    times = malloc(((size_t)nm * nk + 1) * sizeof *times);
    frac = malloc(((size_t)nk * RUN_NTAU + 1) * sizeof *frac);
    if (!times || !frac)
        goto out;
    for (int a = 0; a < nm; a++)
        for (int b = 0; b < nk; b++) {
            int i = cell[(size_t)ms[a] * s->ninst + ks[b]];
            times[(size_t)a * nk + b] = i >= 0 && has_time(&rows->v[i]) ? rows->v[i].ms : NAN;
        }
    spmvlab_profile(times, nm, nk, run_taus, RUN_NTAU, frac);
    for (int b = 0; b < nk; b++)
        memcpy(s->inst[ks[b]].profile, frac + (size_t)b * RUN_NTAU, sizeof s->inst[0].profile);
    rc = 0;
out:
    free(ks), free(ms), free(times), free(frac);
    return rc;
}

/* The input rows of matrices no instance ran on, the last row of each
 * matrix and dtype counted once. Returns 0, or -1 out of memory. */
static int count_inputs(run_summary *s, const run_rows *rows)
{
    for (int i = 0; i < rows->n; i++) {
        const run_row *r = &rows->v[i];
        if (!is_input(r) || find_mat(s, r->dtype, r->matrix) >= 0)
            continue;
        int later = 0;
        for (int j = i + 1; j < rows->n && !later; j++)
            later = is_input(&rows->v[j]) && strcmp(rows->v[j].matrix, r->matrix) == 0 &&
                    strcmp(rows->v[j].dtype, r->dtype) == 0;
        if (later)
            continue;
        int d = 0;
        while (d < s->ninputs && strcmp(s->inputs[d].dtype, r->dtype) != 0)
            d++;
        if (d == s->ninputs) {
            sum_inputs *g = realloc(s->inputs, (size_t)(d + 1) * sizeof *g);
            if (!g)
                return -1;
            s->inputs = g;
            memset(&g[d], 0, sizeof *g);
            snprintf(g[d].dtype, sizeof g[d].dtype, "%s", r->dtype);
            s->ninputs++;
        }
        if (run_status_class(r->status) == RUN_CLASS_SKIPPED)
            s->inputs[d].skipped++;
        else
            s->inputs[d].unreadable++;
    }
    return 0;
}

int summary_build(const run_rows *rows, const char *baseline, uint64_t seed, run_summary *s)
{
    memset(s, 0, sizeof *s);
    pick_baseline(rows, baseline, s->baseline, sizeof s->baseline);
    size_t n = (size_t)rows->n + 1;
    s->inst = calloc(n, sizeof *s->inst);
    s->mat = calloc(n, sizeof *s->mat);
    int *rk = malloc(n * sizeof *rk), *rm = malloc(n * sizeof *rm), *cell = NULL;
    double *sp = malloc(n * sizeof *sp), *frac = malloc(n * sizeof *frac);
    int rc = -1;
    if (!s->inst || !s->mat || !rk || !rm || !sp || !frac)
        goto out;
    for (int i = 0; i < rows->n; i++) {
        const run_row *r = &rows->v[i];
        rk[i] = rm[i] = -1;
        if (is_input(r))
            continue;
        char group[8];
        summary_group_of(r, group);
        int k = find_inst(s, group, r->instance);
        if (k < 0) {
            k = s->ninst++;
            snprintf(s->inst[k].dtype, sizeof s->inst[k].dtype, "%s", group);
            snprintf(s->inst[k].instance, sizeof s->inst[k].instance, "%s", r->instance);
        }
        int m = find_mat(s, group, r->matrix);
        if (m < 0) {
            m = s->nmat++;
            sum_matrix *sm = &s->mat[m];
            snprintf(sm->dtype, sizeof sm->dtype, "%s", group);
            snprintf(sm->matrix, sizeof sm->matrix, "%s", r->matrix);
            sm->nnz = r->nnz;
            sm->best_ms = sm->best_gflops = sm->best_speedup = NAN;
            sm->vendor_ms = INFINITY;
        }
        rk[i] = k;
        rm[i] = m;
        if (r->noise >= 0)
            s->noise = r->noise;
    }
    /* The cell table keeps the last row of each matrix x instance x dtype. */
    cell = s->cell = malloc(((size_t)s->nmat * s->ninst + 1) * sizeof *cell);
    if (!cell)
        goto out;
    for (size_t c = 0; c < (size_t)s->nmat * s->ninst; c++)
        cell[c] = -1;
    for (int i = 0; i < rows->n; i++)
        if (rk[i] >= 0)
            cell[(size_t)rm[i] * s->ninst + rk[i]] = i;
    for (int m = 0; m < s->nmat; m++)
        for (int k = 0; k < s->ninst; k++) {
            int i = cell[(size_t)m * s->ninst + k];
            if (i >= 0) {
                add_cell(&s->inst[k], &s->mat[m], &rows->v[i]);
                s->timed |= has_time(&rows->v[i]);
            }
        }
    for (int k = 0; k < s->ninst; k++) {
        sum_instance *si = &s->inst[k];
        for (int m = 0; m < s->nmat; m++)
            si->matrices += strcmp(s->mat[m].dtype, si->dtype) == 0;
        int c = 0, nf = 0;
        si->worst = NAN;
        for (int m = 0; m < s->nmat; m++) {
            int i = cell[(size_t)m * s->ninst + k];
            if (i >= 0 && is_ok(&rows->v[i]) && rows->v[i].speedup > 0) {
                const double v = rows->v[i].speedup;
                sp[c++] = v;
                si->below_floor += v < RUN_FLOOR;
                if (!(v >= si->worst)) {
                    si->worst = v;
                    snprintf(si->worst_matrix, sizeof si->worst_matrix, "%s", s->mat[m].matrix);
                }
            }
            if (i >= 0 && is_ok(&rows->v[i]) && rows->v[i].bound_frac > 0)
                frac[nf++] = rows->v[i].bound_frac;
            if (i >= 0 && strcmp(s->mat[m].best, si->instance) == 0)
                si->best++;
        }
        uint64_t h = spmvlab_hash64(si->instance, strlen(si->instance), seed);
        if (spmvlab_bootstrap_geomean(sp, c, 5000, 0.95, h, &si->geo))
            si->geo.point = si->geo.lo = si->geo.hi = NAN;
        si->bound_frac = nf ? spmvlab_median(frac, nf) : NAN;
    }
    add_vendor_best(s, rows, cell, sp, seed);
    for (int k = 0; k < s->ninst; k++) {
        int first = 1;
        for (int j = 0; j < k; j++)
            first &= strcmp(s->inst[j].dtype, s->inst[k].dtype) != 0;
        if (first && profile_dtype(s, rows, cell, s->inst[k].dtype))
            goto out;
    }
    if (count_inputs(s, rows))
        goto out;
    rc = 0;
out:
    free(rk), free(rm), free(sp), free(frac);
    if (rc)
        summary_free(s);
    return rc;
}

void summary_free(run_summary *s)
{
    free(s->inst);
    free(s->mat);
    free(s->inputs);
    free(s->cell);
    memset(s, 0, sizeof *s);
}
