/*
 * The run's metadata (device, driver, CUDA runtime, commit, date, command)
 * and the device's bandwidth peak from the triad, cached per device.
 */
#ifndef SPMVLAB_HOST_RUN_META_H
#define SPMVLAB_HOST_RUN_META_H

#include "row.h"
#include "spmvlab/ceilings.h"
#include "spmvlab/core.h"

typedef struct run_meta {
    int gpu;                 /* 1 when a GPU is in use */
    char device[128];        /* device name, or "cpu" */
    char cc[8];
    double l2_bytes;         /* NaN without a GPU */
    double mem_bytes;
    double sm_count;
    char driver[48];         /* "570.86.15 (CUDA 12.8)" */
    char cuda_runtime[16];   /* "13.0" */
    char commit[48];
    char version[16];
    char date[32];           /* ISO 8601 UTC */
    char command[2048];
    double peak_gbs;         /* triad bandwidth (best repetition), NaN when unknown */
    double peak_median_gbs;
    char peak_source[64];    /* "measured", "cached (...)", or why it is missing */
    spmvlab_ceilings ceilings; /* the device's ceilings for the bound columns; NaN rates when unknown */
} run_meta;

/* Fills what needs no device: commit, version, date, command. */
void run_meta_init(run_meta *m, const char *command);
/* Fills the device fields from an open runtime (driver and runtime
 * versions included). CPU mode gives device "cpu". */
void run_meta_device(run_meta *m, const spmvlab_runtime *rt);
/* Measures the peak with the triad on rt; on failure uses the value cached
 * for this device, if any. The cache lives in <cache dir>/peak/. Then the
 * ceilings, from their cache or measured (ceilings.h). Returns 0, or -1
 * when no peak is known (peak_source says why). */
int run_meta_peak(run_meta *m, spmvlab_runtime *rt);
/* Copies the run-wide fields into a row. */
void run_meta_to_row(const run_meta *m, run_row *r);

/* Serialises m as "key value" lines (the isolated triad child's answer) and
 * back. Returns 0, or -1 when text is not such an answer. */
void run_meta_write(const run_meta *m, int fd);
int run_meta_read(run_meta *m, const char *text);

#endif
