/* Plots of a results table with gnuplot: performance profile, GFLOP/s
 * against nnz per instance, speedup over the baseline per matrix; each as
 * SVG and PNG, with the data files and the gnuplot script beside them. */
#ifndef SPMVLAB_HOST_REPORT_PLOT_H
#define SPMVLAB_HOST_REPORT_PLOT_H

#include "run_row.h"
#include "run_summary.h"

/* Finds gnuplot: $SPMVLAB_GNUPLOT, else gnuplot on PATH. Returns 0 with
 * the path in out, or -1. */
int report_find_gnuplot(char *out, size_t len);

/* Writes the data, the script and, when gnuplot is given (not NULL), the
 * plots of every dtype into dir. Returns the number of image files
 * written, or -1 with a sentence. */
int report_plots(const run_rows *rows, const run_summary *sum, const char *dir, const char *gnuplot,
                 spmvlab_err *err);

#endif
