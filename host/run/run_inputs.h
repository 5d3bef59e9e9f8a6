/* Inputs of run: the matrix files (arguments, folders, sets) and, with
 * --resume, the cells already measured. */
#ifndef SPMVLAB_HOST_RUN_INPUTS_H
#define SPMVLAB_HOST_RUN_INPUTS_H

#include "run_options.h"
#include "row.h"
#include "spmvlab/config.h"

/* Collects the matrix files of s (files, archives, folders, lists, then
 * sets, generating set members on demand) into *paths; the same file twice
 * is kept once, two files with one label are refused; with --shard, only
 * matrices with a cell in the shard stay. Returns 0, or -1 with a
 * sentence. */
int inputs_gather(const run_settings *s, char ***paths, int *npaths, spmvlab_err *err);

/* Calls fn for every matrix x dtype of paths that belongs to s's shard,
 * the matrix named by its label with the ordering's suffix (NAME@rcm). */
void inputs_each_cell(const run_settings *s, char *const *paths, int npaths,
                      void (*fn)(void *arg, const char *matrix, spmvlab_dtype d), void *arg);

/* The cells (matrix x dtype x instance) of paths that belong to s's shard,
 * with nspecs instances. */
long inputs_cells(const run_settings *s, char *const *paths, int npaths, int nspecs);

/* The cells (matrix x instance x dtype x options) of resumed rows, sorted. */
typedef struct run_cells {
    char **keys;
    int n;
} run_cells;

/* Fills c from rows. Returns 0, or -1 out of memory. */
int cells_load(run_cells *c, const run_rows *rows, spmvlab_err *err);
/* 1 when the cell of matrix, spec and d is in c. */
int cells_has(const run_cells *c, const char *matrix, const spmvlab_instance_spec *spec, spmvlab_dtype d);
/* 1 when c holds the row of an input of matrix and d no instance ran on. */
int cells_has_input(const run_cells *c, const char *matrix, spmvlab_dtype d);
void cells_free(run_cells *c);

#endif
