/* Plots of a results table with gnuplot, per comparison group (a dtype, and
 * apart the instances storing values in another type): performance
 * profile, GFLOP/s against non-zeros, sorted speedups, box plots of
 * speedups, speedup per matrix (binned past a few dozen matrices), the
 * heatmap and the bound plot; each as SVG, PNG and PDF, with the data files
 * and one gnuplot script beside them that runs from any folder. */
#ifndef SPMVLAB_HOST_REPORT_PLOT_H
#define SPMVLAB_HOST_REPORT_PLOT_H

#include "report_plot_view.h"
#include "row.h"
#include "summary.h"

/* Finds gnuplot: $SPMVLAB_GNUPLOT, else gnuplot on PATH. Returns 0 with
 * the path in out, or -1. */
int report_find_gnuplot(char *out, size_t len);

/* Checks style's highlight list against the summary's instances. Returns
 * 0, or -1 with a sentence (an unknown instance, more than 8). */
int report_check_highlight(const run_summary *sum, const report_style *style, spmvlab_err *err);

/* Writes the data, the script and, when gnuplot is given (not NULL), the
 * plots of every group into dir; style NULL: REPORT_STYLE_DEFAULT.
 * Returns the number of image files written, or -1 with a sentence. */
int report_plots(const run_rows *rows, const run_summary *sum, const char *dir, const char *gnuplot,
                 const report_style *style, spmvlab_err *err);

#endif
