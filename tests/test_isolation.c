/*
 * Faulty plugins, memory limits and resumed runs, through the host program
 * (SPMVLAB_HOST) on the CPU, with the test plugins (SPMVLAB_TEST_PLUGIN_DIR):
 *
 * - `spmvlab run --isolate --timeout 3` over csr and plugins that segfault,
 *   abort, hang, exhaust memory and compute garbage completes; each broken
 *   one is recorded with status crash / crash / timeout / oom / wrong and a
 *   message (an abort's last words included) and csr's row is ok;
 * - without --isolate, a plugin allocating past `--mem-limit` gets status
 *   limit and the run goes on;
 * - a run cut short (its CSV truncated to the header and first row, as an
 *   interrupted run leaves it) and resumed with --resume measures every
 *   cell exactly once and keeps the row already written;
 * - Ctrl-C (SIGINT) during a hanging cell ends the run promptly with the
 *   rows already measured on disk, and the same command with --resume
 *   finishes it.
 *
 * The CSV is read by its header: columns matrix, instance, dtype, status and
 * message must exist. Skipped (77) while `spmvlab run --help` does not
 * mention --isolate.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

extern char **environ;

static const char *host, *plugdir, *datadir;
static char tmp[] = "/tmp/spmvlab-isolation-XXXXXX";

/* ---- running the host ---------------------------------------------------- */

typedef struct outcome {
    int exited, code, signal; /* how it ended */
    double seconds;
    char out[1 << 16];        /* stdout and stderr together (the tail when longer) */
} outcome;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void slurp_into(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long from = size > (long)len - 1 ? size - (long)len + 1 : 0;
    fseek(f, from, SEEK_SET);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Starts the host with args (NULL-ended), output to tmp/host.log. */
static pid_t start(const char *const *args)
{
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/host.log", tmp);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const char *argv[64];
    int n = 0;
    argv[n++] = host;
    for (int k = 0; args[k] && n < 63; k++)
        argv[n++] = args[k];
    argv[n] = NULL;
    pid_t pid;
    int rc = posix_spawn(&pid, host, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc == 0 ? pid : -1;
}

/* Waits for pid up to limit_s seconds (then kills it); fills o. */
static void finish(pid_t pid, double t0, double limit_s, outcome *o)
{
    memset(o, 0, sizeof *o);
    int status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (now_s() - t0 > limit_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            fprintf(stderr, "the host ran past %.0f s and was killed\n", limit_s);
            test_failures++;
            break;
        }
        usleep(20000);
    }
    o->seconds = now_s() - t0;
    o->exited = WIFEXITED(status);
    o->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/host.log", tmp);
    slurp_into(log, o->out, sizeof o->out);
}

static void run_host(const char *const *args, double limit_s, outcome *o)
{
    double t0 = now_s();
    pid_t pid = start(args);
    TEST_CHECK(pid > 0);
    if (pid > 0)
        finish(pid, t0, limit_s, o);
}

/* ---- reading the CSV --------------------------------------------------------- */

#define MAX_ROWS 64
#define MAX_COLS 128

typedef struct table {
    int rows, cols;              /* rows without the header */
    char *cell[MAX_ROWS + 1][MAX_COLS];
    int matrix, instance, dtype, status, message; /* column numbers, -1 if absent */
} table;

/* Reads one RFC 4180 field at *p; returns it (malloc'd) and moves *p past
 * the separator; *end_of_row is set after the last field of a row. */
static char *csv_field(const char **p, int *end_of_row)
{
    const char *s = *p;
    size_t cap = 64, n = 0;
    char *f = malloc(cap);
    int quoted = *s == '"';
    if (quoted)
        s++;
    for (;;) {
        char c = *s;
        if (!c)
            break;
        if (quoted && c == '"') {
            if (s[1] == '"') {
                s += 2;
                c = '"';
            } else {
                quoted = 0;
                s++;
                continue;
            }
        } else if (!quoted && (c == ',' || c == '\n' || c == '\r')) {
            break;
        } else {
            s++;
        }
        if (n + 2 > cap)
            f = realloc(f, cap *= 2);
        f[n++] = c;
    }
    f[n] = '\0';
    *end_of_row = *s != ',';
    if (*s == ',')
        s++;
    else {
        while (*s == '\r')
            s++;
        if (*s == '\n')
            s++;
    }
    *p = s;
    return f;
}

static void table_free(table *t)
{
    for (int r = 0; r <= t->rows; r++)
        for (int c = 0; c < MAX_COLS; c++)
            free(t->cell[r][c]);
    memset(t, 0, sizeof *t);
}

/* Reads path; returns 0, or -1 when it is missing or malformed. */
static int table_read(const char *path, table *t)
{
    memset(t, 0, sizeof *t);
    static char text[1 << 18];
    slurp_into(path, text, sizeof text);
    if (!text[0])
        return -1;
    const char *p = text;
    for (int r = 0; *p && r <= MAX_ROWS; r++) {
        int c = 0, end = 0;
        while (!end && c < MAX_COLS)
            t->cell[r][c++] = csv_field(&p, &end);
        if (r == 0)
            t->cols = c;
        else if (c != t->cols) {
            fprintf(stderr, "%s: row %d has %d fields, the header %d\n", path, r, c, t->cols);
            test_failures++;
        }
        t->rows = r;
    }
    int *want[] = {&t->matrix, &t->instance, &t->dtype, &t->status, &t->message};
    static const char *const names[] = {"matrix", "instance", "dtype", "status", "message"};
    for (int k = 0; k < 5; k++) {
        *want[k] = -1;
        for (int c = 0; c < t->cols; c++)
            if (strcmp(t->cell[0][c], names[k]) == 0)
                *want[k] = c;
        if (*want[k] < 0) {
            fprintf(stderr, "%s: no column '%s'\n", path, names[k]);
            test_failures++;
            return -1;
        }
    }
    return 0;
}

static const char *cell(const table *t, int r, int c) { return t->cell[r][c] ? t->cell[r][c] : ""; }

/* The row of instance (on any matrix); -1 if none. */
static int row_of(const table *t, const char *instance)
{
    for (int r = 1; r <= t->rows; r++)
        if (strcmp(cell(t, r, t->instance), instance) == 0)
            return r;
    return -1;
}

static void expect_status(const table *t, const char *instance, const char *status, const char *words)
{
    int r = row_of(t, instance);
    if (r < 0) {
        fprintf(stderr, "no row for %s\n", instance);
        test_failures++;
        return;
    }
    if (strcmp(cell(t, r, t->status), status) != 0) {
        fprintf(stderr, "%s: status '%s', expected '%s' (message: %s)\n", instance, cell(t, r, t->status), status,
                cell(t, r, t->message));
        test_failures++;
    }
    if (strcmp(status, "ok") != 0)
        TEST_CHECK(cell(t, r, t->message)[0] != '\0');
    if (words)
        TEST_CONTAINS(cell(t, r, t->message), words);
}

/* Every (matrix, instance, dtype) once; returns the number of cells. */
static int cells_once(const table *t)
{
    for (int a = 1; a <= t->rows; a++)
        for (int b = 1; b < a; b++)
            if (strcmp(cell(t, a, t->matrix), cell(t, b, t->matrix)) == 0 &&
                strcmp(cell(t, a, t->instance), cell(t, b, t->instance)) == 0 &&
                strcmp(cell(t, a, t->dtype), cell(t, b, t->dtype)) == 0) {
                fprintf(stderr, "cell %s / %s / %s appears twice\n", cell(t, a, t->matrix), cell(t, a, t->instance),
                        cell(t, a, t->dtype));
                test_failures++;
            }
    return t->rows;
}

/* ---- the cases ------------------------------------------------------------- */

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
            TEST_CHECK(strcmp(cell(&resumed, 1, c), cell(&cut, 1, c)) == 0);
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
 * rows are on disk. */
static void ctrl_c_keeps_what_was_measured(const char *m1, const char *m2)
{
    char csv[PATH_MAX];
    path_in_tmp(csv, sizeof csv, "interrupted.csv");
    const char *args[] = {"run", "--isolate", "--timeout", "8", "-p", "bad_hang,csr", "--plugin-dir", plugdir,
                          "-o", csv, m1, m2, NULL};
    double t0 = now_s();
    pid_t pid = start(args);
    TEST_CHECK(pid > 0);
    if (pid <= 0)
        return;
    table t = {0};
    int rows = 0, spinning = 0;
    while (!spinning && now_s() - t0 < 40) {
        usleep(50000);
        if (rows < 2 && table_read(csv, &t) == 0) {
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
    outcome o;
    finish(pid, t0, 60, &o);
    TEST_CHECK(now_s() - t1 < 4); /* promptly, not after the hanging child's time limit */
    TEST_CHECK(o.signal == 0 || o.signal == SIGINT);
    if (table_read(csv, &t) == 0) {
        TEST_CHECK(t.rows == 2); /* the first matrix's cells, nothing of the second */
        expect_status(&t, "csr", "ok", NULL);
        expect_status(&t, "bad_hang", "timeout", NULL);
        cells_once(&t);
        table_free(&t);
    }
    /* The same command with --resume measures only the second matrix. */
    const char *rest[] = {"run", "--isolate", "--timeout", "8", "-p", "bad_hang,csr", "--plugin-dir", plugdir,
                          "--resume", csv, m1, m2, NULL};
    run_host(rest, 60, &o);
    if (table_read(csv, &t) == 0) {
        TEST_CHECK(cells_once(&t) == 4);
        table_free(&t);
    }
}

int main(void)
{
    host = getenv("SPMVLAB_HOST");
    plugdir = getenv("SPMVLAB_TEST_PLUGIN_DIR");
    datadir = getenv("SPMVLAB_DATA_DIR");
    if (!host || !plugdir || !datadir) {
        printf("test_isolation: skipped, SPMVLAB_HOST, SPMVLAB_TEST_PLUGIN_DIR or SPMVLAB_DATA_DIR is not set\n");
        return 77;
    }
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    outcome help;
    const char *args[] = {"run", "--help", NULL};
    run_host(args, 30, &help);
    if (!strstr(help.out, "--isolate")) {
        printf("test_isolation: skipped, `spmvlab run --help` does not offer --isolate yet\n");
        return 77;
    }
    char m1[PATH_MAX], m2[PATH_MAX];
    snprintf(m1, sizeof m1, "%s/lp_e226.mtx.gz", datadir);
    snprintf(m2, sizeof m2, "%s/bcspwr10.mtx.gz", datadir);
    isolated_run_records_each_fault_and_completes(m1);
    if (strstr(help.out, "--mem-limit"))
        memory_limit_gives_status_limit(m1);
    else {
        fprintf(stderr, "`spmvlab run --help` does not offer --mem-limit\n");
        test_failures++;
    }
    resume_finishes_a_cut_run_measuring_each_cell_once(m1, m2);
    ctrl_c_keeps_what_was_measured(m1, m2);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return test_done("test_isolation");
}
