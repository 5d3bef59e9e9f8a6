/* The table `spmvlab tune` ends with: per matrix, dtype and instance label
 * the fastest combination of the swept options, with the search's cost. */
#ifndef SPMVLAB_HOST_TUNE_TABLE_H
#define SPMVLAB_HOST_TUNE_TABLE_H

#include <stdio.h>

#include "row.h"

/* Prints the best combination of every group of rows whose tune_best is 1
 * (set by tune_rows), the search time and memory, and the spread between
 * the slowest and the fastest combination that passed. */
void tune_print(FILE *f, const run_rows *rows);

#endif
