/*
 * Device memory bandwidth and cache control for measurements: the triad
 * that gives the run's peak (docs/design.md §6) and the L2 flush between
 * repetitions. Both need a GPU; callers check rt->device.present first.
 */
#ifndef SPMVLAB_BANDWIDTH_H
#define SPMVLAB_BANDWIDTH_H

#include <stddef.h>

#include "spmvlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one triad measurement found. */
typedef struct spmvlab_triad_result {
    double best_gbs;        /* fastest repetition: bytes moved / time, 1e9 bytes/s */
    double median_gbs;      /* median repetition */
    size_t array_bytes;     /* bytes of each of the three arrays */
    int reps;               /* timed repetitions (after one warm-up) */
} spmvlab_triad_result;

/* Runs a[i] = b[i] + s·c[i] over three arrays of doubles on rt's device,
 * each of array_bytes (0: the larger of 256 MiB and 8 x L2, at most a
 * sixth of device memory), reps times, each timed with CUDA events; counts
 * 3 x array_bytes per repetition (two reads, one write). Returns 0, or -1
 * with a sentence (no GPU, allocation or launch failure). */
int spmvlab_triad(spmvlab_runtime *rt, size_t array_bytes, int reps, spmvlab_triad_result *out,
                  spmvlab_err *err);

/* Writes bytes of buf (device memory of at least that size) on rt's stream,
 * which evicts earlier data from an L2 smaller than bytes. Asynchronous.
 * Returns 0, or -1 with a sentence. */
int spmvlab_l2_flush(spmvlab_runtime *rt, void *buf, size_t bytes, spmvlab_err *err);

#ifdef __cplusplus
}
#endif
#endif
