/*
 * What the plot writers share (report_plot.c: profile, GFLOP/s, speedup;
 * report_heatmap.c: heatmap and bound plot): one dtype's cells, gnuplot
 * quoting, the two image terminals and the line styles.
 */
#ifndef SPMVLAB_HOST_REPORT_PLOT_VIEW_H
#define SPMVLAB_HOST_REPORT_PLOT_VIEW_H

#include <stdio.h>

#include "run_row.h"

/* Instances and matrices of one dtype, and the latest row of each cell. */
typedef struct dt_view {
    const char *dtype;
    const char **inst;
    int ni;
    const char **mat;     /* by non-zeros */
    double *nnz;
    int nm;
    const run_row **cell; /* nm x ni, NULL where none */
} dt_view;

/* 1 when r is ok with a time. */
int ok_time(const run_row *r);
/* Writes s as a gnuplot single-quoted string. */
void gp_quote(FILE *f, const char *s);
/* Opens DIR/NAME-DTYPE.EXT for writing; path gets its name. NULL with a sentence. */
FILE *open_in(const char *dir, const char *name, const char *dtype, const char *ext, char *path, size_t len,
              spmvlab_err *err);
/* Draws body once as SVG and once as PNG (DIR/NAME-DTYPE.svg, .png), 1000 x 640 or the size given. */
void gp_outputs(FILE *f, const char *dir, const char *name, const char *dtype, const char *body);
void gp_outputs_sized(FILE *f, const char *dir, const char *name, const char *dtype, const char *body, int width,
                      int height);

/* Line types 1..36: 12 colours x 3 point shapes and dash patterns, so that
 * 36 instances stay apart in every plot. */
void gp_linetypes(FILE *f);

/* heatmap-DT.dat and bound-DT.dat. Return 0, or -1 with a sentence. */
int write_heatmap_data(const dt_view *v, const char *dir, spmvlab_err *err);
int write_bound_data(const dt_view *v, const char *dir, spmvlab_err *err);
/* Their plots, appended to the script f. */
void write_heatmap_plot(FILE *f, const dt_view *v, const char *dir, const char *title, const char *baseline);
void write_bound_plot(FILE *f, const dt_view *v, const char *dir, const char *title);

#endif
