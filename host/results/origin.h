/*
 * What rows from several places must share to be one run's results: the
 * build (commit and version), the device, the measurement settings every
 * row records (ORIGIN_SETTINGS), one option set per instance label and,
 * when a run states them, its dtypes. merge checks its parts against each
 * other, report its files and --resume the file against the run, all
 * through origin_check_rows, so the three refuse the same mixes.
 */
#ifndef SPMVLAB_HOST_RUN_ORIGIN_H
#define SPMVLAB_HOST_RUN_ORIGIN_H

#include "row.h"

/* An instance label and the options it was measured with. */
/* The options of a selector instance, which change from matrix to matrix:
 * its label passes with any option set. Its rows' messages begin with
 * ORIGIN_SELECTED (host/run/run_select.c writes them). */
#define ORIGIN_ANY "*"
#define ORIGIN_SELECTED "select:"

/* The columns of the settings a row is measured with, which one run's rows
 * share (host/run/run_resume.c writes them). --reps and --time-budget-ms
 * are not among them: a row records the rounds it measured, not the cap. */
#define ORIGIN_SETTINGS {"timing", "flush_l2", "warmup", "seed", "noise"}
#define ORIGIN_NSETTINGS 5

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
    char settings[ORIGIN_NSETTINGS][32]; /* each setting's value; "" until a row records it */
    const char *settings_from[ORIGIN_NSETTINGS]; /* where it was first seen (not owned) */
} run_origin;

/* An empty origin: the first rows checked set it. */
void origin_init(run_origin *o);
/* The origin of a run: its build, device and dtypes (a comma list); from
 * names it in the sentences. */
void origin_set_run(run_origin *o, const char *commit, const char *version, const char *device, const char *dtypes,
                    const char *from);
/* The settings of a run, from a row that holds them (run_settings_to_row);
 * an empty column leaves that setting free. */
void origin_set_settings(run_origin *o, const run_row *r, const char *from);
/* Records that label is measured with options by the origin. Returns 0,
 * or -1 out of memory. */
int origin_add_label(run_origin *o, const char *label, const char *options, const char *from);
/* Checks every row of rows, read from the file from, against o (setting
 * what o does not know yet). Returns 0, or -1 with a sentence naming both
 * places and the difference: another commit or version, another device, a
 * dtype the run does not measure, another value of a setting of
 * ORIGIN_SETTINGS (a row that leaves one empty, as an input row or a row
 * of an older version does, agrees with any), or other options under one
 * label. */
int origin_check_rows(run_origin *o, const run_rows *rows, const char *from, spmvlab_err *err);
void origin_free(run_origin *o);

/* Orders rows by their cell: matrix, dtype, instance, options (0: the
 * same cell, which one run measures once). */
int origin_cell_cmp(const run_row *a, const run_row *b);

#endif
