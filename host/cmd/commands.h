/* The spmvlab commands; each takes its own argv (argv[0] is the command). */
#ifndef SPMVLAB_HOST_COMMANDS_H
#define SPMVLAB_HOST_COMMANDS_H

int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
/* info --device and info --reorder LIST (cmd_info_bounds.c); argv[0] is the flag. */
int cmd_info_device(int argc, char **argv);
int cmd_info_reorder(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_new_plugin(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_select(int argc, char **argv);

/* The exit code rule every command follows (README.md, "Exit codes"). A
 * plugin's clean refusal (limit, unsupported, invalid-option, oom) is not a
 * failure. When a run has both a bad input and a failed cell, 2 wins: the
 * input needs fixing before its results can count. */
enum {
    EXIT_OK = 0,          /* done: every cell ok or refused, every check passed or refused */
    EXIT_FAILED = 1,      /* done, but a cell was wrong or failed, a check failed, or an output could not be written */
    EXIT_USAGE = 2,       /* bad command line, configuration, plugin name or input file */
    EXIT_SKIPPED = 77,    /* nothing to do here (e.g. --gpu without a GPU) */
    EXIT_INTERRUPTED = 130 /* Ctrl-C: the rows written so far are complete */
};

#endif
