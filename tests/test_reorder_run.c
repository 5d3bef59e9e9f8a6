/*
 * run --reorder on the CPU, through the host program (SPMVLAB_HOST):
 *
 * - each ordering permutes the matrix before the instances, and the cells
 *   verify against the permuted matrix's own reference (status ok);
 * - rows of an ordering are labelled NAME@ORDER and carry the ordering
 *   columns; rcm on a rectangular matrix is a skipped input with its reason,
 *   degree permutes its rows;
 * - ORDER+call rows (NAME@ORDER+call) keep the permutation inside every
 *   call: they verify against the file's order and name their ordering;
 * - --resume skips the orderings already measured and runs the new one;
 * - the summary's bound_frac column exists and is blank without a GPU.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib_host.h"

static const char *host, *plugdir, *datadir;
static char tmp[] = "/tmp/spmvlab-reorder-XXXXXX";

/* Column number of name in t, or -1. */
static int col_of(const table *t, const char *name)
{
    for (int c = 0; c < t->cols; c++)
        if (strcmp(t->cell[0][c], name) == 0)
            return c;
    return -1;
}

/* The row whose matrix label is matrix, or -1. */
static int row_of_matrix(const table *t, const char *matrix)
{
    for (int r = 1; r <= t->rows; r++)
        if (strcmp(table_cell(t, r, t->matrix), matrix) == 0)
            return r;
    return -1;
}

static const char *field(const table *t, int r, const char *name)
{
    int c = col_of(t, name);
    return r > 0 && c >= 0 ? table_cell(t, r, c) : NULL;
}

static double number(const table *t, int r, const char *name)
{
    const char *v = field(t, r, name);
    return v && v[0] ? atof(v) : -1;
}

/* Runs the host with args and reads the CSV it wrote into t; a run that
 * left none counts a failure and shows its output. Returns 0 when t holds
 * the table. */
static int run_and_read(const char *const *args, const char *csv, const char *what, outcome *o, table *t)
{
    run_host(args, 120, o);
    if (table_read(csv, t) == 0)
        return 0;
    fprintf(stderr, "no CSV from the %s run; its output:\n%s\n", what, o->out);
    test_failures++;
    return -1;
}

static void each_ordering_is_a_verified_cell_with_its_columns(const char *square, const char *rect)
{
    char csv[PATH_MAX];
    snprintf(csv, sizeof csv, "%s/orders.csv", tmp);
    const char *args[] = {"run", "-p", "csr", "--reorder", "none,rcm,degree", "-o", csv, square, rect, NULL};
    outcome o;
    table t;
    int read = run_and_read(args, csv, "reordered", &o, &t);
    TEST_CHECK(o.exited && o.code == 0);
    if (read)
        return;
    TEST_CHECK(t.rows == 6 && cells_once(&t) == 6);
    const char *labels[] = {"bcspwr10", "bcspwr10@rcm", "bcspwr10@degree", "lp_e226", "lp_e226@degree"};
    const char *orders[] = {"none", "rcm", "degree", "none", "degree"};
    for (int k = 0; k < 5; k++) {
        int r = row_of_matrix(&t, labels[k]);
        TEST_CHECK(r > 0);
        if (r < 0)
            continue;
        TEST_CHECK(strcmp(table_cell(&t, r, t.status), "ok") == 0);
        TEST_CHECK(number(&t, r, "error_ratio") >= 0 && number(&t, r, "error_ratio") <= 1);
        TEST_CHECK(strcmp(field(&t, r, "ordering"), orders[k]) == 0);
        TEST_CHECK(number(&t, r, "reorder_ms") >= 0);
        TEST_CHECK(number(&t, r, "bandwidth_before") > 0 && number(&t, r, "bandwidth_after") > 0);
        TEST_CHECK(number(&t, r, "sectors_before") > 0 && number(&t, r, "sectors_after") > 0);
        if (strcmp(orders[k], "none") == 0) /* the file's order changes nothing */
            TEST_CHECK(number(&t, r, "bandwidth_after") == number(&t, r, "bandwidth_before") &&
                       number(&t, r, "sectors_after") == number(&t, r, "sectors_before"));
    }
    /* reverse Cuthill-McKee narrows the band of a power network */
    int rcm = row_of_matrix(&t, "bcspwr10@rcm");
    TEST_CHECK(rcm > 0 && number(&t, rcm, "bandwidth_after") < number(&t, rcm, "bandwidth_before"));
    int skipped = row_of_matrix(&t, "lp_e226@rcm");
    TEST_CHECK(skipped > 0 && strcmp(table_cell(&t, skipped, t.status), "skipped") == 0 &&
               strstr(table_cell(&t, skipped, t.message), "square") != NULL);
    table_free(&t);
}

static void per_call_orderings_verify_in_the_files_order(const char *square, const char *rect)
{
    char csv[PATH_MAX];
    snprintf(csv, sizeof csv, "%s/per-call.csv", tmp);
    const char *args[] = {"run", "-p", "csr,sell", "--reorder", "none,rcm+call,degree+call,rcm", "-o", csv, square,
                          rect, NULL};
    outcome o;
    table t;
    int read = run_and_read(args, csv, "per-call", &o, &t);
    TEST_CHECK(o.exited && o.code == 0);
    if (read)
        return;
    /* 2 instances x (4 orderings of the square, 2 of the rectangle) + 2 skipped rcm inputs */
    TEST_CHECK(t.rows == 14 && cells_once(&t) == 14);
    const char *labels[] = {"bcspwr10@rcm+call", "bcspwr10@degree+call", "lp_e226@degree+call"};
    const char *orders[] = {"rcm+call", "degree+call", "degree+call"};
    for (int k = 0; k < 3; k++) {
        int n = 0;
        for (int r = 1; r <= t.rows; r++) {
            if (strcmp(table_cell(&t, r, t.matrix), labels[k]) != 0)
                continue;
            n++;
            TEST_CHECK(strcmp(table_cell(&t, r, t.status), "ok") == 0);
            TEST_CHECK(number(&t, r, "error_ratio") >= 0 && number(&t, r, "error_ratio") <= 1);
            TEST_CHECK(strcmp(field(&t, r, "ordering"), orders[k]) == 0);
            TEST_CHECK(number(&t, r, "reorder_ms") >= 0);
        }
        TEST_CHECK(n == 2);
    }
    /* the per-call cell converts from the same permuted matrix as the plain one */
    int call = row_of_matrix(&t, "bcspwr10@rcm+call"), once = row_of_matrix(&t, "bcspwr10@rcm");
    TEST_CHECK(call > 0 && once > 0 && number(&t, call, "bandwidth_after") == number(&t, once, "bandwidth_after") &&
               number(&t, call, "device_bytes") == number(&t, once, "device_bytes"));
    int skipped = row_of_matrix(&t, "lp_e226@rcm+call");
    TEST_CHECK(skipped > 0 && strcmp(table_cell(&t, skipped, t.status), "skipped") == 0);
    table_free(&t);
}

static void resume_runs_only_the_new_ordering(const char *square)
{
    char csv[PATH_MAX];
    snprintf(csv, sizeof csv, "%s/resume.csv", tmp);
    const char *first[] = {"run", "-p", "csr", "--reorder", "none,rcm", "-o", csv, square, NULL};
    outcome o;
    table before;
    if (run_and_read(first, csv, "first", &o, &before))
        return;
    TEST_CHECK(before.rows == 2);
    const char *again[] = {"run", "-p", "csr", "--reorder", "none,rcm,degree", "--resume", csv, square, NULL};
    table after;
    int read = run_and_read(again, csv, "resumed", &o, &after);
    TEST_CHECK(o.exited && o.code == 0);
    if (read == 0) {
        TEST_CHECK(after.rows == 3 && cells_once(&after) == 3);
        TEST_CHECK(row_of_matrix(&after, "bcspwr10@degree") == 3);
        for (int r = 1; r <= before.rows; r++) /* the rows kept were not measured again */
            for (int c = 0; c < before.cols; c++)
                TEST_CHECK(strcmp(table_cell(&after, r, c), table_cell(&before, r, c)) == 0);
        table_free(&after);
    }
    table_free(&before);
}

/* Without a GPU no row has a bound, so the summary's median is blank. */
static void summary_bound_frac_is_blank_without_a_gpu(void)
{
    char path[PATH_MAX], text[1 << 14];
    snprintf(path, sizeof path, "%s/orders-summary.csv", tmp);
    slurp_into(path, text, sizeof text);
    char *header = strtok(text, "\n"), *row = strtok(NULL, "\n");
    TEST_CHECK(header && row);
    if (!header || !row)
        return;
    int col = -1, n = 0;
    for (char *save = NULL, *h = strtok_r(header, ",", &save); h; h = strtok_r(NULL, ",", &save), n++)
        if (strcmp(h, "bound_frac") == 0)
            col = n;
    TEST_CHECK(col >= 0);
    const char *p = row;
    for (int k = 0; k < col && p; k++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    TEST_CHECK(p && (*p == '\0' || *p == ','));
}

static void rows_without_reorder_leave_the_ordering_columns_empty(const char *square)
{
    char csv[PATH_MAX];
    snprintf(csv, sizeof csv, "%s/plain.csv", tmp);
    const char *args[] = {"run", "-p", "csr", "-o", csv, square, NULL};
    outcome o;
    table t;
    if (run_and_read(args, csv, "plain", &o, &t))
        return;
    TEST_CHECK(t.rows == 1 && strcmp(table_cell(&t, 1, t.matrix), "bcspwr10") == 0);
    TEST_CHECK(strcmp(field(&t, 1, "ordering"), "") == 0 && strcmp(field(&t, 1, "sectors_after"), "") == 0);
    table_free(&t);
}

int main(void)
{
    char m1[PATH_MAX], m2[PATH_MAX];
    outcome help;
    int rc = host_test_start("test_reorder_run", &host, &plugdir, &datadir, tmp, m1, m2, &help);
    if (rc)
        return rc;
    /* m1 is lp_e226 (223 x 472), m2 bcspwr10 (square) */
    each_ordering_is_a_verified_cell_with_its_columns(m2, m1);
    summary_bound_frac_is_blank_without_a_gpu();
    per_call_orderings_verify_in_the_files_order(m2, m1);
    resume_runs_only_the_new_ordering(m2);
    rows_without_reorder_leave_the_ordering_columns_empty(m2);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return test_done("test_reorder_run");
}
