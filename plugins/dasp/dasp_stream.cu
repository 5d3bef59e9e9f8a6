// DASP balanced path, stream kernel (bal_kernel = stream): every row as CSR
// on the CUDA cores, the non-zeros cut into tiles of S = 32 K, one
// warp each, so every warp streams the same bytes however the rows are
// shaped. dasp_host_impl.h (host_stream) runs the same steps.
//
// The merge-path kernel (dasp_balanced.cu) stages products and row ends in
// shared memory, searches each lane's start there and walks 7 items; its
// warps hold few loads in flight and spend most of their time in the
// searches and shared-memory round trips. Here the conversion stores each
// tile in the lanes' load order, so lane l holds its K (stream_k, 8 or 16)
// consecutive non-zeros after K*V/16 + K/4 16-byte loads (every load of a
// warp covers 512 consecutive bytes), and it stores each lane's first row,
// so no search is needed:
//  (1) all value and column loads, the lane's first row and that row's end,
//      then the K gathers of x: everything in flight before any arithmetic;
//  (2) the lane walks its items in order, a*x + sum fused, against the ends
//      of its next four rows, loaded with the tile (a row end it passes
//      closes the row and loads the end four rows on, from L1 as a rule:
//      the lanes' rows are adjacent). The first row a lane closes waits for
//      the carry; the others are stored;
//  (3) one segmented scan over the lanes, keyed by the row each lane ends
//      in, gives each lane's first closed row the sums of the lanes before
//      it (lane l - 1 always ends in the row lane l starts in);
//  (4) crossing rows as in the merge kernel: the warp's open row at its end
//      is a tail piece, its first row begun in an earlier warp a head
//      piece; the last warp to arrive (atomic counter) adds them in order.
//      The counter is a release atomic and the last warp reads the pieces
//      with strong loads from L2: the merge kernel's __threadfence() in
//      every crossing warp also invalidates the SM's L1 (CCTL.IVALL on
//      sm_90), dropping the x lines of every warp on the SM.
#include <climits>

#include "dasp_cross.cuh"

namespace {

template <typename V, int kK>
__device__ __forceinline__ void str_warp(const dasp_bal_launch &L, const typename V::val_t *x,
                                         typename V::val_t *y, int64_t w, int lane)
{
    using val_t = typename V::val_t;
    using acc_t = typename V::acc_t;
    constexpr int kVC = kK * (int)sizeof(val_t) / 16; // 16-byte value chunks a lane
    constexpr int kCC = kK / 4;                        // 16-byte column chunks a lane
    static_assert(kVC >= 1 && kK % 4 == 0, "a lane's values and columns are whole 16-byte chunks");
    const int64_t t0 = w * 32 * kK;
    const uint4 *vp = reinterpret_cast<const uint4 *>(static_cast<const val_t *>(L.val) + t0);
    const uint4 *cp = reinterpret_cast<const uint4 *>(L.col + t0);
    // (1) loads: chunk c of lane l at 16-byte index 32 c + l.
    union {
        uint4 q[kVC];
        val_t v[kK];
    } vb;
    union {
        uint4 q[kCC];
        int c[kK];
    } cb;
#pragma unroll
    for (int c = 0; c < kVC; c++)
        vb.q[c] = __ldcs(vp + 32 * c + lane);
#pragma unroll
    for (int c = 0; c < kCC; c++)
        cb.q[c] = __ldcs(cp + 32 * c + lane);
    const int rows = L.rows;
    const int rs = __ldg(L.lane_row + 32 * w + lane);
    int r = rs;
    // The ends of the lane's next four rows, loaded with the tile: a lane
    // rarely closes more, so the walk seldom waits on a row end; each close
    // shifts them and loads the end three rows further on.
    int e = r < rows ? __ldg(L.row_ptr + r + 1) : INT_MAX;
    int e1 = r + 1 < rows ? __ldg(L.row_ptr + r + 2) : INT_MAX;
    int e2 = r + 2 < rows ? __ldg(L.row_ptr + r + 3) : INT_MAX;
    int e3 = r + 3 < rows ? __ldg(L.row_ptr + r + 4) : INT_MAX;
    const int64_t a = t0 + (int64_t)lane * kK;
    const int nk = a >= L.nnz ? 0 : L.nnz - a < kK ? (int)(L.nnz - a) : kK;
    acc_t xv[kK];
#pragma unroll
    for (int k = 0; k < kK; k++) {
        // Item k of the lane is slot (k / G, k % G) of its chunks, G = 16 / sizeof(val_t);
        // the union lays them out in exactly that order.
        xv[k] = k < nk ? V::x_at(x, cb.c[k]) : acc_t(0);
    }
    // (2) the walk.
    acc_t run = 0, first_sum = 0;
    int first_row = -1;
    // Closes every row ending at or before item j: the first one waits for
    // the carry, the others are stored; the row ends shift by one each.
    auto close_rows = [&](int64_t j) {
        while (e <= j) {
            if (first_row < 0)
                first_row = r, first_sum = run;
            else
                V::store(y, r, run);
            run = 0;
            r++;
            e = e1, e1 = e2, e2 = e3;
            e3 = r + 3 < rows ? __ldg(L.row_ptr + r + 4) : INT_MAX;
        }
    };
#pragma unroll
    for (int k = 0; k < kK; k++) {
        if (k < nk) {
            close_rows((int)(a + k));
            run = V::fma(V::acc(vb.v[k]), xv[k], run);
        }
    }
    close_rows(a + nk); // rows ending at the lane's end, empty ones there included
    // (3) carries: segmented inclusive scan keyed by the row each lane ends in.
    const acc_t sc = warp_seg_scan(run, r, lane);
    const acc_t before = __shfl_up_sync(kFull, sc, 1);
    const acc_t tail = __shfl_sync(kFull, sc, 31);
    if (lane > 0)
        first_sum = before + first_sum;
    // (4) the first closed row; the warp's first row is a head piece when it
    // began in an earlier warp.
    const int r0 = __shfl_sync(kFull, rs, 0);
    const int ct = __ldg(L.w_cross + 2 * w), ch = __ldg(L.w_cross + 2 * w + 1);
    const bool is_head = first_row >= 0 && first_row == r0 && ch >= 0;
    if (first_row >= 0 && !is_head)
        V::store(y, first_row, first_sum);
    if (ct < 0 && ch < 0)
        return;
    const unsigned hm = __ballot_sync(kFull, is_head);
    const acc_t head = __shfl_sync(kFull, first_sum, hm ? __ffs(hm) - 1 : 0);
    // Release counts (count_release): no fence and no L1 invalidation in
    // every crossing warp, as __threadfence() costs the merge kernel.
    cross_pieces<V, false>(L, y, w, ct, ch, tail, head, lane);
}

template <typename V, int K>
__global__ void __launch_bounds__(DASP_BLOCK_THREADS) dasp_str_kernel(const dasp_bal_launch L, const void *xv, void *yv)
{
    const int64_t w = (int64_t)blockIdx.x * L.block_warps + (threadIdx.x >> 5);
    if (w >= L.warps)
        return;
    str_warp<V, K>(L, static_cast<const typename V::val_t *>(xv), static_cast<typename V::val_t *>(yv), w,
                threadIdx.x & 31);
}

} // namespace

extern "C" int dasp_str_spmv_launch(const dasp_bal_launch *L, const void *x, void *y, void *stream)
{
    return bal_launch(L, stream, [&](unsigned b, cudaStream_t s) {
        const bool k16 = L->str_k == 16;
        if (L->f16 && k16)
            dasp_str_kernel<F16, 16><<<b, L->block_warps * 32, 0, s>>>(*L, x, y);
        else if (L->f16)
            dasp_str_kernel<F16, 8><<<b, L->block_warps * 32, 0, s>>>(*L, x, y);
        else if (k16)
            dasp_str_kernel<F64, 16><<<b, L->block_warps * 32, 0, s>>>(*L, x, y);
        else
            dasp_str_kernel<F64, 8><<<b, L->block_warps * 32, 0, s>>>(*L, x, y);
    });
}
