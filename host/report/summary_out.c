/* The A/B summary written out: the terminal table, CSV and JSON; see summary.h. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "row_out.h"
#include "summary.h"

/* "[lo, hi]" with three decimals into buf, or "-" without an interval. */
static const char *interval_text(double lo, double hi, char *buf, size_t len)
{
    char a[24], b[24];
    if (isnan(lo))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "[%s, %s]", table_num(lo, "%.3f", a, sizeof a), table_num(hi, "%.3f", b, sizeof b));
    return buf;
}

/* The inputs of dtype dt no instance ran on; NULL when there are none. */
static const sum_inputs *inputs_of(const run_summary *s, const char *dt)
{
    for (int d = 0; d < s->ninputs; d++)
        if (strcmp(s->inputs[d].dtype, dt) == 0)
            return &s->inputs[d];
    return NULL;
}

/* Names the instances of dtype dt without a row on every matrix, so that
 * counts over fewer matrices never read as counts over all. */
static void print_coverage(FILE *f, const run_summary *s, const char *dt)
{
    for (int j = 0; j < s->ninst; j++) {
        const sum_instance *si = &s->inst[j];
        if (strcmp(si->dtype, dt) == 0 && si->cells < si->matrices)
            fprintf(f, "%s has rows on %d of the %d matrices (none on %d: not measured there); its counts "
                    "cover %d\n", si->instance, si->cells, si->matrices, si->matrices - si->cells, si->cells);
    }
}

/* Each instance beside the named baseline and against vendor-best, the
 * fastest vendor instance of each matrix, so a table says both. */
static void print_vendor(FILE *f, const run_summary *s, const char *dt)
{
    int nm = 0, vm = 0;
    for (int m = 0; m < s->nmat; m++) {
        nm += strcmp(s->mat[m].dtype, dt) == 0;
        vm += strcmp(s->mat[m].dtype, dt) == 0 && s->mat[m].vendor_ms > 0;
    }
    fprintf(f,
            "\nagainst %s (%s, %d of %d matrices): per matrix the fastest %s instance that ran; geometric\n"
            "mean with a 95%% bootstrap interval over matrices\n",
            VENDOR_BEST, dt, vm, nm, VENDOR_PLUGIN);
    fprintf(f, "%-28s %12s %12s %17s\n", "instance", "x baseline", "x vendor-best", "95% interval");
    for (int j = 0; j < s->ninst; j++) {
        const sum_instance *si = &s->inst[j];
        if (strcmp(si->dtype, dt) != 0)
            continue;
        char g[24], v[24], ci[64];
        table_num(si->geo.point, "%.3f", g, sizeof g);
        table_num(si->vendor.point, "%.3f", v, sizeof v);
        interval_text(si->vendor.lo, si->vendor.hi, ci, sizeof ci);
        fprintf(f, "%-28s %12s %12s %17s\n", si->instance, g, v, ci);
    }
}

void summary_print(FILE *f, const run_summary *s)
{
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
            fprintf(f, "%-28s %7s %6s %7s %6s\n", "instance", "ok/all", "wrong", "refused", "failed");
            for (int j = k; j < s->ninst; j++)
                if (strcmp(s->inst[j].dtype, dt) == 0) {
                    char okall[24];
                    snprintf(okall, sizeof okall, "%d/%d", s->inst[j].ok, s->inst[j].cells);
                    fprintf(f, "%-28s %7s %6d %7d %6d\n", s->inst[j].instance, okall, s->inst[j].wrong,
                            s->inst[j].refused, s->inst[j].failed);
                }
            print_coverage(f, s, dt);
            continue;
        }
        fprintf(f,
                "\nsummary (%s, %d matrices, baseline %s): speedup = baseline time / time; geometric mean with a 95%%\n"
                "bootstrap interval over matrices; win / loss only where the matrix's 95%% interval excludes 1 and\n"
                "the speedup is beyond 1 +- %g; worst: the lowest speedup, <%g: matrices below it; within tau:\n"
                "fraction of matrices where the time is at most tau x the fastest instance's\n",
                dt, nm, s->baseline[0] ? s->baseline : "(none)", s->noise, RUN_FLOOR);
        fprintf(f, "%-28s %7s %5s %7s %6s %7s %17s %4s %4s %4s %4s %6s %4s %5s | %5s %5s %5s %5s %5s\n", "instance",
                "ok/all", "wrong", "refused", "failed", "speedup", "95% interval", "win", "loss", "tie", "best",
                "worst", "<0.8", "bound", "1", "1.1", "1.25", "1.5", "2");
        for (int j = k; j < s->ninst; j++) {
            const sum_instance *si = &s->inst[j];
            if (strcmp(si->dtype, dt) != 0)
                continue;
            char okall[24], g[24], ci[64], bf[24], wo[24];
            snprintf(okall, sizeof okall, "%d/%d", si->ok, si->cells);
            table_num(si->geo.point, "%.3f", g, sizeof g);
            interval_text(si->geo.lo, si->geo.hi, ci, sizeof ci);
            fprintf(f, "%-28s %7s %5d %7d %6d %7s %17s %4d %4d %4d %4d %6s %4d %5s | %5.2f %5.2f %5.2f %5.2f %5.2f\n",
                    si->instance, okall, si->wrong, si->refused, si->failed, g, ci, si->wins, si->losses, si->ties,
                    si->best, table_num(si->worst, "%.3f", wo, sizeof wo), si->below_floor,
                    table_num(si->bound_frac, "%.2f", bf, sizeof bf), si->profile[0], si->profile[1],
                    si->profile[2], si->profile[3], si->profile[4]);
        }
        print_coverage(f, s, dt);
        if (s->vendor)
            print_vendor(f, s, dt);
        fprintf(f, "\nbest per matrix (%s):\n%-28s %-28s %10s %9s %8s\n", dt, "matrix", "instance", "ms", "GFLOP/s",
                "speedup");
        for (int m = 0; m < s->nmat; m++) {
            const sum_matrix *sm = &s->mat[m];
            if (strcmp(sm->dtype, dt) != 0)
                continue;
            char ms[24], gf[24], spd[24];
            fprintf(f, "%-28s %-28s %10s %9s %8s\n", sm->matrix, sm->best[0] ? sm->best : "(none timed)",
                    table_num(sm->best_ms, "%.4g", ms, sizeof ms), table_num(sm->best_gflops, "%.1f", gf, sizeof gf),
                    table_num(sm->best_speedup, "%.3f", spd, sizeof spd));
        }
    }
    for (int d = 0; d < s->ninputs; d++)
        fprintf(f, "\ninputs not run (%s): %d skipped, %d unreadable; their rows say why\n", s->inputs[d].dtype,
                s->inputs[d].skipped, s->inputs[d].unreadable);
}

void summary_path(const char *csv, char *out, size_t len)
{
    size_t n = strlen(csv);
    if (n > 4 && strcmp(csv + n - 4, ".csv") == 0)
        snprintf(out, len, "%.*s-summary.csv", (int)(n - 4), csv);
    else
        snprintf(out, len, "%s-summary.csv", csv);
}

static int has_dtype(const run_summary *s, const char *dt)
{
    for (int k = 0; k < s->ninst; k++)
        if (strcmp(s->inst[k].dtype, dt) == 0)
            return 1;
    return 0;
}

static void csv_num(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.6g", v);
}

/* An interval as three CSV fields: point, lo, hi. */
static void csv_ci(FILE *f, spmvlab_ci c)
{
    csv_num(f, c.point);
    fputc(',', f);
    csv_num(f, c.lo);
    fputc(',', f);
    csv_num(f, c.hi);
}

/* An interval as three JSON members, NAME_speedup, NAME_lo and NAME_hi,
 * each after ", ". */
static void json_ci(FILE *f, const char *name, spmvlab_ci c)
{
    fprintf(f, ", \"%s_speedup\": ", name);
    json_number(f, c.point);
    fprintf(f, ", \"%s_lo\": ", name);
    json_number(f, c.lo);
    fprintf(f, ", \"%s_hi\": ", name);
    json_number(f, c.hi);
}

int summary_write_csv(const char *path, const run_summary *s, spmvlab_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return spmvlab_errf(err, "cannot write %s: %s", path, strerror(errno)), -1;
    fprintf(f, "dtype,instance,baseline,cells,ok,wrong,refused,failed,compared,geomean_speedup,geomean_lo,geomean_hi,"
               "wins,losses,ties,best,within_1,within_1.1,within_1.25,within_1.5,within_2,skipped_inputs,"
               "unreadable_inputs,bound_frac,matrices,vendor_best_speedup,vendor_best_lo,vendor_best_hi,"
               "worst_speedup,worst_matrix,below_0.8\n");
    for (int k = 0; k < s->ninst; k++) {
        const sum_instance *si = &s->inst[k];
        csv_write_field(f, si->dtype);
        fputc(',', f);
        csv_write_field(f, si->instance);
        fputc(',', f);
        csv_write_field(f, s->baseline);
        fprintf(f, ",%d,%d,%d,%d,%d,%d,", si->cells, si->ok, si->wrong, si->refused, si->failed, si->compared);
        csv_ci(f, si->geo);
        fprintf(f, ",%d,%d,%d,%d", si->wins, si->losses, si->ties, si->best);
        for (int t = 0; t < RUN_NTAU; t++) {
            fputc(',', f);
            if (s->timed)
                csv_num(f, si->profile[t]);
        }
        const sum_inputs *in = inputs_of(s, si->dtype);
        fprintf(f, ",%d,%d,", in ? in->skipped : 0, in ? in->unreadable : 0);
        csv_num(f, si->bound_frac);
        fprintf(f, ",%d,", si->matrices);
        csv_ci(f, si->vendor);
        fputc(',', f);
        csv_num(f, si->worst);
        fputc(',', f);
        csv_write_field(f, si->worst_matrix);
        fprintf(f, ",%d\n", si->below_floor);
    }
    for (int d = 0; d < s->ninputs; d++) /* a dtype no instance ran in still shows its inputs */
        if (!has_dtype(s, s->inputs[d].dtype))
            fprintf(f, "%s,,%s,0,0,0,0,0,0,,,,0,0,0,0,,,,,,%d,%d,,0,,,,,,0\n", s->inputs[d].dtype, s->baseline,
                    s->inputs[d].skipped, s->inputs[d].unreadable);
    int bad = ferror(f);
    if (fclose(f) || bad)
        return spmvlab_errf(err, "writing %s failed", path), -1;
    return 0;
}

/* ", "key": " and the number (null for NaN). */
static void json_num_member(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    json_number(f, v);
}

/* ", "key": " and the string, quoted. */
static void json_str_member(FILE *f, const char *key, const char *v)
{
    fprintf(f, ", \"%s\": ", key);
    json_string(f, v);
}

/* Opens one object of a JSON list: {"dtype": dtype, "<key>": name. */
static void json_item_open(FILE *f, int first, const char *dtype, const char *key, const char *name)
{
    fprintf(f, "%s\n      {\"dtype\": ", first ? "" : ",");
    json_string(f, dtype);
    fprintf(f, ", \"%s\": ", key);
    json_string(f, name);
}

void summary_write_json(FILE *f, const run_summary *s)
{
    fputs("{\n    \"baseline\": ", f);
    json_string(f, s->baseline);
    fprintf(f, ",\n    \"timed\": %s,\n    \"taus\": [1, 1.1, 1.25, 1.5, 2],\n    \"instances\": [", s->timed ? "true" : "false");
    for (int k = 0; k < s->ninst; k++) {
        const sum_instance *si = &s->inst[k];
        json_item_open(f, k == 0, si->dtype, "instance", si->instance);
        fprintf(f,
                ", \"cells\": %d, \"ok\": %d, \"wrong\": %d, \"refused\": %d, \"failed\": %d, \"compared\": %d",
                si->cells, si->ok, si->wrong, si->refused, si->failed, si->compared);
        json_ci(f, "geomean", si->geo);
        fprintf(f, ", \"wins\": %d, \"losses\": %d, \"ties\": %d, \"best\": %d, \"profile\": [", si->wins, si->losses,
                si->ties, si->best);
        for (int t = 0; t < RUN_NTAU; t++) {
            if (t)
                fputs(", ", f);
            json_number(f, s->timed ? si->profile[t] : NAN);
        }
        fputs("], \"bound_frac\": ", f);
        json_number(f, si->bound_frac);
        fprintf(f, ", \"matrices\": %d", si->matrices);
        json_ci(f, "vendor_best", si->vendor);
        json_num_member(f, "worst_speedup", si->worst);
        json_str_member(f, "worst_matrix", si->worst_matrix);
        fprintf(f, ", \"below_0.8\": %d", si->below_floor);
        fputs("}", f);
    }
    fputs("\n    ],\n    \"matrices\": [", f);
    for (int m = 0; m < s->nmat; m++) {
        const sum_matrix *sm = &s->mat[m];
        json_item_open(f, m == 0, sm->dtype, "matrix", sm->matrix);
        json_num_member(f, "nnz", sm->nnz);
        fprintf(f, ", \"ok\": %d", sm->ok);
        json_str_member(f, "best", sm->best);
        json_num_member(f, "best_ms", sm->best_ms);
        json_num_member(f, "best_gflops", sm->best_gflops);
        json_num_member(f, "best_speedup", sm->best_speedup);
        json_str_member(f, "vendor_best", sm->vendor);
        json_num_member(f, "vendor_best_ms", sm->vendor_ms);
        fputs("}", f);
    }
    fputs("\n    ],\n    \"inputs_not_run\": [", f);
    for (int d = 0; d < s->ninputs; d++) {
        fprintf(f, "%s\n      {\"dtype\": ", d ? "," : "");
        json_string(f, s->inputs[d].dtype);
        fprintf(f, ", \"skipped\": %d, \"unreadable\": %d}", s->inputs[d].skipped, s->inputs[d].unreadable);
    }
    fputs("\n    ]\n  }", f);
}
