/*
 * The exit code rule every command follows (README.md, "Exit codes"). A
 * plugin's clean refusal (limit, unsupported, invalid-option, oom) is not a
 * failure. When a run has both a bad input and a failed cell, 2 wins: the
 * input needs fixing before its results can count.
 */
#ifndef SPMVLAB_HOST_EXIT_CODES_H
#define SPMVLAB_HOST_EXIT_CODES_H

enum {
    EXIT_OK = 0,          /* done: every cell ok or refused, every check passed or refused */
    EXIT_FAILED = 1,      /* done, but a cell was wrong or failed, a check failed, or an output could not be written */
    EXIT_USAGE = 2,       /* bad command line, configuration, plugin name or input file */
    EXIT_SKIPPED = 77,    /* nothing to do here (e.g. --gpu without a GPU) */
    EXIT_INTERRUPTED = 130 /* Ctrl-C: the rows written so far are complete */
};

#endif
