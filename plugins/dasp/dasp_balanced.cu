// DASP balanced path: every row, CSR on the CUDA cores, balanced by merge
// path (Merrill and Garland, SC'16). The row ends and the non-zeros form one
// merged sequence of rows + nnz items; warp w takes items [w I, (w+1) I),
// I = DASP_BAL_ITEMS, starting at the merge coordinate (w_row, w_nz) found
// by the conversion, so every warp has the same work however long or
// uneven the rows are. dasp_host_impl.h (host_balanced) runs the same steps.
//
// A warp (1) stages its non-zeros' products val * x[col] and its rows' end
// offsets in shared memory, loaded coalesced; (2) each lane finds its start
// on the diagonal lane * K by a binary search in shared memory and walks its
// K items: a non-zero adds its product, a row end closes the row; (3) the
// lanes' unfinished sums (carries) meet in a segmented scan keyed by row,
// and each lane's first closed row takes the carry of the lanes before it;
// (4) closed rows leave through the stage, one coalesced store per 32 rows.
// A row spanning warps (a crossing row) gets a tail piece from each warp it
// begins or passes through and a head piece from the warp that closes it;
// the last of those warps to arrive (an atomic counter per crossing row,
// reset by that warp) adds the pieces in warp order and stores y. One
// launch, deterministic, no spinning.
#include <climits>

#include "dasp_cross.cuh"

namespace {

constexpr int kK = DASP_BAL_K;     // items a lane walks (odd: the walk's shared loads avoid bank conflicts)
constexpr int kI = DASP_BAL_ITEMS; // items a warp takes

template <typename V>
struct BalStage {
    typename V::acc_t prod[kI];  // products of the warp's non-zeros, then its closed rows' sums
    int32_t row_end[kI + 1];     // end offsets of its rows, INT_MAX after the last
};

template <typename V>
__device__ __forceinline__ void bal_warp(const dasp_bal_launch &L, const typename V::val_t *x, typename V::val_t *y,
                                         int64_t w, int lane, BalStage<V> &s)
{
    using val_t = typename V::val_t;
    using acc_t = typename V::acc_t;
    const int r0 = __ldg(L.w_row + w), n0 = __ldg(L.w_nz + w);
    const int alen = __ldg(L.w_row + w + 1) - r0, blen = __ldg(L.w_nz + w + 1) - n0;
    const val_t *val = static_cast<const val_t *>(L.val);
    // (1) stage: all value / column loads, then the gathers, then the row ends.
    val_t v[kK];
    int cl[kK];
#pragma unroll
    for (int u = 0; u < kK; u++) {
        const int j = lane + 32 * u;
        v[u] = 0, cl[u] = DASP_PAD_COL;
        if (j < blen) {
            v[u] = __ldcs(val + n0 + j);
            cl[u] = __ldcs(L.col + n0 + j);
        }
    }
#pragma unroll
    for (int u = 0; u < kK; u++) {
        const int j = lane + 32 * u;
        if (j < blen)
            s.prod[j] = V::mul(V::acc(v[u]), V::x_at(x, cl[u]));
    }
#pragma unroll
    for (int u = 0; u < kK + 1; u++) {
        const int i = lane + 32 * u;
        if (i < alen)
            s.row_end[i] = __ldg(L.row_ptr + r0 + i + 1);
        else if (i == alen)
            s.row_end[i] = INT_MAX;
    }
    __syncwarp();
    // (2) the lane's start on diagonal d: i rows closed, j non-zeros taken.
    const int total = alen + blen;
    const int d = lane * kK < total ? lane * kK : total;
    int lo = d - blen > 0 ? d - blen : 0, hi = d < alen ? d : alen;
    while (lo < hi) {
        const int p = (lo + hi) >> 1;
        if (s.row_end[p] <= n0 + d - p - 1)
            lo = p + 1;
        else
            hi = p;
    }
    const int i_start = lo;
    int i = lo, j = d - lo;
    acc_t run = 0, done[kK];
    int drow[kK];
#pragma unroll
    for (int k = 0; k < kK; k++) {
        drow[k] = -1;
        done[k] = 0;
        if (d + k < total) {
            if (j < blen && n0 + j < s.row_end[i]) {
                run += s.prod[j++];
            } else {
                done[k] = run;
                drow[k] = i++;
                run = 0;
            }
        }
    }
    // (3) carries: segmented inclusive scan over the lanes, keyed by the row
    // each lane ends in (non-decreasing over the lanes).
    const acc_t sc = warp_seg_scan(run, i, lane);
    // Lane l - 1 ends in the row lane l starts in: its scan is l's prefix.
    const acc_t before = __shfl_up_sync(kFull, sc, 1);
    const acc_t tail = __shfl_sync(kFull, sc, 31);
    bool first = true;
#pragma unroll
    for (int k = 0; k < kK; k++)
        if (drow[k] >= 0 && first) {
            first = false;
            if (lane > 0 && drow[k] == i_start)
                done[k] = before + done[k];
        }
    __syncwarp(); // every lane is done reading the stage
#pragma unroll
    for (int k = 0; k < kK; k++)
        if (drow[k] >= 0)
            s.prod[drow[k]] = done[k];
    __syncwarp();
    // (4) closed rows; local row 0 of a warp with a head piece is left to
    // the crossing row's last warp.
    const int ct = __ldg(L.w_cross + 2 * w), ch = __ldg(L.w_cross + 2 * w + 1);
    for (int r = lane; r < alen; r += 32)
        if (r > 0 || ch < 0)
            V::store(y, r0 + r, s.prod[r]);
    if (ct < 0 && ch < 0)
        return;
    cross_pieces<V, true>(L, y, w, ct, ch, tail, s.prod[0], lane);
}

template <typename V>
__global__ void __launch_bounds__(DASP_BLOCK_THREADS) dasp_bal_kernel(const dasp_bal_launch L, const void *xv, void *yv)
{
    __shared__ BalStage<V> stage[kWarps];
    const int64_t w = (int64_t)blockIdx.x * kWarps + (threadIdx.x >> 5);
    if (w >= L.warps)
        return;
    bal_warp<V>(L, static_cast<const typename V::val_t *>(xv), static_cast<typename V::val_t *>(yv), w,
                threadIdx.x & 31, stage[threadIdx.x >> 5]);
}

} // namespace

extern "C" int dasp_bal_spmv_launch(const dasp_bal_launch *L, const void *x, void *y, void *stream)
{
    return bal_launch(L, stream, [&](unsigned b, cudaStream_t s) {
        if (L->f16)
            dasp_bal_kernel<F16><<<b, DASP_BLOCK_THREADS, 0, s>>>(*L, x, y);
        else
            dasp_bal_kernel<F64><<<b, DASP_BLOCK_THREADS, 0, s>>>(*L, x, y);
    });
}
