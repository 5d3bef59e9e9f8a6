/*
 * report --baseline (compare_rebase): every row's speedup is recomputed
 * against the named instance on its matrix and dtype, as the ratio of the
 * medians with its interval bounded by the two rows' intervals against the
 * run's baseline; rebasing onto the run's own baseline changes nothing;
 * a matrix where the new baseline failed has no speedup; the summary then
 * counts against the new baseline; an unknown instance is refused with a
 * sentence listing the instances.
 */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "speedup.h"
#include "summary.h"
#include "testlib.h"
#include "testlib_rows.h"

/* A row of matrix and instance timed at ms, with its speedup interval
 * [lo, hi] against the run's baseline cusparse (point: cusparse's ms / ms). */
static void add(run_rows *rows, const char *matrix, const char *instance, const char *status, double ms,
                double base_ms, double lo, double hi)
{
    run_row r = test_row(matrix, instance, status);
    snprintf(r.baseline, sizeof r.baseline, "cusparse");
    r.noise = 0.01;
    if (strcmp(status, "ok") == 0) {
        r.ms = ms;
        r.speedup = base_ms / ms;
        r.speedup_lo = lo;
        r.speedup_hi = hi;
        snprintf(r.outcome, sizeof r.outcome, "%s", strcmp(instance, "cusparse") == 0 ? "baseline" : "tie");
    }
    TEST_CHECK(run_rows_push(rows, &r) == 0);
}

static void fixture(run_rows *rows)
{
    memset(rows, 0, sizeof *rows);
    add(rows, "m1", "cusparse", "ok", 1.0, 1.0, 1, 1);
    add(rows, "m1", "csr", "ok", 2.0, 1.0, 0.45, 0.55);
    add(rows, "m1", "coo", "ok", 1.0, 1.0, 0.95, 1.05);
    add(rows, "m2", "cusparse", "ok", 1.0, 1.0, 1, 1);
    add(rows, "m2", "csr", "ok", 0.5, 1.0, 1.9, 2.1);
    add(rows, "m2", "coo", "wrong", NAN, 1.0, NAN, NAN);
}

static const run_row *find(const run_rows *rows, const char *matrix, const char *instance)
{
    for (int i = 0; i < rows->n; i++)
        if (strcmp(rows->v[i].matrix, matrix) == 0 && strcmp(rows->v[i].instance, instance) == 0)
            return &rows->v[i];
    return NULL;
}

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }

static void speedups_are_against_the_named_instance(void)
{
    run_rows rows;
    fixture(&rows);
    spmvlab_err err;
    TEST_CHECK(compare_rebase(&rows, "coo", &err) == 0);
    const run_row *csr = find(&rows, "m1", "csr"), *coo = find(&rows, "m1", "coo"), *cu = find(&rows, "m1", "cusparse");
    TEST_CHECK(strcmp(csr->baseline, "coo") == 0 && strcmp(cu->baseline, "coo") == 0);
    TEST_CHECK(near(csr->speedup, 0.5)); /* coo's 1 ms over csr's 2 ms */
    TEST_CHECK(near(csr->speedup_lo, 0.45 / 1.05) && near(csr->speedup_hi, 0.55 / 0.95));
    TEST_CHECK(strcmp(csr->outcome, "loss") == 0);
    TEST_CHECK(coo->speedup == 1 && strcmp(coo->outcome, "baseline") == 0);
    TEST_CHECK(near(cu->speedup, 1) && near(cu->speedup_lo, 1 / 1.05) && near(cu->speedup_hi, 1 / 0.95));
    TEST_CHECK(strcmp(cu->outcome, "tie") == 0);
    /* coo is wrong on m2: nothing there has a speedup against it. */
    const run_row *csr2 = find(&rows, "m2", "csr");
    TEST_CHECK(isnan(csr2->speedup) && csr2->outcome[0] == '\0' && strcmp(csr2->baseline, "coo") == 0);
    run_summary sum;
    TEST_CHECK(summary_build(&rows, "coo", 1, &sum) == 0);
    for (int k = 0; k < sum.ninst; k++)
        if (strcmp(sum.inst[k].instance, "csr") == 0)
            TEST_CHECK(sum.inst[k].compared == 1 && sum.inst[k].losses == 1 && near(sum.inst[k].geo.point, 0.5));
    TEST_CHECK(strcmp(sum.baseline, "coo") == 0);
    summary_free(&sum);
    run_rows_free(&rows);
}

static void the_runs_own_baseline_changes_nothing(void)
{
    run_rows rows, before;
    fixture(&rows);
    fixture(&before);
    spmvlab_err err;
    TEST_CHECK(compare_rebase(&rows, "cusparse", &err) == 0);
    for (int i = 0; i < rows.n; i++) {
        const run_row *r = &rows.v[i], *b = &before.v[i];
        TEST_CHECK(isnan(b->speedup) ? isnan(r->speedup) : near(r->speedup, b->speedup));
        TEST_CHECK(isnan(b->speedup_lo) ? isnan(r->speedup_lo) : near(r->speedup_lo, b->speedup_lo));
        TEST_CHECK(isnan(b->speedup_hi) ? isnan(r->speedup_hi) : near(r->speedup_hi, b->speedup_hi));
    }
    TEST_CHECK(strcmp(find(&rows, "m2", "csr")->outcome, "win") == 0);
    run_rows_free(&rows);
    run_rows_free(&before);
}

static void an_unknown_instance_is_refused_with_the_list(void)
{
    run_rows rows;
    fixture(&rows);
    spmvlab_err err;
    TEST_CHECK(compare_rebase(&rows, "nope", &err) != 0);
    TEST_CONTAINS(err.msg, "baseline 'nope' is not among the instances of the results (cusparse, csr, coo)");
    TEST_CHECK(compare_rebase(&rows, "cusparce", &err) != 0); /* a typo: the nearest label is named */
    TEST_CONTAINS(err.msg, "baseline 'cusparce' (did you mean 'cusparse'?) is not among the instances");
    TEST_CHECK(strcmp(rows.v[1].baseline, "cusparse") == 0); /* nothing changed */
    run_rows_free(&rows);
}

/* vendor-best: per matrix the fastest cusparse instance. m1: cusparse
 * (CSR) 1 ms, cusparse-sell 0.8 ms, csr 0.5 ms; m2: cusparse 1 ms,
 * cusparse-sell refused, csr 2 ms; a selector's row that ran cusparse at
 * 0.1 ms is not a vendor instance. */
static void vendor_best_is_the_fastest_vendor_instance(void)
{
    run_rows rows;
    memset(&rows, 0, sizeof rows);
    add(&rows, "m1", "cusparse", "ok", 1.0, 1.0, 1, 1);
    add(&rows, "m1", "cusparse-sell", "ok", 0.8, 1.0, 1.2, 1.3);
    add(&rows, "m1", "csr", "ok", 0.5, 1.0, 1.9, 2.1);
    add(&rows, "m1", "auto", "ok", 0.1, 1.0, 9, 11);
    add(&rows, "m2", "cusparse", "ok", 1.0, 1.0, 1, 1);
    add(&rows, "m2", "cusparse-sell", "limit", NAN, 1.0, NAN, NAN);
    add(&rows, "m2", "csr", "ok", 2.0, 1.0, 0.45, 0.55);
    for (int i = 0; i < rows.n; i++)
        snprintf(rows.v[i].plugin, sizeof rows.v[i].plugin, "%s",
                 strncmp(rows.v[i].instance, "cusparse", 8) == 0 || strcmp(rows.v[i].instance, "auto") == 0
                     ? "cusparse" : rows.v[i].instance);
    snprintf(rows.v[3].message, sizeof rows.v[3].message, "select: predicted 1.2x over 5 neighbours");
    run_summary sum;
    TEST_CHECK(summary_build(&rows, "", 1, &sum) == 0);
    TEST_CHECK(sum.vendor == 1 && strcmp(sum.baseline, "cusparse") == 0);
    for (int m = 0; m < sum.nmat; m++) {
        const sum_matrix *sm = &sum.mat[m];
        if (strcmp(sm->matrix, "m1") == 0)
            TEST_CHECK(strcmp(sm->vendor, "cusparse-sell") == 0 && near(sm->vendor_ms, 0.8));
        else
            TEST_CHECK(strcmp(sm->vendor, "cusparse") == 0 && near(sm->vendor_ms, 1.0));
    }
    for (int k = 0; k < sum.ninst; k++) {
        const sum_instance *si = &sum.inst[k];
        if (strcmp(si->instance, "csr") == 0) /* 0.8 / 0.5 and 1 / 2, beside 2 and 0.5 against cusparse */
            TEST_CHECK(si->vendor_compared == 2 && near(si->vendor.point, sqrt(1.6 * 0.5)) && near(si->geo.point, 1));
        if (strcmp(si->instance, "cusparse") == 0)
            TEST_CHECK(near(si->vendor.point, sqrt(0.8)));
    }
    /* the summary says both, each instance x baseline beside x vendor-best */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    summary_print(f, &sum);
    fclose(f);
    TEST_CONTAINS(text, "against vendor-best (f64, 2 of 2 matrices)");
    TEST_CONTAINS(text, "x baseline x vendor-best");
    char line[200];
    snprintf(line, sizeof line, "%-28s %12s %12.3f", "csr", "1.000", sqrt(1.6 * 0.5));
    TEST_CONTAINS(text, line);
    free(text);
    summary_free(&sum);
    /* report --baseline vendor-best: against the fastest vendor row of each matrix */
    spmvlab_err err;
    TEST_CHECK(compare_rebase(&rows, VENDOR_BEST, &err) == 0);
    const run_row *csr1 = find(&rows, "m1", "csr"), *sell1 = find(&rows, "m1", "cusparse-sell"),
                  *csr2 = find(&rows, "m2", "csr");
    TEST_CHECK(near(csr1->speedup, 1.6) && near(csr2->speedup, 0.5) && strcmp(csr1->baseline, VENDOR_BEST) == 0);
    TEST_CHECK(sell1->speedup == 1 && strcmp(sell1->outcome, "baseline") == 0);
    run_rows_free(&rows);
    /* no vendor row: one sentence */
    fixture(&rows);
    for (int i = 0; i < rows.n; i++)
        snprintf(rows.v[i].plugin, sizeof rows.v[i].plugin, "csr");
    TEST_CHECK(compare_rebase(&rows, VENDOR_BEST, &err) == -1);
    TEST_CONTAINS(err.msg, "the results have no cusparse row");
    run_rows_free(&rows);
}

/* The floor columns: the lowest speedup over the baseline and its matrix,
 * and the matrices below RUN_FLOOR (0.8), in the summary and its CSV; a
 * speedup of exactly 0.8 is not below. */
static void the_worst_matrix_and_the_floor_count(void)
{
    run_rows rows;
    memset(&rows, 0, sizeof rows);
    const char *mats[] = {"m1", "m2", "m3", "m4"};
    const double ms[] = {0.5, 2.0, 1.25, 1.3}; /* speedups 2, 0.5, 0.8, 1/1.3 */
    for (int m = 0; m < 4; m++) {
        add(&rows, mats[m], "cusparse", "ok", 1.0, 1.0, 1, 1);
        add(&rows, mats[m], "csr", "ok", ms[m], 1.0, 0.9 / ms[m], 1.1 / ms[m]);
    }
    add(&rows, "m5", "cusparse", "ok", 1.0, 1.0, 1, 1);
    add(&rows, "m5", "csr", "limit", NAN, 1.0, NAN, NAN);
    run_summary sum;
    TEST_CHECK(summary_build(&rows, "", 1, &sum) == 0);
    const sum_instance *csr = NULL, *base = NULL;
    for (int k = 0; k < sum.ninst; k++) {
        if (strcmp(sum.inst[k].instance, "csr") == 0)
            csr = &sum.inst[k];
        if (strcmp(sum.inst[k].instance, "cusparse") == 0)
            base = &sum.inst[k];
    }
    TEST_CHECK(csr && fabs(csr->worst - 0.5) < 1e-12 && strcmp(csr->worst_matrix, "m2") == 0);
    TEST_CHECK(csr && csr->below_floor == 2);
    TEST_CHECK(base && base->worst == 1.0 && base->below_floor == 0);
    char path[] = "/tmp/spmvlab-floor-XXXXXX";
    int fd = mkstemp(path);
    TEST_CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    spmvlab_err err = {{0}};
    TEST_CHECK(summary_write_csv(path, &sum, &err) == 0);
    char line[2048] = "", want[] = ",0.5,m2,2\n";
    FILE *f = fopen(path, "r");
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        found |= strncmp(line, "f64,csr,", 8) == 0 && strlen(line) > strlen(want) &&
                 strcmp(line + strlen(line) - strlen(want), want) == 0;
    if (f)
        fclose(f);
    TEST_CHECK(found);
    unlink(path);
    summary_free(&sum);
    run_rows_free(&rows);
}

int main(void)
{
    speedups_are_against_the_named_instance();
    the_runs_own_baseline_changes_nothing();
    an_unknown_instance_is_refused_with_the_list();
    vendor_best_is_the_fastest_vendor_instance();
    the_worst_matrix_and_the_floor_count();
    return test_done("test_report_baseline");
}
