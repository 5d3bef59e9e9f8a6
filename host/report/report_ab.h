/*
 * report --compare OLD.csv NEW.csv: the same cells measured twice (before
 * and after a change). Per comparison group, instance and matrix the ratio
 * old time / new time (> 1: NEW is faster) with the range the two runs'
 * 10th-90th percentiles allow; per instance the geometric mean over
 * matrices with a bootstrap 95% interval, wins, losses and ties.
 */
#ifndef SPMVLAB_HOST_REPORT_AB_H
#define SPMVLAB_HOST_REPORT_AB_H

#include <stdio.h>

#include "row.h"

/* 1 when the two files were measured alike (device, timing, L2 flushing,
 * warm-up); else 0 with the first difference as a phrase in why. */
int ab_same_setting(const run_rows *old, const run_rows *cur, char *why, size_t len);

/* Prints the per-instance table to out and writes one CSV row per cell to
 * csv_path. Returns the number of cells compared, or -1 with a sentence. */
int ab_compare(const run_rows *old, const run_rows *cur, FILE *out, const char *csv_path, spmvlab_err *err);

#endif
