/*
 * Rows that travel between processes (an --isolate child, a run worker and
 * its parent): a row is the records "row,<CSV fields>", "single,<ms>...",
 * "batch,<ms>...", "wall,<ms>" and "end", read one record at a time so a
 * reader can mix them with records of its own.
 */
#ifndef SPMVLAB_HOST_RUN_ANSWER_H
#define SPMVLAB_HOST_RUN_ANSWER_H

#include <stdio.h>

#include "row.h"

/* Writes r (its samples included) as one answer. */
void answer_write(FILE *f, const run_row *r);

/* Reassembles an answer from records. */
typedef struct answer_reader {
    run_row *row;               /* filled as the records come */
    int got_row, bad_row;
    double *single, *batch;
    int ns, nb;
} answer_reader;

void answer_begin(answer_reader *a, run_row *row);
/* Takes one record (v[0..n)). Returns 1 when it was "end" and a whole row
 * arrived (samples moved into the row), -1 at an "end" without a valid row,
 * 0 for a record of the answer that did not end it, 2 for a record that is
 * not part of an answer. */
int answer_take(answer_reader *a, char **v, int n);
/* Frees what a reader holds that did not reach a row. */
void answer_abort(answer_reader *a);

#endif
