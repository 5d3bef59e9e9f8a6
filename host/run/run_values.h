/*
 * run's settings that the option engine does not type (run_values.c): one
 * apply function per row of the option table that run keeps outside a
 * member of run_settings (run_options.c), called with the value's
 * text and the INI file it came from (NULL: the command line).
 */
#ifndef SPMVLAB_HOST_RUN_VALUES_H
#define SPMVLAB_HOST_RUN_VALUES_H

#include "run_options.h"

typedef int (*run_apply_fn)(run_settings *s, const char *ini, const char *text, spmvlab_err *err);

int run_apply_dtype(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_reorder(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_seed(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_mem_limit(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_config(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_matrices(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_matrix_set(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_option(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_plugin_dir(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_part(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_shard(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_devices(run_settings *s, const char *ini, const char *text, spmvlab_err *err);
int run_apply_device(run_settings *s, const char *ini, const char *text, spmvlab_err *err);

/* Appends a copy of v to list (at most max, what names them for the
 * sentence). Returns 0, or -1 with a sentence. */
int run_push_str(char **list, int *n, int max, const char *v, const char *what, spmvlab_err *err);

#endif
