/*
 * report --table's third table, below the floor by bound (floor_table.h):
 * an instance's matrices below RUN_FLOOR make one line per bound kind of
 * its rows there, with the medians of its bound share, of the baseline's
 * share on the same matrices and of the bytes-per-non-zero ratio; a later
 * row of a cell replaces an earlier one; a matrix whose baseline has no
 * bound or no bytes gives no value; a line names at most FLOOR_NAMES
 * matrices, lowest speedup first; Markdown and LaTeX carry the lines, and
 * a group without any says so.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "floor_table.h"
#include "report_table.h"
#include "summary.h"
#include "testlib.h"
#include "testlib_rows.h"

/* An ok row of matrix and instance with its speedup over csr, bound kind
 * and share, and bytes per non-zero (NaN: none). */
static void add(run_rows *rows, const char *matrix, const char *instance, double speedup, const char *kind,
                double frac, double bytes)
{
    run_row r = test_row(matrix, instance, "ok");
    snprintf(r.baseline, sizeof r.baseline, "csr");
    r.ms = 1.0 / speedup;
    r.speedup = r.speedup_lo = r.speedup_hi = speedup;
    const char *outcome = strcmp(instance, "csr") == 0 ? "baseline" : speedup < 1 ? "loss" : "win";
    snprintf(r.outcome, sizeof r.outcome, "%s", outcome);
    snprintf(r.bound_kind, sizeof r.bound_kind, "%s", kind);
    r.bound_frac = frac;
    r.bytes_per_nnz = bytes;
    TEST_CHECK(run_rows_push(rows, &r) == 0);
}

/* csr the baseline on m1..m6 (m6 without a bound or bytes: a row of no
 * GPU); ell below 0.8 on m1 and m3 (dram, more bytes) and on m2 and m6
 * (launch), above on m4, and on m5 below in a row a later one replaces;
 * coo never below; hyb below on m1..m10 without bounds. */
static void fixture(run_rows *rows)
{
    memset(rows, 0, sizeof *rows);
    const double base_frac[] = {0.8, 0.9, 0.6, 0.7, 0.7};
    char m[16];
    for (int i = 0; i < 5; i++) {
        snprintf(m, sizeof m, "m%d", i + 1);
        add(rows, m, "csr", 1, "dram", base_frac[i], 12);
    }
    add(rows, "m6", "csr", 1, "", NAN, NAN);
    add(rows, "m1", "ell", 0.5, "dram", 0.4, 24);
    add(rows, "m2", "ell", 0.6, "launch", 0.1, 12);
    add(rows, "m3", "ell", 0.7, "dram", 0.3, 18);
    add(rows, "m4", "ell", 1.2, "dram", 0.9, 12);
    add(rows, "m5", "ell", 0.5, "gather", 0.2, 30);
    add(rows, "m5", "ell", 1.0, "dram", 0.7, 12);
    add(rows, "m6", "ell", 0.65, "launch", 0.2, 20);
    for (int i = 0; i < 6; i++) {
        snprintf(m, sizeof m, "m%d", i + 1);
        add(rows, m, "coo", 0.9, "dram", 0.6, 16);
    }
    for (int i = 0; i < 10; i++) {
        snprintf(m, sizeof m, "m%d", i + 1);
        add(rows, m, "hyb", 0.1 + 0.05 * i, "", NAN, NAN);
    }
}

static int near(double a, double b) { return fabs(a - b) <= 1e-12; }

/* The line of instance and bound kind, or NULL. */
static const floor_line *find(const floor_table *t, const char *instance, const char *kind)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->v[i].instance, instance) == 0 && strcmp(t->v[i].bound_kind, kind) == 0)
            return &t->v[i];
    return NULL;
}

static void one_line_per_instance_and_bound_kind(void)
{
    run_rows rows;
    fixture(&rows);
    run_summary sum;
    floor_table t;
    TEST_CHECK(summary_build(&rows, "", 1, &sum) == 0);
    TEST_CHECK(floor_table_build(&rows, &sum, &t) == 0);
    TEST_CHECK(t.n == 3); /* ell dram, ell launch, hyb without a bound; no gather (m5 replaced), no coo */
    const floor_line *dram = find(&t, "ell", "dram"), *launch = find(&t, "ell", "launch"), *hyb = find(&t, "hyb", "");
    TEST_CHECK(dram && dram->cells == 2 && strcmp(dram->group, "f64") == 0);
    TEST_CHECK(dram && near(dram->frac, 0.35) && near(dram->base_frac, 0.7) && near(dram->bytes_ratio, 1.75));
    TEST_CHECK(dram && strcmp(dram->matrix[0], "m1") == 0 && strcmp(dram->matrix[1], "m3") == 0);
    /* m6's baseline has no bound and no bytes: m2 alone gives those two */
    TEST_CHECK(launch && launch->cells == 2 && near(launch->frac, 0.15));
    TEST_CHECK(launch && near(launch->base_frac, 0.9) && near(launch->bytes_ratio, 1.0));
    TEST_CHECK(launch && strcmp(launch->matrix[0], "m2") == 0 && strcmp(launch->matrix[1], "m6") == 0);
    TEST_CHECK(hyb && hyb->cells == 10 && isnan(hyb->frac) && isnan(hyb->bytes_ratio));
    TEST_CHECK(find(&t, "ell", "gather") == NULL && find(&t, "coo", "dram") == NULL);
    TEST_CHECK(t.n == 3 && t.v[0].instance == dram->instance && t.v[2].instance == hyb->instance);
    floor_table_free(&t);
    summary_free(&sum);
    run_rows_free(&rows);
}

/* The tables of rows as kind, read back into a malloc'd string. */
static char *write_tables(const run_rows *rows, report_table_kind kind)
{
    run_summary sum;
    TEST_CHECK(summary_build(rows, "", 1, &sum) == 0);
    char path[] = "/tmp/spmvlab-floor-table-XXXXXX";
    int fd = mkstemp(path);
    TEST_CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    spmvlab_err err = {{0}};
    TEST_CHECK(report_write_tables(&sum, rows, "Test GPU", kind, path, &err) == 0);
    summary_free(&sum);
    char *text = calloc(1, 1 << 16);
    FILE *f = fopen(path, "r");
    if (f && text)
        text[fread(text, 1, (1 << 16) - 1, f)] = '\0';
    if (f)
        fclose(f);
    unlink(path);
    return text ? text : calloc(1, 1);
}

static void markdown_and_latex_carry_the_lines(void)
{
    run_rows rows;
    fixture(&rows);
    char *md = write_tables(&rows, REPORT_TABLE_MD);
    TEST_CONTAINS(md, "**Test GPU, f64: matrices below 0.8x the baseline, by the bound that binds the instance there;");
    TEST_CONTAINS(md, "| instance | bound | cells | share | baseline share | bytes ratio | "
                      "matrices (lowest speedup first) |");
    TEST_CONTAINS(md, "| `ell` | dram | 2 | 0.35 | 0.70 | 1.75 | `m1`, `m3` |\n");
    TEST_CONTAINS(md, "| `ell` | launch | 2 | 0.15 | 0.90 | 1.00 | `m2`, `m6` |\n");
    TEST_CONTAINS(md, "| `hyb` | - | 10 | - | 0.70 | - | `m1`, `m2`, `m3`, `m4`, `m5`, `m6`, `m7`, `m8` and 2 more "
                      "|\n");
    char *tex = write_tables(&rows, REPORT_TABLE_TEX);
    TEST_CONTAINS(tex, "\\texttt{ell} & dram & 2 & 0.35 & 0.70 & 1.75 & \\texttt{m1}, \\texttt{m3} \\\\\n");
    free(md), free(tex);
    run_rows_free(&rows);
}

static void a_group_without_any_says_so(void)
{
    run_rows rows;
    memset(&rows, 0, sizeof rows);
    add(&rows, "m1", "csr", 1, "dram", 0.8, 12);
    add(&rows, "m1", "coo", 0.8, "dram", 0.6, 16); /* exactly the floor: not below */
    char *md = write_tables(&rows, REPORT_TABLE_MD), *tex = write_tables(&rows, REPORT_TABLE_TEX);
    TEST_CONTAINS(md, "- where the rows have none**\n\nNo instance has a matrix below 0.8x the baseline.\n");
    TEST_CONTAINS(tex, "\n% No instance has a matrix below 0.8x the baseline.\n");
    TEST_CHECK(strstr(md, "| bound |") == NULL);
    free(md), free(tex);
    run_rows_free(&rows);
}

int main(void)
{
    one_line_per_instance_and_bound_kind();
    markdown_and_latex_carry_the_lines();
    a_group_without_any_says_so();
    return test_done("test_report_floor");
}
