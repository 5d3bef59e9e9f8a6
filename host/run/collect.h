/*
 * The matrix files one argument of run names: a matrix file (.mtx,
 * .mtx.gz, a SuiteSparse archive Name.tar.gz, a generated recipe), a folder
 * of them (also in the ssget layout Group/Name/), or a list file (.txt or
 * .list: one path or Group/Name a line, # comments).
 */
#ifndef SPMVLAB_HOST_COLLECT_H
#define SPMVLAB_HOST_COLLECT_H

#include "spmvlab/plugin.h"

/* Appends the files of arg to *paths (folders in name order). Returns how
 * many it added, or -1 with a sentence (a list's sentence names its line). */
int collect_inputs(const char *arg, char ***paths, int *n, spmvlab_err *err);

/* Frees what collect_inputs gathered. */
void free_paths(char **paths, int n);

#endif
