/*
 * The worker processes of one run; see run_state.h. This process never
 * initialises CUDA: a sticky CUDA error (a plugin writing out of bounds on
 * the device) poisons the context of the process it happens in, so the
 * measuring happens in a worker that can be replaced. Without a fault the
 * cost is one process for the whole run, never one per cell.
 *
 * The worker sends, besides rows (run_answer.h): "matrix,<index>" and
 * "group,<dtype>" as it starts them, "step" as a plugin call begins (the
 * watchdog's heartbeat), "ref" before the device-fault row of a baseline
 * that was measured only as the reference, "input-error" and "abandoned".
 * Each line is flushed as it is written: a worker that dies must have told
 * which matrix it was on, or the wrong matrix is blamed.
 *
 * The watchdog: after a "step", the worker must send another line within
 * --timeout seconds, or it is killed and the matrix under way runs one
 * child per cell (each with the same timeout), as after a crash. Loading a
 * matrix, computing its reference and choosing a selector's instance are
 * not plugin calls and are not timed.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exit_codes.h"
#include "run_answer.h"
#include "run_state.h"
#include "status.h"

static int worker_main(run_state *st)
{
    int rc = run_open_device(st);
    if (rc)
        return rc;
    for (int i = st->first_path; i < st->npaths && !run_stop_flag; i++) {
        fprintf(st->sink, "matrix,%d\n", i);
        fflush(st->sink);
        run_matrix(st, i);
    }
    return 0;
}

/* ---- the watchdog ------------------------------------------------------ */

static volatile sig_atomic_t watched;   /* the pid of the worker under way, or 0 */
static volatile sig_atomic_t watchdog_fired;

static void on_watchdog(int sig)
{
    (void)sig;
    if (watched > 0) {
        kill(watched, SIGKILL);
        watchdog_fired = 1;
    }
}

/* Arms the watchdog for seconds (0: disarms it). */
static void watchdog_set(double seconds)
{
    struct itimerval t = {{0, 0}, {0, 0}};
    if (seconds > 0) {
        t.it_value.tv_sec = (time_t)seconds;
        t.it_value.tv_usec = (suseconds_t)((seconds - (double)t.it_value.tv_sec) * 1e6);
        if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0)
            t.it_value.tv_usec = 1;
    }
    setitimer(ITIMER_REAL, &t, NULL);
}

/* What a worker reported, as the parent reads it. */
typedef struct worker_view {
    int matrix;                 /* the matrix under way, or -1 */
    int in_group;               /* a group had started on it */
    int ref;                    /* the next row is a baseline's fault */
    int rows;
    int hung;                   /* the watchdog killed it */
} worker_view;

/* The cells not to run again: every row taken, every fault. */
static int refresh_cells(run_state *st, spmvlab_err *err)
{
    cells_free(&st->done);
    cells_free(&st->excluded);
    if (cells_load(&st->done, &st->rows, err) || cells_load(&st->excluded, &st->faults, err))
        return -1;
    return 0;
}

static void take_row(run_state *st, worker_view *w, run_row *row)
{
    if (strcmp(row->status, "device-fault") == 0 && run_rows_push(&st->faults, row))
        fprintf(stderr, "%s: out of host memory for the fault of %s.\n", st->s.prog, row->instance);
    if (!w->ref) {
        st->prog.cells_done++;
        run_take_row(st, row, 0);
    }
    w->ref = 0;
    w->rows++;
}

/* Reads the worker's records until it closes the pipe. */
static void read_worker(run_state *st, FILE *in, worker_view *w)
{
    char **v = NULL;
    int n = 0, lines = 0;
    run_row row;
    answer_reader a;
    run_row_init(&row);
    answer_begin(&a, &row);
    while (csv_read_record(in, &v, &n, &lines) == 1) {
        /* any line is progress; a plugin call under way is timed */
        watchdog_set(n == 1 && strcmp(v[0], "step") == 0 ? st->s.timeout_s : 0);
        int t = answer_take(&a, v, n);
        if (t == 1) {
            take_row(st, w, &row);
            run_row_clear(&row);
            run_row_init(&row);
            answer_begin(&a, &row);
        } else if (t == -1) {
            answer_begin(&a, &row);
        } else if (t == 2 && n >= 1) {
            if (n == 2 && strcmp(v[0], "matrix") == 0)
                w->matrix = atoi(v[1]), w->in_group = 0;
            else if (strcmp(v[0], "group") == 0)
                w->in_group = 1;
            else if (strcmp(v[0], "ref") == 0)
                w->ref = 1;
            else if (strcmp(v[0], "input-error") == 0)
                st->input_errors++;
            else if (strcmp(v[0], "abandoned") == 0)
                st->abandoned++;
        }
        csv_free_record(v, n);
        v = NULL;
    }
    watchdog_set(0);
    answer_abort(&a);
    run_row_clear(&row);
}

/* Starts a worker and takes its rows; returns its wait status, or -1. */
static int run_worker(run_state *st, worker_view *w)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        st->sink = fdopen(fd[1], "w");
        int rc = st->sink ? worker_main(st) : EXIT_FAILED;
        fflush(NULL);
        _exit(rc);
    }
    close(fd[1]);
    watchdog_fired = 0;
    watched = pid;
    FILE *in = fdopen(fd[0], "r");
    if (in) {
        read_worker(st, in, w);
        fclose(in);
    } else {
        close(fd[0]);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    watched = 0;
    w->hung = watchdog_fired;
    return status;
}

static void describe_end(const run_state *st, const worker_view *w, int status, char *buf, size_t len)
{
    if (w->hung)
        snprintf(buf, len, "was killed after %g s without progress in a plugin call (one that does not return?)",
                 st->s.timeout_s);
    else if (WIFSIGNALED(status))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(buf, len, "exited with code %d", WEXITSTATUS(status));
}

/* The worker loop of run_supervise, with the watchdog's handler in place. */
static int supervise_workers(run_state *st)
{
    spmvlab_err err = {{0}};
    for (;;) {
        if (refresh_cells(st, &err)) {
            fprintf(stderr, "%s: %s.\n", st->s.prog, err.msg);
            return EXIT_FAILED;
        }
        worker_view w = {.matrix = -1};
        int status = run_worker(st, &w);
        if (status < 0) {
            fprintf(stderr, "%s: cannot start a worker process: %s.\n", st->s.prog, strerror(errno));
            return EXIT_FAILED;
        }
        if (run_stop_flag)
            return 0;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            return 0;
        if (WIFEXITED(status) && WEXITSTATUS(status) == RUN_WORKER_FAULTED && w.rows > 0) {
            st->first_path = w.matrix; /* the same matrix: its other cells run again */
            continue;
        }
        char how[128];
        describe_end(st, &w, status, how, sizeof how);
        if (w.matrix < 0) {
            fprintf(stderr, "%s: the worker process %s before its first matrix.\n", st->s.prog, how);
            return EXIT_FAILED;
        }
        /* Died with no fault pinned: the cells of that matrix go one to a
         * child, which names the culprit; the next worker starts after it. */
        fprintf(stderr, "%s: the worker process %s on %s; its cells there run one child each.\n", st->s.prog, how,
                st->paths[w.matrix]);
        if (refresh_cells(st, &err))
            return EXIT_FAILED;
        st->isolate_now = 1;
        run_matrix(st, w.matrix);
        st->isolate_now = 0;
        st->first_path = w.matrix + 1;
        if (run_stop_flag)
            return 0;
    }
}

int run_supervise(run_state *st)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_watchdog;
    sa.sa_flags = SA_RESTART; /* the pipe's reads go on; the worker's end closes it */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    int rc = supervise_workers(st);
    watchdog_set(0);
    sigaction(SIGALRM, &old, NULL);
    return rc;
}
