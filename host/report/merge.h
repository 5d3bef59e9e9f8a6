/*
 * Merging the result CSVs of shards (spmvlab merge, and the parent of
 * run --devices): one CSV and its summary, refusing what cannot be one
 * run's results.
 */
#ifndef SPMVLAB_HOST_MERGE_H
#define SPMVLAB_HOST_MERGE_H

#include "row.h"

/* What merge_parts does besides merging (flags, or-ed). */
enum {
    MERGE_PRINT = 1,      /* print the summary */
    MERGE_NEW_OUTPUT = 2  /* refuse an existing out that holds a cell no part has (spmvlab merge) */
};

/* Reads parts[0..n) and writes their rows to out (through a temporary file
 * renamed into place) and the summary to OUT-summary.csv. Refused with a
 * sentence naming the files: an output that is one of the parts, with
 * MERGE_NEW_OUTPUT an existing results file holding a cell no part has (a
 * part named where the output belongs), a part with other columns than
 * this version writes, rows of another commit, version, device or
 * measurement setting than the first part's, one instance label with two
 * option sets (origin.h),
 * and a cell (matrix, instance, options, dtype) that appears twice.
 * Returns 0 (rows merged into *nrows, may be NULL), or -1 with the
 * sentence in err (nothing written). */
int merge_parts(const char *out, char *const *parts, int n, int flags, int *nrows, spmvlab_err *err);

#endif
