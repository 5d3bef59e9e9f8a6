/*
 * The bound of one cell: the least time an SpMV of this format on this
 * matrix can take on a device with the measured ceilings (ceilings.h),
 * from three limits, whichever is largest:
 *   stream  the format's device bytes plus x and y, over the DRAM rate
 *           (the L2 streaming rate when they all fit in L2);
 *   gather  the 32-byte sectors of x that groups of 32 consecutive rows
 *           touch, over the random-gather rate (from L2 when x fits);
 *   launch  the floor of one call: graph replay for back-to-back timing,
 *           one launch for single timing.
 * The model ignores atomics, imbalance and instruction limits, so a cell
 * may sit well above its bound; below it only when caches hold more than
 * the model assumes (docs/methodology.md, "How close to the limit").
 */
#ifndef SPMVLAB_BOUND_H
#define SPMVLAB_BOUND_H

#include <stddef.h>

#include "spmvlab/ceilings.h"
#include "spmvlab/matrix.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPMVLAB_SECTOR_BYTES 32   /* the unit the L2 serves a scattered load in */
#define SPMVLAB_GATHER_ROWS 32    /* rows one warp covers in a thread-per-row kernel */

/* Sum over groups of 32 consecutive rows of the distinct 32-byte sectors
 * of x (elements of value_size bytes, x aligned to a sector) the group's
 * columns fall in. Returns the count, or -1 when value_size is not 2, 4
 * or 8 or memory runs out. */
double spmvlab_gather_sectors(const spmvlab_csr *A, size_t value_size);

/* Which limit binds. */
typedef enum spmvlab_bound_kind {
    SPMVLAB_BOUND_DRAM = 0,   /* streaming bytes from device memory */
    SPMVLAB_BOUND_L2 = 1,     /* streaming bytes that all fit in L2 */
    SPMVLAB_BOUND_GATHER = 2, /* scattered x sectors */
    SPMVLAB_BOUND_LAUNCH = 3  /* the cost of one call */
} spmvlab_bound_kind;

/* What a cell moves, for the bound. */
typedef struct spmvlab_bound_work {
    double stream_bytes;      /* the format's device bytes + x + y, once each */
    double x_bytes;           /* cols x value size: decides L2 or DRAM gathers */
    double sectors;           /* spmvlab_gather_sectors of the matrix */
    int single;               /* 1: single-launch timing (launch floor), 0: back-to-back (replay floor) */
} spmvlab_bound_work;

typedef struct spmvlab_bound {
    double us;                /* the largest of the three, microseconds */
    double stream_us;         /* stream_bytes over the DRAM or L2 rate, microseconds */
    double gather_us;         /* sectors over the gather rate, microseconds */
    double launch_us;         /* the floor of one call, microseconds */
    spmvlab_bound_kind kind;  /* which of the three is us */
} spmvlab_bound;

/* The bound of work under ceilings c. Returns 0, or -1 when a ceiling it
 * needs is unknown (NaN or not positive). */
int spmvlab_bound_of(const spmvlab_ceilings *c, const spmvlab_bound_work *w, spmvlab_bound *out);

/* "dram", "l2", "gather" or "launch". */
const char *spmvlab_bound_kind_name(spmvlab_bound_kind k);

#ifdef __cplusplus
}
#endif
#endif
