/*
 * Helpers for the test programs that start the spmvlab program as a child
 * (posix_spawn, a time limit, its output kept) and read the CSV it writes
 * by its header: columns matrix, instance, dtype, status and message.
 */
#ifndef SPMVLAB_TESTLIB_HOST_H
#define SPMVLAB_TESTLIB_HOST_H

#include <sys/types.h>

#include "testlib.h"

#define MAX_ROWS 64
#define MAX_COLS 128

/* How one run of the program ended. */
typedef struct outcome {
    int exited, code, signal; /* how it ended */
    double seconds;
    char out[1 << 16];        /* stdout and stderr together (the tail when longer) */
} outcome;

/* A CSV read whole: the header gives the column numbers. */
typedef struct table {
    int rows, cols;              /* rows without the header */
    char *cell[MAX_ROWS + 1][MAX_COLS];
    int matrix, instance, dtype, status, message; /* column numbers, -1 if absent */
} table;

/* The program to start and the folder its output goes to (host.log). */
void host_use(const char *host, const char *dir);

/* The start of a test that runs the host on bundled matrices: reads
 * SPMVLAB_HOST, SPMVLAB_TEST_PLUGIN_DIR and SPMVLAB_DATA_DIR into the
 * pointers, makes the scratch folder tmp (a mkdtemp template), checks that
 * `run` offers --isolate and writes lp_e226 and bcspwr10's paths into m1
 * and m2 (PATH_MAX each); help gets `run --help`. Returns 0, 77 (skip,
 * said why) or 1. */
int host_test_start(const char *name, const char **host, const char **plugdir, const char **datadir, char *tmp,
                    char *m1, char *m2, outcome *help);
/* The tail of a file that fits len - 1 bytes, NUL-terminated (empty when unreadable). */
void slurp_into(const char *path, char *buf, size_t len);
/* Monotonic seconds. */
double now_s(void);
/* Starts the program with args (NULL-ended); the pid, or -1. */
pid_t host_start(const char *const *args);
/* Waits for pid up to limit_s seconds after t0 (then kills it, a failed
 * check); fills o with the ending and the output's tail. */
void host_finish(pid_t pid, double t0, double limit_s, outcome *o);
/* host_start and host_finish in one. */
void run_host(const char *const *args, double limit_s, outcome *o);

/* Reads path into t. Returns 0, or -1 when unreadable or without the columns. */
int table_read(const char *path, table *t);
void table_free(table *t);
/* The field at row r (1-based after the header), column c; "" when absent. */
const char *table_cell(const table *t, int r, int c);
/* The row of instance, or -1. */
int row_of(const table *t, const char *instance);
/* Checks that instance's row has status (and words in its message, when not NULL). */
void expect_status(const table *t, const char *instance, const char *status, const char *words);
/* Number of (matrix, instance, dtype) cells, or -1 when one appears twice. */
int cells_once(const table *t);

#endif
