/* The A/B summary; see run_summary.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run_output.h"
#include "run_summary.h"
#include "spmvlab/cache.h"

const double run_taus[RUN_NTAU] = {1, 1.1, 1.25, 1.5, 2};

static int is_ok(const run_row *r) { return strcmp(r->status, "ok") == 0; }
static int has_time(const run_row *r) { return is_ok(r) && r->ms > 0 && !isinf(r->ms); }

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
    if (is_ok(r))
        si->ok++;
    else if (strcmp(r->status, "wrong") == 0)
        si->wrong++;
    else
        si->failed++;
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

int summary_build(const run_rows *rows, const char *baseline, uint64_t seed, run_summary *s)
{
    memset(s, 0, sizeof *s);
    pick_baseline(rows, baseline, s->baseline, sizeof s->baseline);
    size_t n = (size_t)rows->n + 1;
    s->inst = calloc(n, sizeof *s->inst);
    s->mat = calloc(n, sizeof *s->mat);
    int *rk = malloc(n * sizeof *rk), *rm = malloc(n * sizeof *rm), *cell = NULL;
    double *sp = malloc(n * sizeof *sp);
    int rc = -1;
    if (!s->inst || !s->mat || !rk || !rm || !sp)
        goto out;
    for (int i = 0; i < rows->n; i++) {
        const run_row *r = &rows->v[i];
        int k = find_inst(s, r->dtype, r->instance);
        if (k < 0) {
            k = s->ninst++;
            snprintf(s->inst[k].dtype, sizeof s->inst[k].dtype, "%s", r->dtype);
            snprintf(s->inst[k].instance, sizeof s->inst[k].instance, "%s", r->instance);
        }
        int m = find_mat(s, r->dtype, r->matrix);
        if (m < 0) {
            m = s->nmat++;
            sum_matrix *sm = &s->mat[m];
            snprintf(sm->dtype, sizeof sm->dtype, "%s", r->dtype);
            snprintf(sm->matrix, sizeof sm->matrix, "%s", r->matrix);
            sm->nnz = r->nnz;
            sm->best_ms = sm->best_gflops = sm->best_speedup = NAN;
        }
        rk[i] = k;
        rm[i] = m;
        if (r->noise >= 0)
            s->noise = r->noise;
    }
    /* The cell table keeps the last row of each matrix x instance x dtype. */
    cell = malloc(((size_t)s->nmat * s->ninst + 1) * sizeof *cell);
    if (!cell)
        goto out;
    for (size_t c = 0; c < (size_t)s->nmat * s->ninst; c++)
        cell[c] = -1;
    for (int i = 0; i < rows->n; i++)
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
        int c = 0;
        for (int m = 0; m < s->nmat; m++) {
            int i = cell[(size_t)m * s->ninst + k];
            if (i >= 0 && is_ok(&rows->v[i]) && rows->v[i].speedup > 0)
                sp[c++] = rows->v[i].speedup;
            if (i >= 0 && strcmp(s->mat[m].best, si->instance) == 0)
                si->best++;
        }
        uint64_t h = spmvlab_hash64(si->instance, strlen(si->instance), seed);
        if (spmvlab_bootstrap_geomean(sp, c, 5000, 0.95, h, &si->geo))
            si->geo.point = si->geo.lo = si->geo.hi = NAN;
    }
    for (int k = 0; k < s->ninst; k++) {
        int first = 1;
        for (int j = 0; j < k; j++)
            first &= strcmp(s->inst[j].dtype, s->inst[k].dtype) != 0;
        if (first && profile_dtype(s, rows, cell, s->inst[k].dtype))
            goto out;
    }
    rc = 0;
out:
    free(rk), free(rm), free(cell), free(sp);
    if (rc)
        summary_free(s);
    return rc;
}

void summary_free(run_summary *s)
{
    free(s->inst);
    free(s->mat);
    memset(s, 0, sizeof *s);
}

static const char *fmt_num(double v, const char *fmt, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, fmt, v);
    return buf;
}

void summary_print(FILE *f, const run_summary *s)
{
    if (!s->ninst)
        return;
    for (int k = 0; k < s->ninst; k++) {
        const char *dt = s->inst[k].dtype;
        int first = 1;
        for (int j = 0; j < k; j++)
            first &= strcmp(s->inst[j].dtype, dt) != 0;
        if (!first)
            continue;
        int nm = 0;
        for (int m = 0; m < s->nmat; m++)
            nm += strcmp(s->mat[m].dtype, dt) == 0;
        if (!s->timed) {
            fprintf(f, "\nsummary (%s, %d matrices): functional check only, no timings\n", dt, nm);
            fprintf(f, "%-28s %6s %6s %6s\n", "instance", "ok", "wrong", "failed");
            for (int j = k; j < s->ninst; j++)
                if (strcmp(s->inst[j].dtype, dt) == 0)
                    fprintf(f, "%-28s %6d %6d %6d\n", s->inst[j].instance, s->inst[j].ok, s->inst[j].wrong,
                            s->inst[j].failed);
            continue;
        }
        fprintf(f,
                "\nsummary (%s, %d matrices, baseline %s): speedup = baseline time / time; geometric mean with a 95%%\n"
                "bootstrap interval over matrices; win / loss only where the matrix's 95%% interval excludes 1 and\n"
                "the speedup is beyond 1 +- %g; within tau: fraction of matrices where the time is at most tau x\n"
                "the fastest instance's\n",
                dt, nm, s->baseline[0] ? s->baseline : "(none)", s->noise);
        fprintf(f, "%-28s %7s %7s %17s %4s %4s %4s %4s | %5s %5s %5s %5s %5s\n", "instance", "ok/all", "speedup",
                "95% interval", "win", "loss", "tie", "best", "1", "1.1", "1.25", "1.5", "2");
        for (int j = k; j < s->ninst; j++) {
            const sum_instance *si = &s->inst[j];
            if (strcmp(si->dtype, dt) != 0)
                continue;
            char okall[24], g[24], ci[64], lo[24], hi[24];
            snprintf(okall, sizeof okall, "%d/%d", si->ok, si->cells);
            fmt_num(si->geo.point, "%.3f", g, sizeof g);
            if (isnan(si->geo.lo))
                snprintf(ci, sizeof ci, "-");
            else
                snprintf(ci, sizeof ci, "[%s, %s]", fmt_num(si->geo.lo, "%.3f", lo, sizeof lo),
                         fmt_num(si->geo.hi, "%.3f", hi, sizeof hi));
            fprintf(f, "%-28s %7s %7s %17s %4d %4d %4d %4d | %5.2f %5.2f %5.2f %5.2f %5.2f\n", si->instance, okall,
                    g, ci, si->wins, si->losses, si->ties, si->best, si->profile[0], si->profile[1], si->profile[2],
                    si->profile[3], si->profile[4]);
        }
        fprintf(f, "\nbest per matrix (%s):\n%-28s %-28s %10s %9s %8s\n", dt, "matrix", "instance", "ms", "GFLOP/s",
                "speedup");
        for (int m = 0; m < s->nmat; m++) {
            const sum_matrix *sm = &s->mat[m];
            if (strcmp(sm->dtype, dt) != 0)
                continue;
            char ms[24], gf[24], spd[24];
            fprintf(f, "%-28s %-28s %10s %9s %8s\n", sm->matrix, sm->best[0] ? sm->best : "(none timed)",
                    fmt_num(sm->best_ms, "%.4g", ms, sizeof ms), fmt_num(sm->best_gflops, "%.1f", gf, sizeof gf),
                    fmt_num(sm->best_speedup, "%.3f", spd, sizeof spd));
        }
    }
}

void summary_path(const char *csv, char *out, size_t len)
{
    size_t n = strlen(csv);
    if (n > 4 && strcmp(csv + n - 4, ".csv") == 0)
        snprintf(out, len, "%.*s-summary.csv", (int)(n - 4), csv);
    else
        snprintf(out, len, "%s-summary.csv", csv);
}

static void csv_num(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.6g", v);
}

int summary_write_csv(const char *path, const run_summary *s, spmvlab_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return spmvlab_errf(err, "cannot write %s: %s", path, strerror(errno)), -1;
    fprintf(f, "dtype,instance,baseline,cells,ok,wrong,failed,compared,geomean_speedup,geomean_lo,geomean_hi,"
               "wins,losses,ties,best,within_1,within_1.1,within_1.25,within_1.5,within_2\n");
    for (int k = 0; k < s->ninst; k++) {
        const sum_instance *si = &s->inst[k];
        csv_write_field(f, si->dtype);
        fputc(',', f);
        csv_write_field(f, si->instance);
        fputc(',', f);
        csv_write_field(f, s->baseline);
        fprintf(f, ",%d,%d,%d,%d,%d,", si->cells, si->ok, si->wrong, si->failed, si->compared);
        csv_num(f, si->geo.point);
        fputc(',', f);
        csv_num(f, si->geo.lo);
        fputc(',', f);
        csv_num(f, si->geo.hi);
        fprintf(f, ",%d,%d,%d,%d", si->wins, si->losses, si->ties, si->best);
        for (int t = 0; t < RUN_NTAU; t++) {
            fputc(',', f);
            if (s->timed)
                csv_num(f, si->profile[t]);
        }
        fputc('\n', f);
    }
    int bad = ferror(f);
    if (fclose(f) || bad)
        return spmvlab_errf(err, "writing %s failed", path), -1;
    return 0;
}

void summary_write_json(FILE *f, const run_summary *s)
{
    fputs("{\n    \"baseline\": ", f);
    json_string(f, s->baseline);
    fprintf(f, ",\n    \"timed\": %s,\n    \"taus\": [1, 1.1, 1.25, 1.5, 2],\n    \"instances\": [", s->timed ? "true" : "false");
    for (int k = 0; k < s->ninst; k++) {
        const sum_instance *si = &s->inst[k];
        fprintf(f, "%s\n      {\"dtype\": ", k ? "," : "");
        json_string(f, si->dtype);
        fputs(", \"instance\": ", f);
        json_string(f, si->instance);
        fprintf(f, ", \"cells\": %d, \"ok\": %d, \"wrong\": %d, \"failed\": %d, \"compared\": %d, \"geomean_speedup\": ",
                si->cells, si->ok, si->wrong, si->failed, si->compared);
        json_number(f, si->geo.point);
        fputs(", \"geomean_lo\": ", f);
        json_number(f, si->geo.lo);
        fputs(", \"geomean_hi\": ", f);
        json_number(f, si->geo.hi);
        fprintf(f, ", \"wins\": %d, \"losses\": %d, \"ties\": %d, \"best\": %d, \"profile\": [", si->wins, si->losses,
                si->ties, si->best);
        for (int t = 0; t < RUN_NTAU; t++) {
            if (t)
                fputs(", ", f);
            json_number(f, s->timed ? si->profile[t] : NAN);
        }
        fputs("]}", f);
    }
    fputs("\n    ],\n    \"matrices\": [", f);
    for (int m = 0; m < s->nmat; m++) {
        const sum_matrix *sm = &s->mat[m];
        fprintf(f, "%s\n      {\"dtype\": ", m ? "," : "");
        json_string(f, sm->dtype);
        fputs(", \"matrix\": ", f);
        json_string(f, sm->matrix);
        fputs(", \"nnz\": ", f);
        json_number(f, sm->nnz);
        fprintf(f, ", \"ok\": %d, \"best\": ", sm->ok);
        json_string(f, sm->best);
        fputs(", \"best_ms\": ", f);
        json_number(f, sm->best_ms);
        fputs(", \"best_gflops\": ", f);
        json_number(f, sm->best_gflops);
        fputs(", \"best_speedup\": ", f);
        json_number(f, sm->best_speedup);
        fputs("}", f);
    }
    fputs("\n    ]\n  }", f);
}
