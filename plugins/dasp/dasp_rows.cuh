// DASP kernel parts for rows of the row-class split (dasp_spmv.cu): long
// rows, one warp per segment with the last warp of a row reducing, and
// medium row-blocks on the MMA levels with their irregular (CUDA-core)
// entries. dasp_host_impl.h runs the same steps on the CPU.
#ifndef SPMVLAB_DASP_ROWS_CUH
#define SPMVLAB_DASP_ROWS_CUH

#include "dasp_mma.cuh"

namespace {

// ---- long rows: one warp per segment; the last warp of a row reduces -------

// Accumulates the long tiles [t0, t1) of 8 x BK values at val/col into c,
// U tiles at a time; values at or past len (the row's end) load nothing.
template <int S>
__device__ __forceinline__ void long_tiles(typename Shape<S>::V::acc_t (&c)[2], const typename Shape<S>::V::val_t *val,
                                           const int32_t *col, int64_t t0, int64_t t1, int64_t len,
                                           const typename Shape<S>::V::val_t *x, int lane)
{
    using Sh = Shape<S>;
    constexpr int TE = DASP_BM * Sh::BK, U = Sh::U;
    const int64_t lo = lane_offset<S>(lane);
    for (int64_t t = t0; t < t1; t += U) {
        typename Sh::Frag fr[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int64_t off = (t + u) * TE + lo;
            fr[u].load(val, col, off, t + u < t1 && off < len);
        }
#pragma unroll
        for (int u = 0; u < U; u++)
            fr[u].gather(x);
#pragma unroll
        for (int u = 0; u < U; u++)
            if (t + u < t1)
                Sh::mma(c, fr[u]);
    }
}

template <int S>
__device__ __forceinline__ void long_warp(const dasp_launch &L, const typename Shape<S>::V::val_t *x,
                                          typename Shape<S>::V::val_t *y, int64_t s, int lane)
{
    using V = typename Shape<S>::V;
    using acc_t = typename V::acc_t;
    constexpr int TE = DASP_BM * Shape<S>::BK;
    const int lr = __ldg(L.seg_row + s);
    const int sp0 = __ldg(L.seg_ptr + lr), nseg = __ldg(L.seg_ptr + lr + 1) - sp0;
    const int row = __ldg(L.long_row + lr);
    const int64_t base = __ldg(L.long_ptr + lr), len = __ldg(L.long_ptr + lr + 1) - base;
    const int64_t ntiles = (len + TE - 1) / TE, t0 = (int64_t)(s - sp0) * L.seg_tiles;
    const int64_t t1 = t0 + L.seg_tiles < ntiles ? t0 + L.seg_tiles : ntiles;
    acc_t c[2] = {0, 0};
    long_tiles<S>(c, static_cast<const typename V::val_t *>(L.long_val) + base, L.long_col + base, t0, t1, len, x,
                  lane);
    const acc_t v = warp_sum(lane == diag_lane(lane >> 2) ? diag_pick(c, lane) : acc_t(0));
    if (nseg == 1) {
        if (lane == 0)
            V::store(y, row, v);
        return;
    }
    acc_t *partial = static_cast<acc_t *>(L.partial);
    int last = 0;
    if (lane == 0) {
        partial[s] = v;
        last = count_release(L.count + lr) == nseg - 1; // the partial is in L2 before the count moves
    }
    if (!__shfl_sync(kFull, last, 0))
        return;
    acc_t p = lane_pieces(partial + sp0, nseg, lane);
    p = warp_sum(p);
    if (lane == 0) {
        V::store(y, row, p);
        L.count[lr] = 0; // ready for the next call
    }
}

// ---- medium rows: RB row-blocks (8 RB rows) per warp --------------------------

// irr_gather = early: the x of a lane's first irregular entry (column col,
// loaded with the blocks), gathered with the first step's block gathers
// instead of after the last MMA: one round trip less a warp.
template <typename V>
struct IrrFirst {
    int col;
    typename V::acc_t xv;
    bool done;
    __device__ __forceinline__ void gather(const typename V::val_t *x)
    {
        if (!done)
            xv = col >= 0 ? V::x_at(x, col) : typename V::acc_t(0), done = true;
    }
};
// The top shapes with an early kernel (E = true): theirs keeps that gather
// in registers (sm_90, -Xptxas -v: no spills, no more registers); the f64
// m16 shapes would spill and always gather it last. The host's list
// (DASP_SHAPE_IRR_EARLY, dasp.h) plus m8n8k4's k4_batch = 8 twin.
template <int S>
constexpr bool kIrrEarly = S == kF64M8N8K4x8 || DASP_SHAPE_IRR_EARLY(S);

// Level I.. of top shape S for the warp's nrb row-blocks (level starts q, in
// units of 32 values). G row-blocks run together, each with its own
// accumulator, UB blocks of each per step, so a warp has about 4 values a
// lane in flight even when every row-block is one block wide. E: irr is
// gathered with the first step's blocks.
template <int S, int RB, int I, bool E>
__device__ __forceinline__ void medium_levels(typename Shape<S>::V::acc_t (&c)[RB][2], const dasp_launch &L,
                                              const int32_t (&q)[RB][DASP_MAX_LEVELS + 1],
                                              const typename Shape<S>::V::val_t *x, int lane,
                                              IrrFirst<typename Shape<S>::V> &irr)
{
    if constexpr (I < Levels<S>::N) {
        constexpr int SL = Levels<S>::at[I];
        using Sh = Shape<SL>;
        using val_t = typename Shape<S>::V::val_t;
        constexpr int TE = DASP_BM * Sh::BK;
        // All RB row-blocks load together where registers allow (f16
        // fragments are small: always; f64 about 4 values a lane), so a
        // warp of one-block-wide row-blocks waits for one round trip.
        constexpr int budget = sizeof(val_t) == 2 ? 16 : 4;
        constexpr int G = RB < budget / Sh::VPL ? RB : (budget / Sh::VPL > 0 ? budget / Sh::VPL : 1);
        constexpr int UB = Sh::U / G > 0 ? Sh::U / G : 1;
        const val_t *val = static_cast<const val_t *>(L.med_val);
        const int64_t lo = lane_offset<SL>(lane);
        const bool active = lane_active<SL>(lane);
#pragma unroll
        for (int gb = 0; gb < RB; gb += G) {
            int64_t base[G];
            int nb[G], nmax = 0;
#pragma unroll
            for (int b = 0; b < G; b++) {
                base[b] = (int64_t)q[gb + b][I] * 32;
                nb[b] = (int)(((int64_t)q[gb + b][I + 1] - q[gb + b][I]) * 32 / TE);
                nmax = nb[b] > nmax ? nb[b] : nmax;
            }
            for (int k = 0; k < nmax; k += UB) {
                typename Sh::Frag fr[G][UB];
#pragma unroll
                for (int b = 0; b < G; b++)
#pragma unroll
                    for (int u = 0; u < UB; u++) {
                        const int64_t off = base[b] + (int64_t)(k + u) * TE + lo;
                        fr[b][u].load(val, L.med_col, off, active && k + u < nb[b]);
                    }
#pragma unroll
                for (int b = 0; b < G; b++)
#pragma unroll
                    for (int u = 0; u < UB; u++)
                        fr[b][u].gather(x);
                if constexpr (E)
                    irr.gather(x);
#pragma unroll
                for (int b = 0; b < G; b++)
#pragma unroll
                    for (int u = 0; u < UB; u++)
                        if (k + u < nb[b])
                            Sh::mma(c[gb + b], fr[b][u]);
            }
        }
        medium_levels<S, RB, I + 1, E>(c, L, q, x, lane, irr);
    }
}

// The warp's rows: row j = lane / LPR of its 8 RB rows (LPR = 4 / RB lanes
// per row) sums the row's irregular entries (lane sub takes entries sub,
// sub + LPR, ...; then a butterfly over the LPR lanes), takes the MMA
// diagonal of its row-block from lane 4g + g/2, and stores y once. E: the
// early gather of the first irregular entry (kIrrEarly shapes only).
template <int S, int RB, bool E>
__device__ __forceinline__ void medium_warp(const dasp_launch &L, const typename Shape<S>::V::val_t *x,
                                            typename Shape<S>::V::val_t *y, int64_t w, int lane)
{
    using V = typename Shape<S>::V;
    using val_t = typename V::val_t;
    using acc_t = typename V::acc_t;
    constexpr int NL = Levels<S>::N, LPR = 4 / RB;
    const int64_t rb0 = w * RB;
    const int nrb = L.n_rb - rb0 < RB ? (int)(L.n_rb - rb0) : RB;
    const int j = lane / LPR, sub = lane % LPR;
    const int64_t r = rb0 * DASP_BM + j;
    // med_ranges = on: row-blocks inside one run of equal shape take their
    // block and irregular offsets from the parameters, so the block loads
    // wait for no rb_ptr / rb_irr load (the same offsets as those arrays).
    int32_t q[RB][DASP_MAX_LEVELS + 1];
    int i0 = 0, i1 = 0, row = -1;
    bool in_rg = false;
#pragma unroll
    for (int k = 0; k < DASP_MAX_RANGES; k++) {
        const dasp_range &R = L.ranges[k];
        if (k < L.n_ranges && !in_rg && rb0 >= R.rb0 && rb0 + nrb <= R.rb1) {
            in_rg = true;
            const int d = (int)(rb0 - R.rb0);
            if (j < nrb * DASP_BM) {
                i0 = R.i0 + ((d + j / DASP_BM) * DASP_BM + j % DASP_BM) * R.cnt;
                i1 = i0 + R.cnt;
            }
#pragma unroll
            for (int b = 0; b < RB; b++)
#pragma unroll
                for (int l = 0; l <= NL; l++)
                    q[b][l] = b < nrb ? R.q0 + (d + b) * R.qrb + R.off[l] : 0;
        }
    }
    if (j < nrb * DASP_BM && !in_rg) {
        // med_rows = runs: a row-block whose rows have equal irregular
        // counts reads one 8-byte {offset, count} instead of 8 offsets.
        const int2 ib = L.rb_irr ? __ldg(reinterpret_cast<const int2 *>(L.rb_irr) + rb0 + j / DASP_BM)
                                 : make_int2(0, -1);
        if (ib.y >= 0) {
            i0 = ib.x + (j % DASP_BM) * ib.y;
            i1 = i0 + ib.y;
        } else {
            i0 = __ldg(L.irr_ptr + r);
            i1 = __ldg(L.irr_ptr + r + 1);
        }
    }
    if (!in_rg) {
#pragma unroll
        for (int b = 0; b < RB; b++)
#pragma unroll
            for (int l = 0; l <= NL; l++)
                q[b][l] = b < nrb ? __ldg(L.rb_ptr + (rb0 + b) * NL + l) : 0;
    }
    if (j < nrb * DASP_BM) {
        // med_rows = runs: a row-block of 8 consecutive rows reads its first
        // row only (4 bytes per 8 rows, not per row; y stored coalesced).
        const int rbb = L.rb_base ? __ldg(L.rb_base + rb0 + j / DASP_BM) : -1;
        row = rbb >= 0 ? rbb + j % DASP_BM : __ldg(L.med_row + r);
    }
    // The lane's first irregular entry is loaded with the blocks.
    const val_t *ival = static_cast<const val_t *>(L.irr_val);
    int i = i0 + sub, c0 = DASP_PAD_COL;
    val_t v0 = 0;
    if (i < i1) {
        v0 = __ldcs(ival + i);
        c0 = __ldcs(L.irr_col + i);
    }
    acc_t c[RB][2];
#pragma unroll
    for (int b = 0; b < RB; b++)
        c[b][0] = c[b][1] = 0;
    static_assert(!E || kIrrEarly<S>, "no early-gather kernel for this shape");
    IrrFirst<V> irr = {c0, acc_t(0), false};
    medium_levels<S, RB, 0, E>(c, L, q, x, lane, irr);
    acc_t s = 0;
    if constexpr (E) {
        irr.gather(x); // not done yet: a warp without blocks
        if (c0 >= 0)
            s = V::fma(V::acc(v0), irr.xv, s);
    } else if (c0 >= 0) {
        s = V::fma(V::acc(v0), V::x_at(x, c0), s);
    }
    // The rest, kIrrUnroll entries a lane per step: their value / column
    // loads, then their x gathers, are all issued before the first FMA (the
    // same FMAs in the same order as one entry at a time).
    for (i += LPR; i < i1; i += kIrrUnroll * LPR) {
        val_t v[kIrrUnroll];
        int cl[kIrrUnroll];
#pragma unroll
        for (int u = 0; u < kIrrUnroll; u++) {
            const int k = i + u * LPR;
            v[u] = 0, cl[u] = DASP_PAD_COL;
            if (k < i1) {
                v[u] = __ldcs(ival + k);
                cl[u] = __ldcs(L.irr_col + k);
            }
        }
        acc_t xv[kIrrUnroll];
#pragma unroll
        for (int u = 0; u < kIrrUnroll; u++)
            xv[u] = cl[u] >= 0 ? V::x_at(x, cl[u]) : acc_t(0);
#pragma unroll
        for (int u = 0; u < kIrrUnroll; u++)
            if (cl[u] >= 0)
                s = V::fma(V::acc(v[u]), xv[u], s);
    }
    if constexpr (LPR >= 2)
        s += __shfl_xor_sync(kFull, s, 1);
    if constexpr (LPR >= 4)
        s += __shfl_xor_sync(kFull, s, 2);
    const int g = j % DASP_BM, jb = j / DASP_BM;
    acc_t d = 0;
#pragma unroll
    for (int b = 0; b < RB; b++) {
        const acc_t got = __shfl_sync(kFull, diag_pick(c[b], lane), diag_lane(g));
        if (jb == b)
            d = got;
    }
    if (sub == 0 && row >= 0)
        V::store(y, row, d + s);
}

} // namespace

#endif // SPMVLAB_DASP_ROWS_CUH
