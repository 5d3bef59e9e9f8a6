/*
 * The JSON document of a run (--json): the version and command, whether
 * it was interrupted, the machine, the settings, every row and the summary.
 */
#ifndef SPMVLAB_HOST_RUN_JSON_H
#define SPMVLAB_HOST_RUN_JSON_H

#include <stdio.h>

#include "machine.h"
#include "run_options.h"
#include "row.h"
#include "summary.h"

/* What one document holds; every member is read only. */
typedef struct run_document {
    const run_meta *meta;
    const run_settings *s;
    const run_rows *rows;
    const run_summary *sum;
    int interrupted;            /* Ctrl-C ended the run early */
} run_document;

/* Writes doc to f and closes f. Returns 0, or -1 with a sentence naming
 * path when writing failed. */
int json_write_run(FILE *f, const char *path, const run_document *doc, spmvlab_err *err);

#endif
