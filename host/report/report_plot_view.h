/*
 * What the plot writers share (report_plot.c: profile, scatter, sorted
 * speedups, box plots, speedup per matrix; report_heatmap.c: heatmap and
 * bound plot): one comparison group's cells, the highlighted instances,
 * gnuplot quoting, the three image terminals and the line styles.
 */
#ifndef SPMVLAB_HOST_REPORT_PLOT_VIEW_H
#define SPMVLAB_HOST_REPORT_PLOT_VIEW_H

#include <stdio.h>

#include "row.h"
#include "spmvlab/core.h"

/* How the figures look. */
typedef struct report_style {
    int width, height;     /* PNG and SVG size in pixels; the PDF's in inches is a hundredth of it */
    double font;           /* font size in points */
    const char *highlight; /* comma-separated instances drawn in colour (at most 8); NULL or "": the
                              baseline and the instances with the largest performance profile */
} report_style;

#define REPORT_STYLE_DEFAULT {1000, 640, 11, NULL}

/* Up to this many matrices a per-matrix view names every matrix; past it
 * the view is sorted or binned instead. */
#define VIEW_LABELS_MAX 40
/* Instances drawn in colour; the others are grey. */
#define VIEW_HIGHLIGHT_MAX 8

/* Instances and matrices of one comparison group (summary_group_of), and
 * the latest row of each cell. */
typedef struct dt_view {
    const char *dtype;    /* the group: f64, or f64/f32 */
    char file[8];         /* the group as a file-name part: f64, f64-f32 */
    const char **inst;
    int ni;
    const char **mat;     /* by non-zeros */
    double *nnz;
    int nm;
    const run_row **cell; /* nm x ni, NULL where none */
    int hl[VIEW_HIGHLIGHT_MAX]; /* the highlighted instances (indices into inst), in legend order */
    int nhl;
    int base;             /* index of the baseline in inst, or -1 */
    const report_style *style;
    const char *title;    /* the device */
    const char *baseline;
} dt_view;

/* 1 when r is ok with a time. */
int ok_time(const run_row *r);
/* 1 when r is ok with a speedup. */
int ok_speedup(const run_row *r);
/* Slot of instance k among the highlighted ones, or -1 (drawn grey). */
int view_slot(const dt_view *v, int k);
/* Writes s as a gnuplot single-quoted string. */
void gp_quote(FILE *f, const char *s);
/* Opens DIR/NAME-GROUP.EXT for writing; name gets its file name without
 * the folder (the script refers to it so). NULL with a sentence. */
FILE *open_in(const char *dir, const char *name, const dt_view *v, const char *ext, char *fname, size_t len,
              spmvlab_err *err);
/* Draws body as SVG, PNG and PDF (NAME-GROUP.svg, .png, .pdf beside the
 * script), at the style's size times wscale, hscale. */
void gp_outputs(FILE *f, const dt_view *v, const char *name, const char *body, double wscale, double hscale);
/* Line types 1..8: the highlighted instances (colour, open marker, dash);
 * 9: grey, for the others. */
void gp_linetypes(FILE *f);
/* A logarithmic speedup axis (axis "x" or "y") for values in [lo, hi]:
 * powers of two labelled 1/4, 1/2, 1, 2, 4 over a small range, decades
 * past it, so that no tick reads 0.0078125. */
void gp_speedup_axis(FILE *f, const char *axis, double lo, double hi);
/* The non-zeros axis: log scale with tics 1k, 10k, ... */
void gp_nnz_axis(FILE *f, const char *axis);
/* Smallest and largest speedup of the view's timed cells (1, 1 when none). */
void view_speedup_range(const dt_view *v, double *lo, double *hi);

#endif
