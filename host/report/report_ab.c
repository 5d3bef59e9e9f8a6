/* report --compare; see report_ab.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_ab.h"
#include "row_out.h"
#include "summary.h"
#include "spmvlab/cache.h"
#include "spmvlab/stats.h"

#define AB_ITERS 2000

/* 1 when r is ok with a time. */
static int timed(const run_row *r) { return strcmp(r->status, "ok") == 0 && r->ms > 0 && !isinf(r->ms); }

/* The first timed row, else the first row; NULL when there is none. */
static const run_row *first_timed(const run_rows *rows)
{
    for (int i = 0; i < rows->n; i++)
        if (timed(&rows->v[i]))
            return &rows->v[i];
    return rows->n ? &rows->v[0] : NULL;
}

int ab_same_setting(const run_rows *old, const run_rows *cur, char *why, size_t len)
{
    const run_row *a = first_timed(old), *b = first_timed(cur);
    why[0] = '\0';
    if (!a || !b)
        return 1;
    if (strcmp(a->device, b->device) != 0)
        snprintf(why, len, "devices differ (%s, %s)", a->device[0] ? a->device : "?", b->device[0] ? b->device : "?");
    else if (strcmp(a->timing, b->timing) != 0)
        snprintf(why, len, "timings differ (%s, %s)", a->timing, b->timing);
    else if (!(a->flush_l2 == b->flush_l2 || (isnan(a->flush_l2) && isnan(b->flush_l2))))
        snprintf(why, len, "L2 flushing differs (flush_l2 %g, %g)", a->flush_l2, b->flush_l2);
    else if (!(a->warmup == b->warmup || (isnan(a->warmup) && isnan(b->warmup))))
        snprintf(why, len, "warm-ups differ (%g, %g launches)", a->warmup, b->warmup);
    return why[0] == '\0';
}

typedef char group_key[8];

/* The comparison groups of rows (summary_group_of), computed once; NULL
 * out of memory. */
static group_key *groups_of(const run_rows *rows)
{
    group_key *g = malloc(((size_t)rows->n + 1) * sizeof *g);
    for (int i = 0; g && i < rows->n; i++)
        summary_group_of(&rows->v[i], g[i]);
    return g;
}

/* Indices of the timed rows of instance inst in group g, the last one of
 * each matrix kept; returns how many. */
static int cells_of(const run_rows *rows, const group_key *gk, const char *g, const char *inst, int *out)
{
    int n = 0;
    for (int i = 0; i < rows->n; i++) {
        const run_row *r = &rows->v[i];
        if (strcmp(r->instance, inst) || strcmp(gk[i], g) || !timed(r))
            continue;
        int j = 0;
        while (j < n && strcmp(rows->v[out[j]].matrix, r->matrix) != 0)
            j++;
        out[j] = i;
        n += j == n;
    }
    return n;
}

/* One instance of one group: its cells into csv, its line into out. */
static int compare_instance(const run_rows *old, const group_key *og, const run_rows *cur, const group_key *cg,
                            const char *g, const char *inst, FILE *out, FILE *csv, double *ratios, int *ia, int *ib)
{
    int na = cells_of(old, og, g, inst, ia), nb = cells_of(cur, cg, g, inst, ib);
    int n = 0, wins = 0, losses = 0, ties = 0;
    for (int i = 0; i < nb; i++) {
        const run_row *b = &cur->v[ib[i]], *a = NULL;
        for (int j = 0; j < na && !a; j++)
            if (strcmp(old->v[ia[j]].matrix, b->matrix) == 0)
                a = &old->v[ia[j]];
        if (!a)
            continue;
        double ratio = a->ms / b->ms;
        double lo = a->ms_p10 / b->ms_p90, hi = a->ms_p90 / b->ms_p10;
        double noise = b->noise >= 0 ? b->noise : 0;
        const char *outcome = "tie";
        if (lo > 1 && ratio > 1 + noise)
            outcome = "win", wins++;
        else if (hi < 1 && ratio < 1 - noise)
            outcome = "loss", losses++;
        else
            ties++;
        ratios[n++] = ratio;
        csv_write_field(csv, g);
        fputc(',', csv);
        csv_write_field(csv, inst);
        fputc(',', csv);
        csv_write_field(csv, b->matrix);
        fprintf(csv, ",%.0f,%.6g,%.6g,%.6g,", b->nnz, a->ms, b->ms, ratio);
        if (isnan(lo) || isnan(hi))
            fprintf(csv, ",%s\n", outcome);
        else
            fprintf(csv, "%.6g,%.6g,%s\n", lo, hi, outcome);
    }
    if (!n)
        return 0;
    spmvlab_ci geo;
    if (spmvlab_bootstrap_geomean(ratios, n, AB_ITERS, 0.95, spmvlab_hash64(inst, strlen(inst), 1), &geo))
        geo.point = geo.lo = geo.hi = NAN;
    char p[24], l[24], h[24], ci[64];
    snprintf(ci, sizeof ci, "[%s, %s]", table_num(geo.lo, "%.3f", l, sizeof l), table_num(geo.hi, "%.3f", h, sizeof h));
    fprintf(out, "%-28s %8d %8s %17s %4d %4d %4d\n", inst, n, table_num(geo.point, "%.3f", p, sizeof p), ci, wins,
            losses, ties);
    return n;
}

int ab_compare(const run_rows *old, const run_rows *cur, FILE *out, const char *csv_path, spmvlab_err *err)
{
    size_t n = (size_t)(old->n > cur->n ? old->n : cur->n) + 1;
    double *ratios = malloc(n * sizeof *ratios);
    int *ia = malloc(n * sizeof *ia), *ib = malloc(n * sizeof *ib);
    group_key *og = groups_of(old), *cg = groups_of(cur);
    if (!ratios || !ia || !ib || !og || !cg) {
        free(ratios), free(ia), free(ib), free(og), free(cg);
        return spmvlab_errf(err, "out of host memory"), -1;
    }
    FILE *csv = fopen(csv_path, "w");
    if (!csv) {
        free(ratios), free(ia), free(ib), free(og), free(cg);
        return spmvlab_errf(err, "cannot write %s: %s", csv_path, strerror(errno)), -1;
    }
    fputs("group,instance,matrix,nnz,old_ms,new_ms,ratio,ratio_lo,ratio_hi,outcome\n", csv);
    int total = 0;
    for (int i = 0; i < cur->n; i++) {
        const run_row *r = &cur->v[i];
        const char *g = cg[i];
        int seen = 0, group_first = 1; /* each group and instance once, in the order of NEW */
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(cur->v[j].instance, r->instance) == 0 && strcmp(cg[j], g) == 0;
        for (int j = 0; j < i && group_first; j++)
            group_first = strcmp(cg[j], g) != 0;
        if (group_first)
            fprintf(out,
                    "\ncompare (%s): ratio = OLD time / NEW time (> 1: NEW faster); geometric mean over the matrices "
                    "both\ntimed, 95%% bootstrap interval; win / loss: the runs' 10th-90th percentile ranges do not "
                    "overlap\nand the ratio is beyond 1 +- noise\n%-28s %8s %8s %17s %4s %4s %4s\n",
                    g, "instance", "matrices", "ratio", "95% interval", "win", "loss", "tie");
        if (!seen)
            total += compare_instance(old, og, cur, cg, g, r->instance, out, csv, ratios, ia, ib);
    }
    free(ratios), free(ia), free(ib), free(og), free(cg);
    int bad = ferror(csv);
    if (fclose(csv) || bad)
        return spmvlab_errf(err, "writing %s failed", csv_path), -1;
    return total;
}
