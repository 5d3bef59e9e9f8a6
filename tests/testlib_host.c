/* Running the spmvlab program as a child and reading its CSV; see testlib_host.h. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib_host.h"

extern char **environ;

static const char *host_path, *host_dir;

void host_use(const char *host, const char *dir)
{
    host_path = host;
    host_dir = dir;
}


double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void slurp_into(const char *path, char *buf, size_t len)
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

/* Starts the host with args (NULL-ended), output to <dir>/host.log. */
pid_t host_start(const char *const *args)
{
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/host.log", host_dir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const char *argv[64];
    int n = 0;
    argv[n++] = host_path;
    for (int k = 0; args[k] && n < 63; k++)
        argv[n++] = args[k];
    argv[n] = NULL;
    pid_t pid;
    int rc = posix_spawn(&pid, host_path, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc == 0 ? pid : -1;
}

/* Waits for pid up to limit_s seconds (then kills it); fills o. */
void host_finish(pid_t pid, double t0, double limit_s, outcome *o)
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
    snprintf(log, sizeof log, "%s/host.log", host_dir);
    slurp_into(log, o->out, sizeof o->out);
}

void run_host(const char *const *args, double limit_s, outcome *o)
{
    double t0 = now_s();
    pid_t pid = host_start(args);
    TEST_CHECK(pid > 0);
    if (pid > 0)
        host_finish(pid, t0, limit_s, o);
}

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

void table_free(table *t)
{
    for (int r = 0; r <= t->rows; r++)
        for (int c = 0; c < MAX_COLS; c++)
            free(t->cell[r][c]);
    memset(t, 0, sizeof *t);
}

/* Reads path; returns 0, or -1 when it is missing or malformed. */
int table_read(const char *path, table *t)
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

const char *table_cell(const table *t, int r, int c) { return t->cell[r][c] ? t->cell[r][c] : ""; }

/* The row of instance (on any matrix); -1 if none. */
int row_of(const table *t, const char *instance)
{
    for (int r = 1; r <= t->rows; r++)
        if (strcmp(table_cell(t, r, t->instance), instance) == 0)
            return r;
    return -1;
}

void expect_status(const table *t, const char *instance, const char *status, const char *words)
{
    int r = row_of(t, instance);
    if (r < 0) {
        fprintf(stderr, "no row for %s\n", instance);
        test_failures++;
        return;
    }
    if (strcmp(table_cell(t, r, t->status), status) != 0) {
        fprintf(stderr, "%s: status '%s', expected '%s' (message: %s)\n", instance, table_cell(t, r, t->status), status,
                table_cell(t, r, t->message));
        test_failures++;
    }
    if (strcmp(status, "ok") != 0)
        TEST_CHECK(table_cell(t, r, t->message)[0] != '\0');
    if (words)
        TEST_CONTAINS(table_cell(t, r, t->message), words);
}

/* Every (matrix, instance, dtype) once; returns the number of cells. */
int cells_once(const table *t)
{
    for (int a = 1; a <= t->rows; a++)
        for (int b = 1; b < a; b++)
            if (strcmp(table_cell(t, a, t->matrix), table_cell(t, b, t->matrix)) == 0 &&
                strcmp(table_cell(t, a, t->instance), table_cell(t, b, t->instance)) == 0 &&
                strcmp(table_cell(t, a, t->dtype), table_cell(t, b, t->dtype)) == 0) {
                fprintf(stderr, "cell %s / %s / %s appears twice\n", table_cell(t, a, t->matrix), table_cell(t, a, t->instance),
                        table_cell(t, a, t->dtype));
                test_failures++;
            }
    return t->rows;
}

int host_test_start(const char *name, const char **host, const char **plugdir, const char **datadir, char *tmp,
                    char *m1, char *m2, outcome *help)
{
    *host = getenv("SPMVLAB_HOST");
    *plugdir = getenv("SPMVLAB_TEST_PLUGIN_DIR");
    *datadir = getenv("SPMVLAB_DATA_DIR");
    if (!*host || !*plugdir || !*datadir) {
        printf("%s: skipped, SPMVLAB_HOST, SPMVLAB_TEST_PLUGIN_DIR or SPMVLAB_DATA_DIR is not set\n", name);
        return 77;
    }
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    host_use(*host, tmp);
    const char *args[] = {"run", "--help", NULL};
    run_host(args, 30, help);
    if (!strstr(help->out, "--isolate")) {
        printf("%s: skipped, `spmvlab run --help` does not offer --isolate yet\n", name);
        return 77;
    }
    snprintf(m1, PATH_MAX, "%s/lp_e226.mtx.gz", *datadir);
    snprintf(m2, PATH_MAX, "%s/bcspwr10.mtx.gz", *datadir);
    return 0;
}
