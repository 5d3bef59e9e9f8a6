/*
 * Faulty plugins and memory limits, through the host program
 * (SPMVLAB_HOST) on the CPU, with the test plugins (SPMVLAB_TEST_PLUGIN_DIR):
 *
 * - `spmvlab run --isolate --timeout 3` over csr and plugins that segfault,
 *   abort, hang, exhaust memory and compute garbage completes; each broken
 *   one is recorded with status crash / crash / timeout / oom / wrong and a
 *   message (an abort's last words included) and csr's row is ok;
 * - without --isolate, a plugin that segfaults or hangs in spmv_host on
 *   one matrix of three costs that cell only (crash / timeout), also with
 *   --devices cpu:2, and the matrix it failed on is the one named;
 * - without --isolate, a plugin allocating past `--mem-limit` gets status
 *   limit and the run goes on.
 *
 * Resumed and interrupted runs: test_resume.c. Skipped (77) while `spmvlab
 * run --help` does not mention --isolate.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib_host.h"

static const char *host, *plugdir, *datadir;
static char tmp[] = "/tmp/spmvlab-isolation-XXXXXX";

static void path_in_tmp(char *out, size_t len, const char *name) { snprintf(out, len, "%s/%s", tmp, name); }

static void isolated_run_records_each_fault_and_completes(const char *matrix)
{
    char csv[PATH_MAX];
    path_in_tmp(csv, sizeof csv, "isolated.csv");
    const char *args[] = {"run", "--isolate", "--timeout", "3", "-p", "csr,bad_segv,bad_abort,bad_hang,bad_oom,bad_wrong",
                          "--plugin-dir", plugdir, "-o", csv, matrix, NULL};
    outcome o;
    run_host(args, 120, &o);
    if (!o.exited || (o.code != 0 && o.code != 1)) {
        fprintf(stderr, "isolated run ended with code %d, signal %d:\n%s\n", o.code, o.signal, o.out);
        test_failures++;
    }
    table t;
    if (table_read(csv, &t)) {
        fprintf(stderr, "no CSV from the isolated run; its output:\n%s\n", o.out);
        test_failures++;
        return;
    }
    TEST_CHECK(cells_once(&t) == 6);
    expect_status(&t, "csr", "ok", NULL);
    expect_status(&t, "bad_segv", "crash", NULL);
    expect_status(&t, "bad_abort", "crash", "an invariant broke in spmv_host");
    expect_status(&t, "bad_hang", "timeout", NULL);
    expect_status(&t, "bad_oom", "oom", NULL);
    expect_status(&t, "bad_wrong", "wrong", NULL);
    TEST_CHECK(o.seconds < 60); /* one timeout of 3 s, the rest quick */
    table_free(&t);
}

/* The status of (matrix, instance) in t, or "" when it has no row. */
static const char *status_at(const table *t, const char *matrix, const char *instance)
{
    for (int r = 1; r <= t->rows; r++)
        if (strcmp(table_cell(t, r, t->matrix), matrix) == 0 && strcmp(table_cell(t, r, t->instance), instance) == 0)
            return table_cell(t, r, t->status);
    return "";
}

/* Without --isolate, a plugin that segfaults (or hangs) in spmv_host on
 * one matrix of three costs that cell only: bcspwr10 (5300 rows) is the
 * only one of at least min_rows, the middle one; every other cell is
 * measured, the run ends with its summary and the right matrix is named.
 * devices_arg: NULL, or "cpu:2" for run --devices. */
static void plugin_fault_costs_one_cell(const char *bad, const char *status, const char *devices_arg)
{
    char csv[PATH_MAX], m[3][PATH_MAX], set1[64], set2[64];
    static const char *const names[3] = {"lp_e226", "bcspwr10", "1138_bus"};
    for (int k = 0; k < 3; k++)
        snprintf(m[k], sizeof m[k], "%s/%s.mtx.gz", datadir, names[k]);
    snprintf(csv, sizeof csv, "%s/%s-%s.csv", tmp, bad, devices_arg ? "devices" : "worker");
    snprintf(set1, sizeof set1, "%s.stage=spmv", bad);
    snprintf(set2, sizeof set2, "%s.min_rows=5000", bad);
    char labels[64];
    snprintf(labels, sizeof labels, "csr,%s", bad);
    /* a hang costs the timeout twice (the worker's, then its child's); the
     * others must never meet it, also under sanitizers on a busy machine */
    const char *timeout = strcmp(status, "timeout") == 0 ? "8" : "60";
    const char *args[] = {"run", "-p", labels, "--option", set1, "--option", set2, "--timeout", timeout, "--plugin-dir", plugdir,
                          "-o", csv, m[0], m[1], m[2], devices_arg ? "--devices" : NULL, devices_arg, NULL};
    outcome o;
    run_host(args, 120, &o);
    if (!o.exited || o.code != 1) {
        fprintf(stderr, "%s run%s ended with code %d, signal %d (want 1: one cell failed):\n%s\n", bad,
                devices_arg ? " --devices" : "", o.code, o.signal, o.out);
        test_failures++;
    }
    table t;
    if (table_read(csv, &t)) {
        fprintf(stderr, "no CSV from the %s run; its output:\n%s\n", bad, o.out);
        test_failures++;
        return;
    }
    TEST_CHECK(cells_once(&t) == 6);
    for (int k = 0; k < 3; k++) {
        TEST_CHECK(strcmp(status_at(&t, names[k], "csr"), "ok") == 0);
        const char *want = k == 1 ? status : "ok";
        if (strcmp(status_at(&t, names[k], bad), want) != 0) {
            fprintf(stderr, "%s on %s: status '%s', want '%s'; the run said:\n%s\n", bad, names[k],
                    status_at(&t, names[k], bad), want, o.out);
            test_failures++;
        }
    }
    /* the matrix it failed on is the one named, never its predecessor */
    if (!devices_arg) {
        TEST_CHECK(strstr(o.out, "bcspwr10.mtx.gz; its cells there run one child each") != NULL);
        TEST_CHECK(strstr(o.out, "lp_e226.mtx.gz; its cells") == NULL);
    }
    TEST_CHECK(strstr(o.out, "have no row") == NULL);
    table_free(&t);
}

static void memory_limit_gives_status_limit(const char *matrix)
{
    char csv[PATH_MAX];
    path_in_tmp(csv, sizeof csv, "limit.csv");
    const char *args[] = {"run", "--mem-limit", "64M", "-p", "bad_oom,csr", "--plugin-dir", plugdir, "-o", csv,
                          matrix, NULL};
    outcome o;
    run_host(args, 60, &o);
    TEST_CHECK(o.exited && (o.code == 0 || o.code == 1));
    table t;
    if (table_read(csv, &t)) {
        fprintf(stderr, "no CSV from the --mem-limit run; its output:\n%s\n", o.out);
        test_failures++;
        return;
    }
    expect_status(&t, "bad_oom", "limit", "memory limit");
    expect_status(&t, "csr", "ok", NULL);
    table_free(&t);
}

int main(void)
{
    char m1[PATH_MAX], m2[PATH_MAX];
    outcome help;
    int rc = host_test_start("test_isolation", &host, &plugdir, &datadir, tmp, m1, m2, &help);
    if (rc)
        return rc;
    (void)m2;
    isolated_run_records_each_fault_and_completes(m1);
    plugin_fault_costs_one_cell("bad_segv", "crash", NULL);
    plugin_fault_costs_one_cell("bad_segv", "crash", "cpu:2");
    plugin_fault_costs_one_cell("bad_hang", "timeout", NULL);
    if (strstr(help.out, "--mem-limit"))
        memory_limit_gives_status_limit(m1);
    else {
        fprintf(stderr, "`spmvlab run --help` does not offer --mem-limit\n");
        test_failures++;
    }
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return test_done("test_isolation");
}
