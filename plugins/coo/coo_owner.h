/*
 * The memset-free write of y by the chunked COO kernels (zero = owner),
 * shared by coo and hyb's pure-COO case: its host state, its rule and the
 * CPU mirror of its carry pass.
 *
 * With zero = memset y is zeroed on the stream first (a second pass over y:
 * 8 bytes a row in f64, against 16 a non-zero), then the kernel
 * stores the rows a chunk owns and adds the shared runs atomically. With
 * zero = owner every y row is written exactly once by a plain store:
 *   - a row with entries by the chunk holding its first entry (its owner);
 *   - an empty row with 0 by the chunk in whose row range it falls: rows
 *     strictly between two consecutive entries by the chunk of the later
 *     entry (the rows between the previous chunk's last entry row[begin-1]
 *     and the chunk's first count as its own), the rows before the first
 *     entry by chunk 0, the rows after the last entry by the last chunk.
 *     Gaps of more than 8 rows are written by the whole warp.
 * A chunk whose first run continues a row started in an earlier chunk does
 * not write it: that partial sum goes to the warp's carry slot. A row
 * spanning 3+ chunks has one owner and a carry in each later chunk (a middle
 * chunk holds only a carry). After the kernel, a second small kernel adds
 * the carries: 32 slots a warp, combined by the run-restricted scan, one
 * atomicAdd per run (a row's carries are consecutive slots). A second
 * kernel rather than a last-block-done counter: no global counter to reset
 * and no fence per block, the carries need the owners' stores to be done
 * and stream order gives that; its cost (one launch over plan.warps slots)
 * replaces the memset's, and it is skipped when no chunk has a carry (which
 * rows have one is known at conversion: the row array is fixed).
 *
 * Sum order: an owner's partial is stored first, the carries are added
 * after it, so a shared row is (owner part) + (sum of the later chunks'
 * parts), not memset mode's order; both keep the bound of docs/design.md §5.
 * spmv_host replays it (coo_seg_chunks_* with carries, then coo_own_add_*);
 * only the order of the atomics of different 32-slot groups on one row
 * (a row over 33+ chunks) is the device's.
 */
#ifndef SPMVLAB_COO_OWNER_H
#define SPMVLAB_COO_OWNER_H

#include <stdint.h>
#include <stdlib.h>

#include "coo_blocked.h"
#include "coo_rule.h"
#include "coo_segmented.h"
#include "spmvlab/plugin.h"
#include "spmvlab/plugin_helpers.h"

/* The zero option's choices, in the order of its "a|b|c" text. */
enum { COO_ZERO_MEMSET = 0, COO_ZERO_OWNER = 1, COO_ZERO_AUTO = 2 };

/* auto: the owner write on matrices of at least COO_OWN_MIN_NNZ non-zeros
 * whose rows hold at most COO_OWN_MAX_MEAN entries on average, else the
 * memset. The owner write saves one pass over y, 8 bytes a row against 16 a
 * non-zero: it wins on short rows and loses on longer ones, where carries and
 * gap zeroing cost it again; a carry pass in the kernel's last block instead
 * of a second kernel lost on launch-bound matrices (README.md, "Writing y
 * without a memset"). */
#define COO_OWN_MIN_NNZ (1 << 20)
#define COO_OWN_MAX_MEAN 12.0

/* auto also takes the owner write, carries and all, where y has at most
 * COO_OWN_SMALL_Y bytes: a memset that small costs more than the owner
 * write's carry kernel, a larger one less (README.md, "Writing y without a
 * memset"). */
#define COO_OWN_SMALL_Y 4096

/* 1 when auto takes the owner write for `nnz` entries over `rows` rows of
 * value_bytes a value; snapped: the chunk edges can be moved to row starts
 * (coo_seg_snap, the segmented kernel), so the owner write has no carries
 * and is one kernel where the memset write is a memset and a kernel. */
static inline int coo_auto_owner(int64_t nnz, int32_t rows, size_t value_bytes, int snapped)
{
    return rows > 0 && (snapped || (double)rows * (double)value_bytes <= COO_OWN_SMALL_Y ||
                        (nnz >= COO_OWN_MIN_NNZ && (double)nnz <= COO_OWN_MAX_MEAN * (double)rows));
}

/* Whether the zero option's value asks for the owner write (auto: the rule). */
static inline int coo_zero_is_owner(int zero, int64_t nnz, int32_t rows, size_t value_bytes,
                                    int snapped)
{
    return zero == COO_ZERO_AUTO ? coo_auto_owner(nnz, rows, value_bytes, snapped) : zero == COO_ZERO_OWNER;
}

/* The edges option's choices (coo's edges, hyb's coo_edges), in the order
 * of their "a|b|c" text. */
enum { COO_EDGES_ROWS = 0, COO_EDGES_EVEN = 1, COO_EDGES_AUTO = 2 };

/* 1 when the chunk edges of the segmented plan p may move to row starts
 * (coo_seg_snap) for the edges option's value over `entries` entries whose
 * longest row holds `longest`. auto moves them only below COO_AUTO_MIN_NNZ
 * entries, where a call is a few microseconds and one kernel instead of two
 * is what counts: on large matrices edges off the 32-entry grid cost loads
 * (README.md, "Chunk edges at row starts"). */
static inline int coo_snappable(int segmented, int edges, coo_seg_plan p, int64_t entries,
                                int32_t longest)
{
    return segmented && entries > 0 && edges != COO_EDGES_EVEN &&
           (edges == COO_EDGES_ROWS || entries < COO_AUTO_MIN_NNZ) && coo_seg_can_snap(p, longest);
}

/* The plan `chunk = auto` and `edges = auto` take for the segmented kernel
 * below COO_AUTO_MIN_NNZ entries: where the longest row is longer than plan
 * p's interval but at most twice it (and COO_SNAP_MAX_ROW), the interval
 * widened to whole tiles over that row, so that the edges can move to row
 * starts; else p. Twice the interval still wins over even edges and a
 * memset, four times loses (README.md, "Chunk edges at row starts"). */
static inline coo_seg_plan coo_snap_plan(int segmented, int edges, coo_seg_plan p, int64_t entries,
                                         int32_t longest)
{
    if (!segmented || edges != COO_EDGES_AUTO || entries <= 0 || entries >= COO_AUTO_MIN_NNZ ||
        coo_seg_can_snap(p, longest) || longest > 2 * (int64_t)p.interval || longest > COO_SNAP_MAX_ROW)
        return p;
    return coo_seg_fixed_plan((int32_t)entries, longest, COO_SEG_WARP);
}

/* The options that settle how a chunked COO kernel writes y: coo's zero,
 * edges and loads and whether its chunk is auto (hyb's coo_* of the same
 * names). */
typedef struct coo_write_opts {
    int zero, edges, loads; /* COO_ZERO_*, COO_EDGES_*, COO_LOADS_* */
    int chunk_auto;         /* the chunk option is auto */
} coo_write_opts;

/* What the options o settle once the chunk plan *p of `entries` row-sorted
 * entries (row, host) of the CSR matrix A is made: the plan widened for
 * moved edges (coo_snap_plan), its loads, the owner write in *owner (only
 * where the kernel writes y alone: `alone`), and where the edges may move
 * and are asked to (edges = rows, or auto with the owner write) the plan's
 * edges at row starts, kept in *starts and p->starts; else *starts = NULL.
 * Returns OK, or NOMEM with the sentence in err. */
static inline spmvlab_status coo_own_settle(spmvlab_ctx *ctx, coo_write_opts o, int segmented,
                                            int alone, const spmvlab_matrix *A, const int32_t *row,
                                            int32_t entries, coo_seg_plan *p, int *owner,
                                            int32_t **starts, spmvlab_err *err)
{
    const size_t vb = spmvlab_dtype_size(A->dtype);
    const int32_t longest = coo_longest_row(A->row_ptr, A->rows);
    if (alone && o.chunk_auto)
        *p = coo_snap_plan(segmented, o.edges, *p, entries, longest);
    p->stream = coo_loads_stream(o.loads, entries, vb, ctx->device);
    const int snappable = alone && coo_snappable(segmented, o.edges, *p, entries, longest);
    *owner = alone && entries > 0 && coo_zero_is_owner(o.zero, entries, A->rows, vb, snappable);
    *starts = NULL;
    if (!snappable || (o.edges != COO_EDGES_ROWS && !*owner))
        return SPMVLAB_OK;
    *starts = coo_seg_snap(*p, row, entries);
    if (!*starts)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d chunk edges", p->warps);
    p->starts = *starts;
    return SPMVLAB_OK;
}

/* The carry slots of one plan. */
typedef struct coo_own {
    int32_t carries; /* warps whose first row continues from the previous chunk */
    int32_t *rows;   /* host, plan.warps: that row, -1 for none; NULL when carries == 0 */
    void *vals;      /* host scratch of plan.warps values (spmv_host) */
    int32_t *d_rows; /* device copy of rows */
    void *d_vals;    /* device: the kernel's carry slots */
} coo_own;

/* Warp w's carry row for plan p over `entries` row-sorted rows, or -1. */
static inline int32_t coo_own_carry_row(coo_seg_plan p, int32_t entries, const int32_t *row,
                                        int32_t w)
{
    long long begin = coo_seg_begin(p, entries, w);
    if (begin <= 0 || begin >= entries || row[begin - 1] != row[begin])
        return -1;
    return row[begin];
}

/* Fills o for plan p (value size vs): finds the carries and, when there are
 * any, allocates and uploads the slots. Returns OK or the allocation's status
 * (what was allocated stays for coo_own_free). */
static inline spmvlab_status coo_own_prepare(spmvlab_ctx *ctx, coo_seg_plan p, int32_t entries,
                                             const int32_t *row, size_t vs, coo_own *o,
                                             spmvlab_err *err)
{
    memset(o, 0, sizeof *o);
    for (int32_t w = 0; w < p.warps; w++)
        o->carries += coo_own_carry_row(p, entries, row, w) >= 0;
    if (o->carries == 0)
        return SPMVLAB_OK;
    o->rows = (int32_t *)malloc((size_t)p.warps * sizeof *o->rows);
    o->vals = calloc((size_t)p.warps, vs);
    if (!o->rows || !o->vals)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d carry slots", p.warps);
    for (int32_t w = 0; w < p.warps; w++)
        o->rows[w] = coo_own_carry_row(p, entries, row, w);
    const spmvlab_array a[] = {
        {(void **)&o->d_rows, o->rows, (size_t)p.warps * sizeof(int32_t)},
        {&o->d_vals, NULL, (size_t)p.warps * vs},
    };
    return spmvlab_put_all(ctx, a, 2, err);
}

/* Frees what coo_own_prepare made (o may be zeroed). */
static inline void coo_own_free(spmvlab_ctx *ctx, coo_own *o)
{
    void *dev[] = {o->d_rows, o->d_vals};
    spmvlab_free_all(ctx, dev, 2);
    free(o->rows);
    free(o->vals);
    memset(o, 0, sizeof *o);
}

/* The carry kernel on the CPU: slots in groups of 32, each group scanned
 * over runs of equal rows (coo_seg_scan_*, expanded first with the same T
 * and SUFFIX), the run ends added to y. */
#define COO_OWN_DEFINE_HOST(T, SUFFIX)                                                         \
    static void coo_own_add_##SUFFIX(const coo_own *o, int32_t warps, T *y)                    \
    {                                                                                          \
        const T *vals = o->vals;                                                               \
        for (int32_t g = 0; o->carries > 0 && g < warps; g += COO_SEG_WARP) {                  \
            int32_t r[COO_SEG_WARP];                                                           \
            T v[COO_SEG_WARP];                                                                 \
            for (int l = 0; l < COO_SEG_WARP; l++) {                                           \
                r[l] = g + l < warps ? o->rows[g + l] : -1;                                    \
                v[l] = r[l] >= 0 ? vals[g + l] : (T)0;                                         \
            }                                                                                  \
            coo_seg_add_runs_##SUFFIX(v, r, y);                                                \
        }                                                                                      \
    }

/* The CPU replays coo and hyb expand, f64 and f32: the segmented and the
 * blocked kernel and the carry pass. */
#define COO_DEFINE_HOST_F64_F32()                                                          \
    COO_SEG_DEFINE_HOST(double, f64)                                                       \
    COO_SEG_DEFINE_HOST(float, f32)                                                        \
    COO_BLK_DEFINE_HOST(double, fma, f64)                                                  \
    COO_BLK_DEFINE_HOST(float, fmaf, f32)                                                  \
    COO_OWN_DEFINE_HOST(double, f64)                                                       \
    COO_OWN_DEFINE_HOST(float, f32)

#endif
