/*
 * What rows from several places must share to be one run's results: the
 * build (commit and version), the device, one option set per instance
 * label and, when a run states them, its dtypes. merge checks its parts
 * against each other and --resume checks the file against the run, both
 * through origin_check_rows, so the two refuse the same mixes.
 */
#ifndef SPMVLAB_HOST_RUN_ORIGIN_H
#define SPMVLAB_HOST_RUN_ORIGIN_H

#include "run_row.h"

/* An instance label and the options it was measured with. */
/* The options of a selector instance, which change from matrix to matrix:
 * its label passes with any option set. Its rows' messages begin with
 * ORIGIN_SELECTED (host/run/run_select.c writes them). */
#define ORIGIN_ANY "*"
#define ORIGIN_SELECTED "select:"

typedef struct origin_label {
    char label[128];
    char options[512];
    const char *from;           /* where it was first seen (not owned) */
} origin_label;

/* The facts the first rows (or the run) set; later rows must agree. */
typedef struct run_origin {
    int known;                  /* commit, version and device are set */
    char commit[48], version[16], device[128];
    const char *from;           /* the file (or "this run") they came from; not owned */
    const char *dtypes;         /* the run's dtypes ("f32,f64"); NULL or "": rows may hold any */
    origin_label *labels;
    int nlabels;
} run_origin;

/* An empty origin: the first rows checked set it. */
void origin_init(run_origin *o);
/* The origin of a run: its build, device and dtypes (a comma list); from
 * names it in the sentences. */
void origin_set_run(run_origin *o, const char *commit, const char *version, const char *device, const char *dtypes,
                    const char *from);
/* Records that label is measured with options by the origin. Returns 0,
 * or -1 out of memory. */
int origin_add_label(run_origin *o, const char *label, const char *options, const char *from);
/* Checks every row of rows, read from the file from, against o (setting
 * what o does not know yet). Returns 0, or -1 with a sentence naming both
 * places and the difference: another commit or version, another device, a
 * dtype the run does not measure, or other options under one label. */
int origin_check_rows(run_origin *o, const run_rows *rows, const char *from, spmvlab_err *err);
void origin_free(run_origin *o);

/* Orders rows by their cell: matrix, dtype, instance, options (0: the
 * same cell, which one run measures once). */
int origin_cell_cmp(const run_row *a, const run_row *b);

#endif
