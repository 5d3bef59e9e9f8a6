/*
 * Device ceilings: the rates that bound an SpMV on one device, measured
 * with small kernels of known traffic and cached per device (name, clocks,
 * driver) in <cache dir>/ceilings/. The bound of a cell (bound.h) divides
 * its bytes and gather sectors by these rates.
 */
#ifndef SPMVLAB_CEILINGS_H
#define SPMVLAB_CEILINGS_H

#include <stddef.h>

#include "spmvlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one device can do at best; NaN for a rate not measured. */
typedef struct spmvlab_ceilings {
    double dram_gbs;         /* triad over arrays far larger than L2, best repetition, 1e9 bytes/s */
    double l2_gbs;           /* streaming reads of a buffer resident in L2, 1e9 bytes/s */
    double gather_l2_gps;    /* random 8-byte loads from a vector resident in L2, 1e9 loads/s */
    double gather_dram_gps;  /* random 8-byte loads from a vector far larger than L2, 1e9 loads/s */
    double launch_us;        /* one empty kernel between its own event pair, median, microseconds */
    double replay_us;        /* one empty kernel inside a replayed CUDA graph, per call, microseconds */
    double l2_bytes;         /* the device's L2 size, bytes (decides which gather rate applies) */
    char key[256];           /* device name, SM and memory clocks, driver: what the cache entry is for */
    char source[96];         /* "measured DATE" or "cached DATE" */
} spmvlab_ceilings;

/* Every rate NaN, key and source empty. */
void spmvlab_ceilings_clear(spmvlab_ceilings *c);

/* The cache key of rt's device: "<name> sm<MHz> mem<MHz> drv<version>".
 * Returns 0, or -1 with a sentence (no GPU). */
int spmvlab_ceilings_key(const spmvlab_runtime *rt, char *out, size_t len, spmvlab_err *err);

/* Measures every ceiling on rt's device (a few seconds). Returns 0, or -1
 * with a sentence: no GPU, or the CUDA call that failed. */
int spmvlab_ceilings_measure(spmvlab_runtime *rt, spmvlab_ceilings *c, spmvlab_err *err);

/* The ceilings of rt's device: from the cache entry of its key unless
 * remeasure is 1 or there is none, else measured and written to the cache
 * (a cache that cannot be written only costs the next run the time).
 * Returns 0, or -1 with a sentence (no GPU; measuring failed). */
int spmvlab_ceilings_get(spmvlab_runtime *rt, int remeasure, spmvlab_ceilings *c, spmvlab_err *err);

/* The cache entry for key: <cache dir>/ceilings/<key, unsafe characters as
 * '_'>.txt; create = 1 makes the folder. Returns 0, or -1 with a sentence. */
int spmvlab_ceilings_path(const char *key, char *out, size_t len, int create, spmvlab_err *err);

/* Reads / writes an entry ("key value" lines). Read returns 0, or -1 with a
 * sentence when the file is missing, for another key or incomplete. */
int spmvlab_ceilings_read(const char *path, const char *key, spmvlab_ceilings *c, spmvlab_err *err);
int spmvlab_ceilings_write(const char *path, const spmvlab_ceilings *c, spmvlab_err *err);

#ifdef __cplusplus
}
#endif
#endif
