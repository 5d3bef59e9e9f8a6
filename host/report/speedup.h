/* Speedups against the baseline with their intervals, and tune's fields. */
#ifndef SPMVLAB_HOST_RUN_COMPARE_H
#define SPMVLAB_HOST_RUN_COMPARE_H

#include <stdint.h>

#include "row.h"

#define RUN_BOOTSTRAP_ITERS 2000
#define RUN_CI_LEVEL 0.95

/* Fills baseline, speedup, speedup_lo/hi and outcome of the n rows of one
 * matrix and dtype from their samples of the primary timing (single when
 * single = 1, else batch). base is the baseline's row (NULL when it has
 * none there); paired = 1 when the rows were measured in the same rounds.
 * A row that is not ok, or has no samples, gets no speedup. noise: see
 * spmvlab_outcome_of. */
void compare_rows(run_row **rows, int n, const run_row *base, const char *baseline_label, int paired, int single,
                  double noise, uint64_t seed);

/* tune: among the rows of one matrix and dtype whose instance came from the
 * same label (base_of[i] equal), sets tune_ms (sum of wall_ms), tune_spmvs,
 * tune_peak_bytes (largest convert_peak_bytes) and tune_best. */
void tune_rows(run_row **rows, const char *const *base_of, int n);

/* report --baseline: sets baseline, speedup, speedup_lo/hi and outcome of
 * every row against the instance label on its matrix and dtype. A CSV
 * keeps no samples, so the speedup is the ratio of the medians and its
 * interval is bounded by the two rows' intervals against the run's own
 * baseline b: x / r = (b / r) / (b / x) lies in [lo_r / hi_x, hi_r / lo_x].
 * Returns 0, or -1 with a sentence listing the instances when label names
 * none of them. */
int compare_rebase(run_rows *rows, const char *label, spmvlab_err *err);

#endif
