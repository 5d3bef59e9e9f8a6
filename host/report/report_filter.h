/* report --instances / --matrices: keeps the rows whose instance and
 * matrix match the given lists; and the reader of report's comma lists. */
#ifndef SPMVLAB_HOST_REPORT_FILTER_H
#define SPMVLAB_HOST_REPORT_FILTER_H

#include "row.h"

/* Keeps the rows whose instance matches one pattern of instances and whose
 * matrix matches one of matrices: comma-separated shell patterns (fnmatch,
 * "sell*"); NULL or "" keeps all. Returns 0, or -1 with a sentence when a
 * pattern matches no row (a typo would otherwise empty a plot silently). */
int report_filter_rows(run_rows *rows, const char *instances, const char *matrices, spmvlab_err *err);

/* The next item of a comma-separated list (spaces around it dropped) into
 * out; returns where the rest of the list starts, NULL at its end. */
const char *report_next_item(const char *s, char *out, size_t len);

#endif
