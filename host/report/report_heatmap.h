/* The speedup heatmap and the bound plot of a dtype's view (report_plot.c
 * draws the others). */
#ifndef SPMVLAB_HOST_REPORT_HEATMAP_H
#define SPMVLAB_HOST_REPORT_HEATMAP_H

#include <stdio.h>

#include "report_plot_view.h"

/* heatmap-G.dat and bound-G.dat. Return 0, or -1 with a sentence. */
int write_heatmap_data(const dt_view *v, const char *dir, spmvlab_err *err);
int write_bound_data(const dt_view *v, const char *dir, spmvlab_err *err);
/* Their plots, appended to the script f. */
void write_heatmap_plot(FILE *f, const dt_view *v);
void write_bound_plot(FILE *f, const dt_view *v);

#endif
