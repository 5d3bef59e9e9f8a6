/*
 * Faulty plugins and memory limits, through the host program
 * (SPMVLAB_HOST) on the CPU, with the test plugins (SPMVLAB_TEST_PLUGIN_DIR):
 *
 * - `spmvlab run --isolate --timeout 3` over csr and plugins that segfault,
 *   abort, hang, exhaust memory and compute garbage completes; each broken
 *   one is recorded with status crash / crash / timeout / oom / wrong and a
 *   message (an abort's last words included) and csr's row is ok;
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
