/* Small helpers shared by the commands. */
#ifndef SPMVLAB_HOST_UTIL_H
#define SPMVLAB_HOST_UTIL_H

#include "run_row.h"
#include "spmvlab/config.h"
#include "spmvlab/core.h"

/* Loads a matrix file (through the binary cache when available). */
int load_matrix(const char *path, spmvlab_csr *A, spmvlab_err *err);
/* Sorts the registry's plugins by name for listing; then loaded_sorted(i). */
void sort_loaded_by_name(spmvlab_registry *reg);
const spmvlab_loaded *loaded_sorted(spmvlab_registry *reg, int i);
/* Collects matrix files: FILE arguments, and *.mtx / *.mtx.gz in a folder
 * (sorted). Returns the count appended to *paths (grown with realloc). */
int collect_matrices(const char *arg, char ***paths, int *n, spmvlab_err *err);
void free_paths(char **paths, int n);
/* The exit code result rows call for (commands.h): EXIT_FAILED when a row
 * is wrong or failed, else EXIT_OK (refusals are not failures). */
int rows_exit_code(const run_rows *rows);

#endif
