/*
 * Resumed and interrupted runs, through the host program (SPMVLAB_HOST) on
 * the CPU, with the test plugins (SPMVLAB_TEST_PLUGIN_DIR):
 *
 * - a run cut short (its CSV truncated to the header and first row, as an
 *   interrupted run leaves it) and resumed with --resume measures every
 *   cell exactly once and keeps the row already written;
 * - Ctrl-C (SIGINT) during a hanging cell, in a run whose -o names the
 *   file of an earlier run, ends the run promptly: the earlier file stays
 *   whole, the rows measured are in FILE.partial, a fresh run onto FILE is
 *   refused, and the same command with --resume continues from both and
 *   leaves one whole FILE.
 *
 * Skipped (77) while `spmvlab run --help` does not mention --isolate.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib_host.h"

static const char *host, *plugdir, *datadir;
static char tmp[] = "/tmp/spmvlab-resume-XXXXXX";

static void path_in_tmp(char *out, size_t len, const char *name) { snprintf(out, len, "%s/%s", tmp, name); }

/* Cuts the file after its first keep lines (an interrupted run's CSV). */
static void keep_lines(const char *path, int keep)
{
    static char text[1 << 18];
    slurp_into(path, text, sizeof text);
    char *p = text;
    for (int k = 0; k < keep && p; k++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (p)
        *p = '\0';
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

static void resume_finishes_a_cut_run_measuring_each_cell_once(const char *m1, const char *m2)
{
    char csv[PATH_MAX];
    path_in_tmp(csv, sizeof csv, "resume.csv");
    const char *first[] = {"run", "-p", "csr,probe", "--plugin-dir", plugdir, "-o", csv, m1, m2, NULL};
    outcome o;
    run_host(first, 120, &o);
    table full;
    if (table_read(csv, &full)) {
        fprintf(stderr, "no CSV from the first run; its output:\n%s\n", o.out);
        test_failures++;
        return;
    }
    TEST_CHECK(cells_once(&full) == 4);
    keep_lines(csv, 2);
    table cut;
    TEST_CHECK(table_read(csv, &cut) == 0 && cut.rows == 1);
    const char *again[] = {"run", "-p", "csr,probe", "--plugin-dir", plugdir, "--resume", csv, m1, m2, NULL};
    run_host(again, 120, &o);
    TEST_CHECK(o.exited && o.code == 0);
    table resumed;
    if (table_read(csv, &resumed) == 0) {
        TEST_CHECK(cells_once(&resumed) == 4);
        for (int c = 0; c < resumed.cols && cut.rows == 1; c++) /* the row kept was not measured again */
            TEST_CHECK(strcmp(table_cell(&resumed, 1, c), table_cell(&cut, 1, c)) == 0);
        table_free(&resumed);
    } else {
        fprintf(stderr, "the resumed run left no CSV; its output:\n%s\n", o.out);
        test_failures++;
    }
    /* Resuming a finished run measures nothing more. */
    run_host(again, 120, &o);
    if (table_read(csv, &resumed) == 0) {
        TEST_CHECK(cells_once(&resumed) == 4);
        table_free(&resumed);
    }
    table_free(&full);
    table_free(&cut);
}

/* CPU seconds used by the child of parent that has used most; 0 if none. */
static double busiest_child_seconds(pid_t parent)
{
    double best = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], line[1024];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(line, 1, sizeof line - 1, f);
        fclose(f);
        line[n] = '\0';
        char *after = strrchr(line, ')'); /* the name may hold spaces */
        int ppid = 0;
        unsigned long utime = 0, stime = 0;
        if (after && sscanf(after + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ppid, &utime,
                            &stime) == 3 &&
            ppid == parent) {
            double sec = (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
            if (sec > best)
                best = sec;
        }
    }
    closedir(d);
    return best;
}

/* Rows of one matrix are written when its group is done, so the run is
 * interrupted on the second matrix, while bad_hang's child spins (it comes
 * first in the list, so nothing else runs then), after the first matrix's
 * rows are in CSV.partial. The CSV of an earlier run stays as it was. */
static void ctrl_c_keeps_what_was_measured(const char *m1, const char *m2)
{
    char csv[PATH_MAX], partial[PATH_MAX + 16], json[PATH_MAX], json_partial[PATH_MAX + 16];
    char summary[PATH_MAX], summary_partial[PATH_MAX + 16], earlier[1 << 14], now[1 << 14];
    path_in_tmp(csv, sizeof csv, "interrupted.csv");
    path_in_tmp(json, sizeof json, "interrupted.json");
    path_in_tmp(summary, sizeof summary, "interrupted-summary.csv");
    snprintf(partial, sizeof partial, "%s.partial", csv);
    snprintf(json_partial, sizeof json_partial, "%s.partial", json);
    snprintf(summary_partial, sizeof summary_partial, "%s.partial", summary);
    const char *before[] = {"run", "-p", "csr", "-o", csv, m1, NULL};
    outcome o;
    run_host(before, 60, &o);
    slurp_into(csv, earlier, sizeof earlier);
    TEST_CHECK(o.exited && o.code == 0 && strchr(earlier, '\n') && access(summary, F_OK) == 0);
    const char *args[] = {"run", "--isolate", "--timeout", "8", "-p", "bad_hang,csr", "--plugin-dir", plugdir,
                          "-o", csv, "--json", json, m1, m2, NULL};
    double t0 = now_s();
    pid_t pid = host_start(args);
    TEST_CHECK(pid > 0);
    if (pid <= 0)
        return;
    table t = {0};
    int rows = 0, spinning = 0;
    while (!spinning && now_s() - t0 < 40) {
        usleep(50000);
        if (rows < 2 && table_read(partial, &t) == 0) {
            rows = t.rows;
            table_free(&t);
        }
        spinning = rows == 2 && busiest_child_seconds(pid) > 0.5;
        if (waitpid(pid, NULL, WNOHANG) == pid) {
            fprintf(stderr, "the run ended before it was interrupted\n");
            test_failures++;
            return;
        }
    }
    TEST_CHECK(rows == 2 && spinning);
    double t1 = now_s();
    kill(pid, SIGINT);
    host_finish(pid, t0, 60, &o);
    TEST_CHECK(now_s() - t1 < 4); /* promptly, not after the hanging child's time limit */
    TEST_CHECK(o.signal == 0 || o.signal == SIGINT);
    slurp_into(csv, now, sizeof now);
    TEST_CHECK(strcmp(now, earlier) == 0); /* the earlier run's file is whole */
    /* The summary and the JSON of what was measured wait beside their names. */
    TEST_CHECK(access(summary_partial, F_OK) == 0 && access(json_partial, F_OK) == 0 && access(json, F_OK) != 0);
    if (table_read(partial, &t) == 0) {
        TEST_CHECK(t.rows == 2); /* the first matrix's cells, nothing of the second */
        expect_status(&t, "csr", "ok", NULL);
        expect_status(&t, "bad_hang", "timeout", NULL);
        cells_once(&t);
        table_free(&t);
    } else {
        fprintf(stderr, "the interrupted run left no %s; its output:\n%s\n", partial, o.out);
        test_failures++;
    }
    /* A fresh run onto the same name would lose those rows: refused. */
    run_host(before, 60, &o);
    TEST_CHECK(o.exited && o.code == 2 && strstr(o.out, "holds rows of an interrupted run"));
    /* --resume continues from the file and the rows beside it, measures only
     * the second matrix, and renames the whole onto the file. */
    const char *rest[] = {"run", "--isolate", "--timeout", "8", "-p", "bad_hang,csr", "--plugin-dir", plugdir,
                          "--resume", csv, "--json", json, m1, m2, NULL};
    run_host(rest, 60, &o);
    TEST_CHECK(strstr(o.out, "continuing from") && strstr(o.out, "1 cells more"));
    TEST_CHECK(o.exited && o.code == 1); /* bad_hang's timeouts are failures; the files are renamed all the same */
    TEST_CHECK(access(partial, F_OK) != 0 && access(summary_partial, F_OK) != 0 && access(json_partial, F_OK) != 0);
    TEST_CHECK(access(json, F_OK) == 0);
    if (table_read(csv, &t) == 0) {
        TEST_CHECK(cells_once(&t) == 4);
        table_free(&t);
    }
}

int main(void)
{
    char m1[PATH_MAX], m2[PATH_MAX];
    outcome help;
    int rc = host_test_start("test_resume", &host, &plugdir, &datadir, tmp, m1, m2, &help);
    if (rc)
        return rc;
    resume_finishes_a_cut_run_measuring_each_cell_once(m1, m2);
    ctrl_c_keeps_what_was_measured(m1, m2);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return test_done("test_resume");
}
