// DASP balanced path: what the merge kernel (dasp_balanced.cu) and the
// stream kernel (dasp_stream.cu) share: the crossing rows' pieces, summed
// by the last warp to arrive, and the launch of one warp per piece of work.
#ifndef SPMVLAB_DASP_CROSS_CUH
#define SPMVLAB_DASP_CROSS_CUH

#include <climits>

#include "dasp_mma.cuh"

namespace {

// The warp's pieces of its crossing rows (ct: the row it leaves open, a
// tail piece; ch: the row it closes, begun earlier, a head piece; -1 none),
// written by lane 0 and counted per row; the warp that brings a row's count
// to its number of warps adds the tail pieces in warp order (lane l takes
// pieces l, l + 32, ..., then a shuffle tree) and the head, stores y and
// resets the count. Fence (the merge kernel, round 1): __threadfence()
// orders a piece before its count and the pieces are read through L2;
// otherwise a release count and strong loads (no L1 invalidation).
template <typename V, bool Fence>
__device__ __forceinline__ void cross_pieces(const dasp_bal_launch &L, typename V::val_t *y, int64_t w, int ct,
                                             int ch, typename V::acc_t tail, typename V::acc_t head, int lane)
{
    using acc_t = typename V::acc_t;
    acc_t *tails = static_cast<acc_t *>(L.tail), *heads = static_cast<acc_t *>(L.head);
    int last_t = 0, last_h = 0;
    if (lane == 0) {
        if (ct >= 0)
            tails[w] = tail;
        if (ch >= 0)
            heads[ch] = head;
        if constexpr (Fence)
            __threadfence(); // the pieces are visible before the counts say so
        // One more piece of row c; 1 when it was the last.
        auto arrive = [&](int c) {
            const int got = Fence ? atomicAdd(L.count + c, 1) : count_release(L.count + c);
            return got == __ldg(L.x_w1 + c) - __ldg(L.x_w0 + c);
        };
        if (ct >= 0)
            last_t = arrive(ct);
        if (ch >= 0)
            last_h = arrive(ch);
    }
    last_t = __shfl_sync(kFull, last_t, 0);
    last_h = __shfl_sync(kFull, last_h, 0);
#pragma unroll
    for (int q = 0; q < 2; q++) {
        const int c = q == 0 ? ch : ct;
        if (!(q == 0 ? last_h : last_t))
            continue;
        if constexpr (Fence)
            __threadfence();
        const int w0 = __ldg(L.x_w0 + c), w1 = __ldg(L.x_w1 + c);
        acc_t p = 0;
        if constexpr (Fence) {
            for (int t = w0 + lane; t < w1; t += 32)
                p += __ldcg(tails + t);
        } else {
            p = lane_pieces(tails + w0, w1 - w0, lane);
        }
        p = warp_sum(p);
        if (lane == 0) {
            V::store(y, __ldg(L.x_row + c), p + (Fence ? __ldcg(heads + c) : ld_strong(heads + c)));
            L.count[c] = 0; // ready for the next call
        }
    }
}

// Launches L's warps, L->block_warps a block, by go(blocks, stream);
// nothing without warps. Returns the cudaError_t of the launch as an int.
template <typename Go>
int bal_launch(const dasp_bal_launch *L, void *stream, Go go)
{
    if (L->warps <= 0)
        return 0;
    const int64_t blocks = (L->warps + L->block_warps - 1) / L->block_warps;
    if (blocks > INT_MAX)
        return (int)cudaErrorInvalidConfiguration;
    go((unsigned)blocks, static_cast<cudaStream_t>(stream));
    return (int)cudaGetLastError();
}

} // namespace

#endif // SPMVLAB_DASP_CROSS_CUH
