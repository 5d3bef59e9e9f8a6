/*
 * The progress line of long runs: one line, redrawn in place, on a
 * terminal only (silent when stdout is not a terminal, so logs and pipes
 * get the table alone). For run: matrices done, cells done, what runs now,
 * elapsed time and an estimate of the rest. For run --devices: a part per
 * worker (cells done of its cells), then the same totals.
 */
#ifndef SPMVLAB_HOST_PROGRESS_H
#define SPMVLAB_HOST_PROGRESS_H

#define PROGRESS_PARTS 64

typedef struct progress_part {
    char name[24];              /* "gpu0", "cpu1" */
    long done, total;           /* cells */
    int finished;
} progress_part;

typedef struct progress_line {
    int enabled;                /* stdout is a terminal */
    int shown;                  /* a line is on the screen */
    double t0;                  /* start, ms */
    int mat_done, mat_total;    /* matrices */
    long cells_done, cells_total;
    char matrix[64];            /* the matrix now running */
    char now[128];              /* "G3_circuit: csr5 timing" */
    int nparts;                 /* workers; 0 for a single process */
    progress_part part[PROGRESS_PARTS];
} progress_line;

/* Starts the clock; nparts workers (0: one process). */
void progress_line_init(progress_line *p, int nparts);
/* A single run's totals: matrices and the cells to measure. */
void progress_line_totals(progress_line *p, int matrices, long cells);
/* The matrix now running (0-based index). */
void progress_line_matrix(progress_line *p, int index, const char *matrix);
/* Callback of run_group (run_engine.h): the instance and phase under way. */
void progress_line_update(void *arg, const char *instance, const char *phase, int done, int total);
/* One cell finished: clears the line (a table row follows) and counts it. */
void progress_line_row(progress_line *p);
/* Worker j's state, for run --devices. */
void progress_line_part(progress_line *p, int j, const char *name, long done, long total, int finished);
/* Draws the line. */
void progress_line_show(progress_line *p);
/* Erases the line before anything else is printed. */
void progress_line_clear(progress_line *p);

#endif
