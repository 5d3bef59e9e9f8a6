/*
 * Worker processes of run --devices; see workers.h. The workers are the
 * spmvlab binary itself (/proc/self/exe), so a worker is exactly a
 * `spmvlab run --shard k/N --device d` a user could start by hand; the
 * parent only splits, watches and merges. A worker's shard refines the
 * parent's: with --shard k/N and M workers, worker j runs shard k + N*j of
 * N*M, which holds exactly the cells of k/N that fall to it.
 */
#define _GNU_SOURCE
#include <cuda_runtime.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exit_codes.h"
#include "devices.h"
#include "merge.h"
#include "output_file.h"
#include "progress.h"
#include "run_inputs.h"
#include "summary.h"
#include "spmvlab/core.h"
#include "workers.h"


typedef struct worker {
    pid_t pid;
    char device[16];            /* "0", "1", ... or "cpu" */
    int shard;                  /* index among count * nworkers */
    char part[4200], log[4200];
    char partial[4300];         /* part + ".partial": the rows of a worker that did not finish */
    long cells;                 /* rows it is to write */
    int status;                 /* exit code; -1 while running */
} worker;

/* Starts one worker: run's arguments without the ones the parent decides
 * (outputs, shard, devices), then this worker's. */
static int start(const run_settings *s, worker *w, int count, int argc, char **argv, spmvlab_err *err)
{
    static const char *const own[] = {"-o", "--output", "--json", "--resume", "--shard", "--devices", "--device"};
    char **args = calloc((size_t)argc + 16, sizeof *args), shard[48], exe[4096];
    if (!args)
        return spmvlab_errf(err, "out of host memory"), -1;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        free(args);
        return spmvlab_errf(err, "cannot find the spmvlab binary (/proc/self/exe): %s", strerror(errno)), -1;
    }
    exe[n] = '\0';
    int m = 0;
    args[m++] = "spmvlab";
    args[m++] = argv[0];
    for (int i = 1; i < argc; i++) {
        int skip = 0;
        for (size_t k = 0; k < sizeof own / sizeof *own; k++)
            skip |= strcmp(argv[i], own[k]) == 0;
        int values = run_flag_values(argv[i]);
        if (!skip)
            args[m++] = argv[i];
        if (values == 1 && i + 1 < argc) {
            if (!skip)
                args[m++] = argv[i + 1];
            i++;
        }
    }
    snprintf(shard, sizeof shard, "%d/%d", w->shard, count);
    const char *tail[] = {"--shard", shard, "--device", w->device, "--devices", "", "--json", "",
                          s->resume[0] ? "--resume" : "-o", w->part};
    for (size_t k = 0; k < sizeof tail / sizeof *tail; k++)
        args[m++] = (char *)tail[k];
    args[m] = NULL;
    int fd = open(w->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        free(args);
        return spmvlab_errf(err, "cannot write %s: %s", w->log, strerror(errno)), -1;
    }
    fflush(NULL);
    w->pid = fork();
    if (w->pid == 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        execv(exe, args);
        _exit(127);
    }
    close(fd);
    free(args);
    w->status = -1;
    if (w->pid < 0)
        return spmvlab_errf(err, "cannot start a worker: %s", strerror(errno)), -1;
    return 0;
}

/* Rows in a part so far (lines after the header): the worker writes them
 * to PART.partial until it ends. */
static long rows_written(const char *part)
{
    char pp[4300];
    output_partial(part, pp, sizeof pp);
    FILE *f = fopen(pp, "r");
    if (!f)
        f = fopen(part, "r");
    if (!f)
        return 0;
    long lines = 0;
    char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < got; i++)
            lines += buf[i] == '\n';
    fclose(f);
    return lines > 0 ? lines - 1 : 0;
}

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1; /* the workers, in this process group, stop on their own */
}

/* The worst exit code: a usage error, then a failure, then success. */
static int worse(int a, int b)
{
    static const int rank[] = {EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE};
    int ra = 3, rb = 3;
    for (int k = 0; k < 4; k++) {
        ra = rank[k] == a ? k : ra;
        rb = rank[k] == b ? k : rb;
    }
    return ra >= rb ? a : b;
}

static void show_log_tail(const worker *w)
{
    FILE *f = fopen(w->log, "r");
    char lines[4][512] = {{0}};
    int n = 0;
    while (f && fgets(lines[n % 4], sizeof lines[0], f))
        n++;
    for (int i = n > 4 ? n - 4 : 0; i < n; i++)
        fprintf(stderr, "  | %s", lines[i % 4]);
    if (f)
        fclose(f);
}

/* Orders rows by matrix label, then dtype. */
static int by_matrix_dtype(const void *a, const void *b)
{
    const run_row *x = *(const run_row *const *)a, *y = *(const run_row *const *)b;
    int c = strcmp(x->matrix, y->matrix);
    return c ? c : strcmp(x->dtype, y->dtype);
}

/* 1 when sorted[0..n) (by_matrix_dtype) holds a row of matrix label and dtype. */
static int has_row(run_row *const *sorted, int n, const char *label, const char *dtype)
{
    run_row key;
    const run_row *k = &key;
    snprintf(key.matrix, sizeof key.matrix, "%.*s", (int)sizeof key.matrix - 1, label);
    snprintf(key.dtype, sizeof key.dtype, "%s", dtype);
    return bsearch(&k, sorted, (size_t)n, sizeof *sorted, by_matrix_dtype) != NULL;
}

/* The cells owed without a row, as count_missing walks them. */
typedef struct missing_cells {
    run_row *const *sorted; /* the output's rows, by_matrix_dtype */
    int nrows;
    int owed, missing;
    char names[512];        /* the first five missing, for the sentence */
    size_t used;
} missing_cells;

/* inputs_each_cell's visitor: counts a cell owed, and one without a row. */
static void note_cell(void *arg, const char *matrix, spmvlab_dtype d)
{
    missing_cells *mc = arg;
    mc->owed++;
    if (has_row(mc->sorted, mc->nrows, matrix, spmvlab_dtype_name(d)))
        return;
    if (mc->missing++ < 5 && mc->used < sizeof mc->names)
        mc->used += (size_t)snprintf(mc->names + mc->used, sizeof mc->names - mc->used, "%s%s (%s)",
                                     mc->missing > 1 ? ", " : "", matrix, spmvlab_dtype_name(d));
}

/* Every matrix x dtype this process's shard owes must have a row in the
 * merged output: a worker that ended early must not leave a matrix out
 * without a word. Names the missing ones on stderr; returns their count
 * (-1 when the output cannot be read back). */
static int count_missing(const run_settings *s, char **paths, int npaths, const char *dir)
{
    run_rows rows = {0};
    spmvlab_err err;
    if (run_rows_read(s->output, &rows, NULL, &err)) {
        fprintf(stderr, "%s: cannot read back %s to check it: %s.\n", s->prog, s->output, err.msg);
        return -1;
    }
    run_row **sorted = malloc((rows.n ? (size_t)rows.n : 1) * sizeof *sorted);
    if (!sorted) {
        run_rows_free(&rows);
        fprintf(stderr, "%s: out of host memory checking %s.\n", s->prog, s->output);
        return -1;
    }
    for (int i = 0; i < rows.n; i++)
        sorted[i] = &rows.v[i];
    qsort(sorted, (size_t)rows.n, sizeof *sorted, by_matrix_dtype);
    missing_cells mc = {sorted, rows.n, 0, 0, "", 0};
    inputs_each_cell(s, paths, npaths, note_cell, &mc);
    free(sorted);
    run_rows_free(&rows);
    if (mc.missing)
        fprintf(stderr, "%s: %d of %d matrix x dtype cells have no row in %s, as a worker ended before them: "
                "%s%s; the workers' logs are in %s/, and --resume %s measures them.\n", s->prog, mc.missing,
                mc.owed, s->output, mc.names, mc.missing > 5 ? ", ..." : "", dir, s->output);
    return mc.missing;
}

int workers_run(const run_settings *s, char **paths, int npaths, int nspecs, int argc, char **argv)
{
    spmvlab_err err;
    char dev[MAX_WORKERS][16], dir[4100];
    int nw = devices_parse(s->devices, dev, &err);
    if (nw > 0 && (!s->output[0] || s->json[0]))
        nw = (spmvlab_errf(&err, "--devices writes one CSV part per worker and merges them: give -o OUT.csv "
                           "(or --resume OUT.csv), and no JSON output"), -1);
    snprintf(dir, sizeof dir, "%.4000s.parts", s->output);
    if (nw < 0) {
        fprintf(stderr, "%s: %s.\n", s->prog, err.msg);
        return EXIT_USAGE;
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) { /* an output that cannot be written */
        fprintf(stderr, "%s: cannot write %s: its parts folder %s cannot be created: %s.\n", s->prog, s->output, dir,
                strerror(errno));
        return EXIT_FAILED;
    }
    int count = s->shard_count * nw, rc = EXIT_OK, running = 0;
    worker w[MAX_WORKERS];
    memset(w, 0, sizeof w);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    progress_line bar;
    progress_line_init(&bar, nw);
    for (int j = 0; j < nw; j++) {
        w[j].shard = s->shard_index + s->shard_count * j;
        memcpy(w[j].device, dev[j], sizeof w[j].device);
        snprintf(w[j].part, sizeof w[j].part, "%s/part-%d-of-%d.csv", dir, w[j].shard, count);
        snprintf(w[j].log, sizeof w[j].log, "%s/part-%d-of-%d.log", dir, w[j].shard, count);
        run_settings mine = *s; /* the worker's shard of the count */
        mine.shard_index = w[j].shard;
        mine.shard_count = count;
        w[j].cells = inputs_cells(&mine, paths, npaths, nspecs);
        if (start(s, &w[j], count, argc, argv, &err)) {
            fprintf(stderr, "%s: %s.\n", s->prog, err.msg);
            w[j].status = EXIT_FAILED;
            rc = EXIT_FAILED;
            continue;
        }
        running++;
    }
    while (running > 0) {
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);
        for (int j = 0; pid > 0 && j < nw; j++)
            if (w[j].pid == pid && w[j].status < 0) {
                w[j].status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                running--;
            }
        if (pid > 0)
            continue;
        for (int j = 0; j < nw; j++) {
            char name[24];
            if (strcmp(w[j].device, "cpu") == 0)
                snprintf(name, sizeof name, "cpu%d", j);
            else
                snprintf(name, sizeof name, "gpu%s", w[j].device);
            progress_line_part(&bar, j, name, rows_written(w[j].part), w[j].cells, w[j].status >= 0);
        }
        progress_line_show(&bar);
        struct timespec pause = {0, 200 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    progress_line_clear(&bar);
    sigaction(SIGINT, &old, NULL);
    char *parts[MAX_WORKERS];
    int nparts = 0;
    for (int j = 0; j < nw; j++) {
        if (w[j].status != EXIT_OK && w[j].status != EXIT_FAILED) {
            fprintf(stderr, "%s: worker %d (device %s, shard %d/%d) exited with status %d; its log, %s, ends:\n",
                    s->prog, j, w[j].device, w[j].shard, count, w[j].status, w[j].log);
            show_log_tail(&w[j]);
        }
        rc = worse(rc, w[j].status == 0 || w[j].status == 1 || w[j].status == 2 || w[j].status == EXIT_INTERRUPTED
                           ? w[j].status : EXIT_FAILED);
        /* A worker that did not finish left its rows in PART.partial; a PART
         * beside it is an earlier run's. */
        output_partial(w[j].part, w[j].partial, sizeof w[j].partial);
        if (access(w[j].partial, R_OK) == 0)
            parts[nparts++] = w[j].partial;
        else if (access(w[j].part, R_OK) == 0)
            parts[nparts++] = w[j].part;
    }
    if (interrupted) {
        fprintf(stderr, "%s: interrupted; %s is as it was, the rows measured so far are in %s/ (--resume %s "
                "continues).\n", s->prog, s->output, dir, s->output);
        return EXIT_INTERRUPTED;
    }
    int rows = 0;
    if (!nparts || rc == EXIT_USAGE) {
        fprintf(stderr, "%s: the workers wrote no results to merge.\n", s->prog);
        return EXIT_USAGE;
    }
    if (merge_parts(s->output, parts, nparts, MERGE_PRINT, &rows, &err)) {
        fprintf(stderr, "%s: %s.\n", s->prog, err.msg);
        return EXIT_USAGE;
    }
    char sp[4300];
    summary_path(s->output, sp, sizeof sp);
    printf("\nresults: %s (%d rows from %d workers); summary: %s; parts and logs: %s/\n", s->output, rows, nw, sp,
           dir);
    if (count_missing(s, paths, npaths, dir) != 0)
        rc = worse(rc, EXIT_FAILED);
    return rc;
}
