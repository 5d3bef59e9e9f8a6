/*
 * Where run keeps each setting (run_values.c): a member of run_settings,
 * or the value through a function for what the option parser does not
 * type (lists, byte counts, the 64-bit seed, shards, devices).
 */
#ifndef SPMVLAB_HOST_RUN_VALUES_H
#define SPMVLAB_HOST_RUN_VALUES_H

#include "run_settings.h"
#include "spmvlab/flags.h"

/* Puts one use of a row of the option table into s: the member of
 * run_settings it names, or the value through the row's apply function
 * (u->file: the INI file it came from, NULL: the command line). Returns
 * 0, or -1 with a sentence naming the flag or file:line. */
int run_store(run_settings *s, const spmvlab_flag_use *u, spmvlab_err *err);
/* Every row's default, as the table writes it. Returns 0 or -1. */
int run_store_defaults(run_settings *s, spmvlab_err *err);

/* Appends a copy of v to list (at most max, what names them for the
 * sentence). Returns 0, or -1 with a sentence. */
int run_push_str(char **list, int *n, int max, const char *v, const char *what, spmvlab_err *err);

#endif
