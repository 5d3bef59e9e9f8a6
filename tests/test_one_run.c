/*
 * One run's results (issue 38): a skipped input never changes the exit
 * status of run, merge or report; --resume, merge and report refuse rows
 * of another device or measured with other settings (timing, flush-l2,
 * warmup, seed, noise) through one check; a merged summary says on how
 * many matrices each instance has rows; an output that cannot be written
 * exits 1 with a sentence naming the user's file. Needs SPMVLAB_HOST,
 * SPMVLAB_DATA_DIR and SPMVLAB_TESTS_DIR.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "origin.h"
#include "status.h"
#include "testlib_cli.h"
#include "testlib_rows.h"

static const char *tests_dir;

/* Copies <tmp>/src to <tmp>/dst with every from replaced by to. */
static void copy_replacing(const char *src, const char *dst, const char *from, const char *to)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", tmp, src);
    char *s = slurp(p);
    TEST_CHECK(s != NULL && strstr(s, from) != NULL);
    snprintf(p, sizeof p, "%s/%s", tmp, dst);
    FILE *f = fopen(p, "w");
    for (char *at = s; f && at && *at;) {
        char *hit = strstr(at, from);
        fprintf(f, "%.*s%s", hit ? (int)(hit - at) : (int)strlen(at), at, hit ? to : "");
        at = hit ? hit + strlen(from) : NULL;
    }
    if (f)
        fclose(f);
    free(s);
}

/* The exit status rows call for: a skipped input is a result like a
 * refusal; a failed cell 1; an unreadable input 2, as its run gave. */
static void skipped_rows_keep_exit_zero(void)
{
    run_rows rows = {0};
    run_row ok = test_row("a", "csr", "ok"), skipped = test_row("b", "", "skipped"),
            wrong = test_row("c", "csr", "wrong"), unreadable = test_row("d", "", "unreadable");
    TEST_CHECK(run_rows_push(&rows, &ok) == 0 && run_rows_push(&rows, &skipped) == 0);
    TEST_CHECK(rows_exit_code(&rows) == 0);
    TEST_CHECK(run_rows_push(&rows, &wrong) == 0);
    TEST_CHECK(rows_exit_code(&rows) == 1);
    TEST_CHECK(run_rows_push(&rows, &unreadable) == 0);
    TEST_CHECK(rows_exit_code(&rows) == 2);
    run_rows_free(&rows);
}

/* Two shards that each exit 0, one holding a complex matrix, merge with 0;
 * report of the shard exits 0 and counts the input. */
static void skipped_inputs_merge_and_report_with_zero(void)
{
    char a[8192];
    snprintf(a, sizeof a, "run -p csr -o %s/a.csv %s/lp_e226.mtx.gz %s/fuzz/corpus/mtx/complex.mtx", tmp, data,
             tests_dir);
    TEST_CHECK(spmvlab(a) == 0);
    snprintf(a, sizeof a, "run -p csr -o %s/b.csv %s/1138_bus.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    snprintf(a, sizeof a, "merge %s/ab.csv %s/a.csv %s/b.csv", tmp, tmp, tmp);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CONTAINS(out_text, "inputs not run (f64): 1 skipped, 0 unreadable");
    snprintf(a, sizeof a, "report %s/a.csv -o %s/a-report", tmp, tmp);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CONTAINS(out_text, "inputs not run (f64): 1 skipped, 0 unreadable");
}

/* Each setting a row records is checked: another value is refused with a
 * sentence naming it; an empty one (an input row, an older file) agrees. */
static void every_recorded_setting_is_checked(void)
{
    static const char *const names[] = ORIGIN_SETTINGS;
    for (int i = 0; i < ORIGIN_NSETTINGS; i++) {
        run_rows rows = {0};
        run_row first = test_row("m", "csr", "ok"), input = test_row("n", "", "skipped"),
                second = test_row("o", "csr", "ok");
        snprintf(first.device, sizeof first.device, "NVIDIA H100");
        snprintf(second.device, sizeof second.device, "NVIDIA H100");
        snprintf(input.device, sizeof input.device, "NVIDIA H100");
        run_row *both[] = {&first, &second};
        for (int k = 0; k < 2; k++) {
            snprintf(both[k]->timing, sizeof both[k]->timing, "batch");
            both[k]->flush_l2 = 0;
            both[k]->warmup = 10;
            snprintf(both[k]->seed, sizeof both[k]->seed, "1");
            both[k]->noise = 0.01;
        }
        switch (i) {
        case 0: snprintf(second.timing, sizeof second.timing, "single"); break;
        case 1: second.flush_l2 = 1; break;
        case 2: second.warmup = 3; break;
        case 3: snprintf(second.seed, sizeof second.seed, "7"); break;
        default: second.noise = 0.05; break;
        }
        TEST_CHECK(run_rows_push(&rows, &first) == 0 && run_rows_push(&rows, &input) == 0);
        run_origin o;
        origin_init(&o);
        spmvlab_err err;
        TEST_CHECK(origin_check_rows(&o, &rows, "p0.csv", &err) == 0);
        run_rows more = {0};
        TEST_CHECK(run_rows_push(&more, &second) == 0);
        TEST_CHECK(origin_check_rows(&o, &more, "p1.csv", &err) == -1);
        char want[96];
        snprintf(want, sizeof want, "p1.csv holds results measured with %s = ", names[i]);
        TEST_CONTAINS(err.msg, want);
        snprintf(want, sizeof want, "but p0.csv with %s = ", names[i]);
        TEST_CONTAINS(err.msg, want);
        origin_free(&o);
        run_rows_free(&more);
        run_rows_free(&rows);
    }
}

/* The same check in the three commands: merge (seed), --resume (noise)
 * and report (flush-l2) refuse rows of other settings with exit 2. */
static void commands_refuse_other_settings(void)
{
    char a[8192];
    snprintf(a, sizeof a, "run -p csr --seed 2 -o %s/s2.csv %s/1138_bus.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    snprintf(a, sizeof a, "merge %s/m2.csv %s/a.csv %s/s2.csv", tmp, tmp, tmp);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "s2.csv holds results measured with seed = 2, but");
    TEST_CONTAINS(err_text, "a.csv with seed = 1");
    snprintf(a, sizeof a, "run -p csr --noise 0.05 --resume %s/a.csv %s/1138_bus.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "holds results measured with noise = 0.01, but this run with noise = 0.05");
    snprintf(a, sizeof a, "run -p csr --flush-l2 -o %s/f.csv %s/1138_bus.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    snprintf(a, sizeof a, "report %s/a.csv %s/f.csv -o %s/af-report", tmp, tmp, tmp);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "f.csv holds results measured with flush_l2 = 1, but");
    /* the same settings still merge and report together */
    snprintf(a, sizeof a, "report %s/a.csv %s/b.csv -o %s/ab-report", tmp, tmp, tmp);
    TEST_CHECK(spmvlab(a) == 0);
}

/* report does not pool devices: the pair merge refuses, report refuses
 * with one sentence, and no plot is titled with the wrong device. */
static void report_keeps_devices_apart(void)
{
    copy_replacing("b.csv", "h200.csv", ",cpu,", ",NVIDIA H200,");
    char a[8192], p[600];
    snprintf(a, sizeof a, "report %s/a.csv %s/h200.csv -o %s/mixed-report", tmp, tmp, tmp);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "h200.csv holds results measured on NVIDIA H200, but");
    TEST_CONTAINS(err_text, "results of one device only");
    snprintf(p, sizeof p, "%s/mixed-report/summary.csv", tmp);
    FILE *f = fopen(p, "r");
    TEST_CHECK(f == NULL);
    if (f)
        fclose(f);
}

/* Parts of other instance lists merge, and the summary says that coo has
 * rows on 1 of the 2 matrices, in the table and the summary CSV. */
static void merged_summary_says_what_each_instance_covers(void)
{
    char a[8192], p[600];
    snprintf(a, sizeof a, "run -p csr,coo -o %s/c1.csv %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    snprintf(a, sizeof a, "run -p csr,ell -o %s/c2.csv %s/1138_bus.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    snprintf(a, sizeof a, "merge %s/c.csv %s/c1.csv %s/c2.csv", tmp, tmp, tmp);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CONTAINS(out_text, "coo has rows on 1 of the 2 matrices (none on 1: not measured there)");
    TEST_CONTAINS(out_text, "ell has rows on 1 of the 2 matrices");
    TEST_CHECK(strstr(out_text, "csr has rows on") == NULL);
    TEST_CONTAINS(out_text, "ok/all");
    csv c;
    snprintf(p, sizeof p, "%s/c-summary.csv", tmp);
    TEST_CHECK(csv_load(p, &c) == 0);
    int seen = 0;
    for (int r = 1; r < c.nrec; r++)
        if (!strcmp(cell(&c, r, "instance"), "coo")) {
            seen = 1;
            TEST_CHECK(atoi(cell(&c, r, "cells")) == 1 && atoi(cell(&c, r, "matrices")) == 2);
        }
    TEST_CHECK(seen);
    csv_free(&c);
}

/* An output that cannot be written exits 1 with a sentence naming the
 * file given, not the files written beside it. */
static void unwritable_output_exits_one(void)
{
    char a[8192];
    snprintf(a, sizeof a, "run -p csr -o %s/no-such-folder/r.csv %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 1);
    char want[700];
    snprintf(want, sizeof want, "cannot write %s/no-such-folder/r.csv: No such file or directory", tmp);
    TEST_CONTAINS(err_text, want);
    TEST_CHECK(strstr(err_text, ".partial") == NULL);
    snprintf(a, sizeof a, "run -p csr --json %s/no-such-folder/r.json %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 1);
    snprintf(want, sizeof want, "cannot write %s/no-such-folder/r.json:", tmp);
    TEST_CONTAINS(err_text, want);
    snprintf(a, sizeof a, "run -p csr --devices cpu:2 -o %s/no-such-folder/r.csv %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 1);
    snprintf(want, sizeof want, "cannot write %s/no-such-folder/r.csv: its parts folder", tmp);
    TEST_CONTAINS(err_text, want);
}

int main(void)
{
    setenv("SPMVLAB_NO_CACHE", "1", 1);
    skipped_rows_keep_exit_zero();
    every_recorded_setting_is_checked();
    tests_dir = getenv("SPMVLAB_TESTS_DIR");
    if (cli_setup() != 0 || !tests_dir) {
        fprintf(stderr, "SPMVLAB_HOST, SPMVLAB_DATA_DIR and SPMVLAB_TESTS_DIR are needed: the command checks are "
                        "skipped\n");
        return test_done("test_one_run");
    }
    skipped_inputs_merge_and_report_with_zero();
    commands_refuse_other_settings();
    report_keeps_devices_apart();
    merged_summary_says_what_each_instance_covers();
    unwritable_output_exits_one();
    cli_cleanup("test_one_run");
    return test_done("test_one_run");
}
