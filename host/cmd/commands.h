/* The spmvlab commands; each takes its own argv (argv[0] is the command). */
#ifndef SPMVLAB_HOST_COMMANDS_H
#define SPMVLAB_HOST_COMMANDS_H

int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
/* info --ceilings [--remeasure], info --reorder LIST INPUT... and the walk
 * of info's inputs (cmd_info_bounds.c). */
int cmd_info_device(int remeasure);
int cmd_info_reorder(const char *list, const char *const *inputs, int n);
/* Calls each(path, arg) for every matrix file of info's inputs (files,
 * folders, archives, list files), saying why an input has none. Returns
 * EXIT_OK, or EXIT_USAGE when an input or a call (non-zero) failed. */
int info_each_matrix(const char *const *inputs, int n, int (*each)(const char *path, void *arg), void *arg);
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_new_plugin(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_select(int argc, char **argv);

#include "exit_codes.h"

#endif
