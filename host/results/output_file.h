/*
 * Result files that are never lost: a run writes each output (the CSV, the
 * summary CSV, the JSON) to NAME.partial beside NAME and renames it onto
 * NAME when the run ends, so an interrupted run leaves the earlier NAME
 * whole and the rows it measured in NAME.partial, where --resume finds
 * them.
 */
#ifndef SPMVLAB_HOST_OUTPUT_FILE_H
#define SPMVLAB_HOST_OUTPUT_FILE_H

#include <stdio.h>

#include "row.h"

/* path followed by ".partial", into out. */
void output_partial(const char *path, char *out, size_t len);

/* The rows of a run to resume: those of path and, when path.partial exists,
 * those an interrupted run left there (a cell in both is kept once). A
 * missing or empty path holds none. *partial_rows is set to the rows only
 * path.partial held, or -1 when there is none. Returns 0, or -1 with a
 * sentence (unreadable, or written with other columns). */
int resume_rows_read(const char *path, run_rows *rows, int *partial_rows, spmvlab_err *err);

/* Refuses to start afresh over the rows of an interrupted run: returns -1
 * with a sentence when path.partial holds rows (--resume takes them), else
 * 0. */
int csv_partial_unused(const char *path, spmvlab_err *err);

/* Starts the CSV of a run in path.partial: the header, then kept's rows
 * (those resumed), pushed to the disk. Returns the stream, open for
 * appending, or NULL with a sentence naming path (not the files beside
 * it) and why it cannot be written. */
FILE *csv_begin(const char *path, const run_rows *kept, spmvlab_err *err);

/* Opens path.partial for writing (a document written at the end of the
 * run). Returns the stream, or NULL with a sentence naming path. */
FILE *output_begin(const char *path, spmvlab_err *err);

/* Renames path.partial onto path for each of the n paths ("" is skipped).
 * Returns 0, or -1 with a sentence naming the first that failed. */
int outputs_commit(const char *const *paths, int n, spmvlab_err *err);

#endif
