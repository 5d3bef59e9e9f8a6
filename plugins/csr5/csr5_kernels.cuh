/*
 * CSR5 SpMV: the kernels' code, per warp. csr5_spmv.cu wraps it in
 * __global__ kernels and launchers; test_csr5_sim.cu runs the very same code
 * on the host, lane by lane in threads, against spmv_host. The warp
 * primitives are reached through the c5_* wrappers below, which the
 * simulation defines itself (CSR5_SIM).
 *
 * csr5_main_warp: warp g of the main launch plays one of three parts:
 *   - g < tiles: one tile (c5_tile). Each lane runs a serial segmented sum
 *     over its sigma entries, with the row-start flags of its descriptor;
 *     rows that start and end inside the lane are stored at once (into the
 *     warp's shared-memory stage, written out as consecutive rows after the
 *     scan; or straight to y with stores = direct). The part
 *     of a lane before its first row start (its "head") is combined across
 *     lanes by a segmented suffix scan with shuffles whose segment bounds are
 *     the descriptor's seg_offset, and each lane's last row gets its sum plus
 *     the scan value of the next lane. A tile covered by one row takes a fast
 *     path: plain lane sums and a shuffle tree.
 *   - the next tail_rows warps: one row of the tail each, CSR-vector style.
 *   - the remaining warps: 32 empty rows each, set to 0 (empty = offsets),
 *     or 32 runs of up to CSR5_RUN_MAX empty rows (empty = compress: the
 *     tiles then hold only the non-empty rows, renumbered, and every store
 *     goes through row_map to A's row).
 * Rows that cross tile boundaries leave "pieces": the part in the tile where
 * the row starts (out piece) and the part at the head of each later tile and
 * of the tail (head pieces). The row is written once, as the sum of its
 * pieces in a fixed order: up to CSR5_SEQ_PIECES in order by one thread,
 * more by the warp (lane l adds pieces l, l + 32, ..., then a shuffle tree).
 * Who sums them (option calibrate):
 *   inline  every piece is followed by an atomic increment (release, or
 *           acq_rel) of a counter of the row's first tile; the lane that
 *           delivers the last piece sums them and resets the counter for
 *           the next call. One launch, no waiting on other blocks.
 *   kernel  csr5_calibrate_warp, a second launch with one thread per tile,
 *           each summing the row that leaves its tile.
 * Every row is written by exactly one warp on every call: complete rows by
 * their tile or tail warp, crossing rows by the calibration, empty rows with
 * 0. spmv_host (csr5_host_impl.h) performs the same operations in the same
 * order.
 */
#ifndef SPMVLAB_CSR5_KERNELS_CUH
#define SPMVLAB_CSR5_KERNELS_CUH

#include "csr5.h"
#include "csr5_tile.h"

namespace {

constexpr int kBlock = 256; /* threads per block of the launches */
constexpr int kWarpsPerBlock = kBlock / CSR5_OMEGA;
/* Slots of a warp's store stage (stores = staged) for sigma s: a tile with
 * more rows stores directly. Twice the 32 rows of a tile whose rows are
 * sigma long; four times from sigma 6 (rows often shorter than the mean
 * that sets sigma), where the kernels hold fewer blocks per SM and so less
 * shared memory in all. */
__host__ __device__ constexpr int c5_stage_slots(int s) { return s <= 5 ? 64 : 128; }
#define CSR5_STAGE_MAX 128

/* Descriptor words per lane for sigma s (csr5_desc_words at compile time). */
__host__ __device__ constexpr int c5_words(int s)
{
    int bits = 0;
    for (unsigned v = 1u + 31u * (unsigned)s; v; v >>= 1)
        bits++;
    return s + 5 + bits <= 32 ? 1 : 2;
}

#ifndef CSR5_SIM
#define C5_FN __device__ __forceinline__
constexpr unsigned kFull = 0xffffffffu;
template <typename T>
C5_FN T c5_ldg(const T *p) { return __ldg(p); } /* read-only path */
template <typename T>
C5_FN T c5_ldcg(const T *p) { return __ldcg(p); } /* L2, written by other blocks in this launch */
template <typename T>
C5_FN T c5_shfl_down(T v, int d) { return __shfl_down_sync(kFull, v, d); }
template <typename T>
C5_FN T c5_shfl(T v, int src) { return __shfl_sync(kFull, v, src); }
C5_FN unsigned c5_ballot(bool p) { return __ballot_sync(kFull, p); }
C5_FN void c5_syncwarp() { __syncwarp(); }
C5_FN int c5_popc(unsigned v) { return __popc(v); }
C5_FN int c5_ffs(unsigned v) { return __ffs(v); }
C5_FN double c5_fma(double a, double b, double c) { return fma(a, b, c); }
C5_FN float c5_fma(float a, float b, float c) { return fmaf(a, b, c); }
/* atomicAdd(p, 1) with acq_rel semantics at GPU scope; returns the old value.
 * The acquire half costs an invalidation of the SM's whole L1 (CCTL.IVALL),
 * which drops the x values cached there by every warp of the SM. */
C5_FN int c5_atomic_inc_acq_rel(int32_t *p)
{
    int old;
    asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
    return old;
}
/* atomicAdd(p, 1) with release semantics at GPU scope (a fence before the
 * add, no L1 invalidation); returns the old value. */
C5_FN int c5_atomic_inc_release(int32_t *p)
{
    int old;
    asm volatile("atom.release.gpu.global.add.s32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
    return old;
}
/* Strong (relaxed, GPU scope) load: served by L2, never by a stale L1 line. */
C5_FN double c5_ld_strong(const double *p)
{
    double v;
    asm volatile("ld.relaxed.gpu.global.f64 %0, [%1];" : "=d"(v) : "l"(p) : "memory");
    return v;
}
C5_FN float c5_ld_strong(const float *p)
{
    float v;
    asm volatile("ld.relaxed.gpu.global.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}
/* Programmatic dependent launch (sm_90): the calibration kernel may start
 * while the main kernel ends; c5_grid_wait blocks until the main kernel has
 * completed and its writes are visible (a no-op without such a launch). */
C5_FN void c5_grid_wait()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
#endif

/* Lane 0 gets the sum of the warp's values (tree of shfl_down). */
template <typename V>
C5_FN V c5_tree(V v)
{
#pragma unroll
    for (int off = CSR5_OMEGA / 2; off > 0; off >>= 1)
        v += c5_shfl_down(v, off);
    return v;
}

/* The row of y that stored row r is written to (empty = compress maps the
 * rows of the compressed matrix back to A's rows). */
C5_FN int32_t c5_yrow(const csr5_dev &d, int32_t r) { return d.row_map ? c5_ldg(d.row_map + r) : r; }

/* Last tile holding entries of row r (tiles = the tail). */
C5_FN int32_t c5_last_tile(const csr5_dev &d, int32_t r, int64_t T)
{
    const int64_t te = ((int64_t)c5_ldg(d.row_ptr + r + 1) - 1) / T;
    return te < d.tiles ? (int32_t)te : d.tiles;
}

/* Counts a piece of the row whose pieces lie in tiles ts..te, after the
 * caller stored it. The increment releases the stored piece at GPU scope
 * (the fence makes it visible in L2 before the count moves). With
 * arrive = acq_rel it also acquires, which on the GPU invalidates the SM's
 * L1; with arrive = release (default) the last arrival instead reads the
 * pieces with strong loads, which L2 serves after the counter showed every
 * piece stored (the loads are issued only once the atomic has returned and
 * the branch on its value was taken; no load is speculated). Returns true
 * for the last piece to arrive; the counter is then reset for the next call. */
C5_FN bool c5_arrive(const csr5_dev &d, int32_t ts, int32_t te)
{
    int32_t *p = d.arrivals + ts;
    const int old = d.arrive_release ? c5_atomic_inc_release(p) : c5_atomic_inc_acq_rel(p);
    if (old != te - ts)
        return false;
    *p = 0;
    return true;
}

/* Piece i of the row whose pieces start at tile ts (strong load). */
template <typename V>
C5_FN V c5_piece(const V *out_pc, const V *head_pc, int32_t ts, int32_t i)
{
    return c5_ld_strong(i == 0 ? out_pc + ts : head_pc + ts + i);
}

/* The warp writes y[r] = the sum of the pieces of tiles ts..te (more than
 * CSR5_SEQ_PIECES): lane l adds pieces l, l + 32, ... in that order. Rows
 * spanning many tiles have many pieces; each lane loads U of its pieces at
 * a time before adding them in order, so U loads are in flight instead of
 * one (same order, so the same sum). WIDE (the calibration kernel) also
 * loads the last, partial batch at once, predicated; without it the rest
 * goes one piece at a time, which keeps the main kernel's inline
 * calibration within its registers (it shares them with every tile). */
template <typename V, int U, bool WIDE>
C5_FN void c5_finish_row(const csr5_dev &d, const V *out_pc, const V *head_pc, int32_t r, int32_t ts, int32_t te,
                         int lane, V *y)
{
    const int32_t n = te - ts + 1;
    V acc = 0;
    int32_t i = lane;
    for (; WIDE ? i < n : i + (U - 1) * CSR5_OMEGA < n; i += U * CSR5_OMEGA) {
        V p[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            if (!WIDE || i + u * CSR5_OMEGA < n)
                p[u] = c5_piece(out_pc, head_pc, ts, i + u * CSR5_OMEGA);
#pragma unroll
        for (int u = 0; u < U; u++)
            if (!WIDE || i + u * CSR5_OMEGA < n)
                acc += p[u];
    }
    for (; !WIDE && i < n; i += CSR5_OMEGA)
        acc += c5_piece(out_pc, head_pc, ts, i);
    acc = c5_tree(acc);
    if (lane == 0)
        y[c5_yrow(d, r)] = acc;
}

/* One thread writes y[r] = the sum of the pieces of tiles ts..te, in order
 * (te - ts < CSR5_SEQ_PIECES). Loaded 4 at a time before being added, so
 * the loads overlap. */
template <typename V>
C5_FN void c5_finish_row_seq(const csr5_dev &d, const V *out_pc, const V *head_pc, int32_t r, int32_t ts,
                             int32_t te, V *y)
{
    const int32_t n = te - ts + 1;
    V acc = c5_piece(out_pc, head_pc, ts, 0);
    int32_t i = 1;
    for (; i + 3 < n; i += 4) {
        const V p0 = c5_piece(out_pc, head_pc, ts, i), p1 = c5_piece(out_pc, head_pc, ts, i + 1),
                p2 = c5_piece(out_pc, head_pc, ts, i + 2), p3 = c5_piece(out_pc, head_pc, ts, i + 3);
        acc += p0;
        acc += p1;
        acc += p2;
        acc += p3;
    }
    for (; i < n; i++)
        acc += c5_piece(out_pc, head_pc, ts, i);
    y[c5_yrow(d, r)] = acc;
}

/* Lanes with `own` finish their row (r, pieces ts..te): rows of up to
 * CSR5_SEQ_PIECES pieces each by its own lane, longer ones by the whole warp
 * one after another. __syncwarp orders the arriving lanes' atomics before
 * the other lanes' loads. */
template <typename V, int U = 8, bool WIDE = false>
C5_FN void c5_finish_rows(const csr5_dev &d, bool own, int32_t r, int32_t ts, int32_t te, const V *out_pc,
                          const V *head_pc, int lane, V *y)
{
    c5_syncwarp();
    const bool seq = te - ts < CSR5_SEQ_PIECES;
    if (own && seq)
        c5_finish_row_seq(d, out_pc, head_pc, r, ts, te, y);
    unsigned m = c5_ballot(own && !seq);
    while (m) {
        const int src = c5_ffs(m) - 1;
        m &= m - 1;
        c5_finish_row<V, U, WIDE>(d, out_pc, head_pc, c5_shfl(r, src), c5_shfl(ts, src),
                      c5_shfl(te, src), lane, y);
    }
}

/* stores = staged: the rows complete in the tile sit in stage by slot; the
 * warp writes them to y as consecutive rows, 32 a store, instead of one
 * scattered 8-byte store per row from whichever lane finished it (those
 * fill L2 with partial-sector writes, the kernel's limit on short rows).
 * Complete rows are slots head .. slots - 1, less the last slot when its
 * row continues into the next tile (it left as a piece). */
C5_FN int32_t c5_stage_end(int32_t row0, int32_t next_row, uint32_t meta, uint32_t flags)
{
    const int32_t slots = (int32_t)(meta >> 5) + c5_popc(flags); /* from lane 31 */
    return row0 + slots - 1 == next_row ? slots - 1 : slots;
}

template <typename V>
C5_FN void c5_flush_stage(const csr5_dev &d, int32_t row0, int32_t next_row, uint32_t w0, uint32_t meta,
                          uint32_t flags, int lane, const V *stage, V *y)
{
    const int32_t head = (int32_t)(~c5_shfl(w0, 0) & 1u);
    const int32_t end = c5_shfl(c5_stage_end(row0, next_row, meta, flags), CSR5_OMEGA - 1);
    c5_syncwarp(); /* every lane's stage writes before the reads */
    for (int32_t s = head + lane; s < end; s += CSR5_OMEGA)
        y[c5_yrow(d, row0 + s)] = stage[s];
    c5_syncwarp(); /* the reads before the next tile's writes */
}

/* One tile of 32 x S entries; see the file comment. The loads of a chunk of
 * CH steps (columns, values, then x) are issued before any of its sums, so a
 * lane keeps up to 3 CH loads in flight; CH = 16 bounds the registers. */
template <typename V, int S>
C5_FN void c5_tile(const csr5_dev &d, int32_t t, int lane, const V *__restrict__ x, V *__restrict__ y, V *stage)
{
    constexpr int T = CSR5_OMEGA * S, W = c5_words(S), CH = S < 16 ? S : 16;
    const uint32_t tp0 = c5_ldg(d.tile_ptr + t);
    const int32_t row0 = (int32_t)(tp0 & CSR5_ROW_MASK);
    const int32_t next_row = (int32_t)(c5_ldg(d.tile_ptr + t + 1) & CSR5_ROW_MASK);
    const int64_t base = (int64_t)t * T;
    const int32_t *colp = d.col + base + lane;
    const V *valp = static_cast<const V *>(d.val) + base + lane;
    const uint32_t *dp = d.desc + (int64_t)t * CSR5_OMEGA * W + lane;
    const uint32_t w0 = c5_ldg(dp), meta = W == 2 ? c5_ldg(dp + CSR5_OMEGA) : w0 >> (S & 31);
    const uint32_t flags = S == 32 ? w0 : (w0 & ((1u << (S & 31)) - 1u));
    const bool one_row = row0 == next_row; /* fast path: the tile lies inside one row */
    const int32_t yoff = (int32_t)(meta >> 5);
    const int32_t *slot_row =
        (!one_row && (tp0 & CSR5_EMPTY_FLAG)) ? d.empty_offset + c5_ldg(d.eo_ptr + t) : nullptr;
    V *out_pc = static_cast<V *>(d.pieces), *head_pc = out_pc + d.tiles;
    /* stores = staged: rows complete in the tile go to the warp's stage by
     * slot and leave as one coalesced run (see c5_flush_stage); needs slot s
     * = row row0 + s (no empty rows between slots) and few enough slots. */
    const bool staged = stage != nullptr && !one_row && !slot_row && next_row - row0 < c5_stage_slots(S);

    /* Serial segmented sum of the lane: `head` is the part before the
     * lane's first row start, rows starting and ending in the lane are
     * stored at once, `sum` ends as the lane's last (open) row. */
    V sum = 0, head = 0;
    int k = 0;
#pragma unroll
    for (int j0 = 0; j0 < S; j0 += CH) {
        V a[CH], b[CH];
#pragma unroll
        for (int j = 0; j < CH; j++)
            if (j0 + j < S) {
                const int32_t c = c5_ldg(colp + (j0 + j) * CSR5_OMEGA);
                a[j] = c5_ldg(valp + (j0 + j) * CSR5_OMEGA);
                b[j] = c5_ldg(x + c);
            }
        if (one_row) {
#pragma unroll
            for (int j = 0; j < CH; j++)
                if (j0 + j < S)
                    sum = c5_fma(a[j], b[j], sum);
            continue;
        }
#pragma unroll
        for (int j = 0; j < CH; j++) {
            if (j0 + j >= S)
                break;
            if (flags & (1u << (j0 + j))) {
                if (k == 0) {
                    head = sum;
                } else {
                    const int32_t s = yoff + k - 1;
                    if (staged)
                        stage[s] = sum;
                    else
                        y[c5_yrow(d, slot_row ? c5_ldg(slot_row + s) : row0 + s)] = sum;
                }
                k++;
                sum = 0;
            }
            sum = c5_fma(a[j], b[j], sum);
        }
    }

    /* Pieces this warp delivers: the head of the tile (lane 0) and the row
     * that leaves it (the lane of the tile's last row start). */
    bool last_h = false, last_o = false;
    int32_t rh = 0, tsh = 0, teh = 0, ro = 0, teo = 0;
    if (one_row) {
        sum = c5_tree(sum);
        const bool starts_here = c5_shfl(w0, 0) & 1u;
        if (lane == 0) {
            if (starts_here)
                out_pc[t] = sum;
            else
                head_pc[t] = sum;
            if (d.calib_inline) {
                const int32_t te = c5_last_tile(d, row0, T);
                if (starts_here) {
                    ro = row0;
                    teo = te;
                    last_o = c5_arrive(d, t, te);
                } else {
                    rh = row0;
                    tsh = (int32_t)(c5_ldg(d.row_ptr + row0) / T);
                    teh = te;
                    last_h = c5_arrive(d, tsh, te);
                }
            }
        }
    } else {
        /* Segmented suffix scan of the heads: lane l adds lane l + dd while
         * dd <= seg_offset, i.e. up to the first lane holding a row start. */
        const int seg = (int)(meta & 31u), n = c5_popc(flags);
        V v = n ? head : sum;
#pragma unroll
        for (int dd = 1; dd < CSR5_OMEGA; dd <<= 1) {
            const V o = c5_shfl_down(v, dd);
            if (dd <= seg)
                v += o;
        }
        V next = c5_shfl_down(v, 1);
        if (lane == CSR5_OMEGA - 1)
            next = 0;
        if (n) {
            const V total = sum + next;
            const int32_t s = yoff + n - 1;
            const int32_t r = slot_row ? c5_ldg(slot_row + s) : row0 + s;
            if (r != next_row) {
                if (staged)
                    stage[s] = total;
                else
                    y[c5_yrow(d, r)] = total;
            } else {
                out_pc[t] = total;
                if (d.calib_inline) {
                    ro = r;
                    teo = c5_last_tile(d, r, T);
                    last_o = c5_arrive(d, t, teo);
                }
            }
        }
        if (lane == 0 && !(flags & 1u)) {
            head_pc[t] = v;
            if (d.calib_inline) {
                rh = row0;
                tsh = (int32_t)(c5_ldg(d.row_ptr + row0) / T);
                teh = c5_last_tile(d, row0, T);
                last_h = c5_arrive(d, tsh, teh);
            }
        }
    }
    if (staged)
        c5_flush_stage(d, row0, next_row, w0, meta, flags, lane, stage, y);
    if (d.calib_inline) {
        c5_finish_rows(d, last_h, rh, tsh, teh, out_pc, head_pc, lane, y);
        c5_finish_rows(d, last_o, ro, t, teo, out_pc, head_pc, lane, y);
    }
}

/* The tail rows, the main launch's warp roles and the calibration warp. */
#include "csr5_warps.cuh"

} // namespace

#endif /* SPMVLAB_CSR5_KERNELS_CUH */
