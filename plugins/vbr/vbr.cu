// vbr kernels. Block part: a warp per slice of 32 block-part rows, lane i
// on row i. At step t every lane whose row is longer than t takes that
// row's t-th entry; the slice's values of step t lie together in lane
// order, so a lane's value is at the step's offset plus its rank among the
// running lanes (a ballot and a population count, no index load) and a
// warp's loads of one step are consecutive words. A lane's column comes
// from its block: the next column within the block, else the next block's
// start, fetched one block ahead so the x loads rarely wait for it. The h
// lanes of a block row read the same x at each step, served by one load.
// Why not a warp per block row: with blocks of 2 to 6 rows a lane must find
// the block of each value (a search per value) and a block row of 2 rows
// fills few lanes. Remainder (vector): W lanes per row striding through it
// and a shuffle-down tree (vector CSR), beside the block kernel. Remainder
// (merge): the merge-path pass (../common/merge_path.cuh) over the
// remainder as a CSR of all rows writes every row of y (0 for a block-part
// row: rows are not split between the parts), then the block kernel adds
// its rows, each row a lane's, after the pass on the same stream: no
// atomics. vbr_host.c runs the same lanes in the same order.
#include <cuda_runtime.h>

#include <type_traits>

#include "vbr.h"
#include "../common/value_store.cuh"
#include "../common/launch.cuh"
#include "../common/merge_path.cuh"

namespace {

constexpr int kThreads = 128; // 4 slices per thread block: fine-grained over the SMs
// 8 blocks of 128 per SM allow 64 registers a thread, room for the value
// and x loads of all steps of an iteration before the first multiply.
constexpr int kMinBlocks = 8;
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ double vbr_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float vbr_fma(float a, float b, float c) { return fmaf(a, b, c); }

struct vbr_block_arrays {
    const int32_t *qrow, *qptr, *qblk, *bcol;
    const uint8_t *bwid;
};

// T: x, y and the arithmetic; B: the block values' functor (value_store.cuh:
// native T, float for f32 storage, codes into the table or a pattern), V
// the type it returns; U steps per iteration, their value loads issued
// together. add: y[row] += the row's sum (after the merge pass), else
// y[row] = it.
template <typename T, typename B, int U>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
vbr_slice_kernel(int32_t nq, vbr_block_arrays a, B bval, const T *__restrict__ x, T *__restrict__ y, bool add)
{
    const int lane = threadIdx.x & (VBR_WARP - 1);
    const int64_t q0 = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / VBR_WARP * VBR_WARP;
    if (q0 >= nq) // the whole warp leaves together: the ballots below see 32 lanes
        return;
    const int64_t q = q0 + lane;
    const bool live = q < nq;
    const unsigned below = (1u << lane) - 1u;
    const int32_t base = __ldg(a.qptr + q0), len = live ? __ldg(a.qptr + q + 1) - __ldg(a.qptr + q) : 0;
    int32_t k = 0, col = 0, left = 0, ncol = 0, nleft = 0;
    if (len > 0) {
        k = __ldg(a.qblk + q);
        col = __ldg(a.bcol + k);
        left = __ldg(a.bwid + k);
        if (left < len) {
            ncol = __ldg(a.bcol + k + 1);
            nleft = __ldg(a.bwid + k + 1);
        }
    }
    using V = decltype(bval(0));
    T acc = 0;
    int32_t off = base; // the first value of the step
    for (int32_t t = 0; __any_sync(kFull, t < len); t += U) {
        V v[U];
        int32_t c[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const bool run = t + u < len;
            const unsigned m = __ballot_sync(kFull, run);
            v[u] = run ? bval(off + __popc(m & below)) : V(0);
            c[u] = col;
            off += __popc(m);
            if (run) {
                if (--left > 0) {
                    col++;
                } else if (t + u + 1 < len) { // the next block, and the one after it ahead
                    k++;
                    col = ncol;
                    left = nleft;
                    if (t + u + 1 + left < len) {
                        ncol = __ldg(a.bcol + k + 1);
                        nleft = __ldg(a.bwid + k + 1);
                    }
                }
            }
        }
        T xv[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            xv[u] = t + u < len ? __ldg(x + c[u]) : T(0);
#pragma unroll
        for (int u = 0; u < U; u++)
            if (t + u < len)
                acc = vbr_fma(static_cast<T>(v[u]), xv[u], acc);
    }
    if (live) {
        T *out = y + (a.qrow ? __ldg(a.qrow + q) : q);
        *out = add ? *out + acc : acc;
    }
}

// W lanes per remainder row; every lane of the warp takes part in the
// shuffles, rows or not.
template <typename T, typename V, int W>
__global__ void __launch_bounds__(kThreads)
vbr_rem_kernel(int32_t nr, const int32_t *__restrict__ rrow, const int32_t *__restrict__ rptr,
               const int32_t *__restrict__ rcol, const V *__restrict__ rval, const T *__restrict__ x,
               T *__restrict__ y)
{
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t i = tid / W;
    const int lane = threadIdx.x % W;
    T sum = 0;
    if (i < nr)
        for (int32_t k = __ldg(rptr + i) + lane, e = __ldg(rptr + i + 1); k < e; k += W)
            sum = vbr_fma(static_cast<T>(__ldg(rval + k)), __ldg(x + __ldg(rcol + k)), sum);
#pragma unroll
    for (int s = W / 2; s > 0; s /= 2)
        sum += __shfl_down_sync(kFull, sum, s, W);
    if (i < nr && lane == 0)
        y[rrow ? __ldg(rrow + i) : i] = sum;
}

unsigned grid_for(int64_t threads) { return (unsigned)((threads + kThreads - 1) / kThreads); }

// The block part with the block values' functor B.
template <typename T, typename B>
cudaError_t launch_blocks_with(const vbr_fmt *f, B bval, const T *x, T *y, bool add, cudaStream_t s)
{
    const vbr_block_arrays a = {f->d_qrow, f->d_qptr, f->d_qblk, f->d_bcol, f->d_bwid};
    const unsigned grid = grid_for(((int64_t)f->nq + VBR_WARP - 1) / VBR_WARP * VBR_WARP);
    if (f->steps == 2)
        vbr_slice_kernel<T, B, 2><<<grid, kThreads, 0, s>>>(f->nq, a, bval, x, y, add);
    else if (f->steps == 8)
        vbr_slice_kernel<T, B, 8><<<grid, kThreads, 0, s>>>(f->nq, a, bval, x, y, add);
    else
        vbr_slice_kernel<T, B, 4><<<grid, kThreads, 0, s>>>(f->nq, a, bval, x, y, add);
    return cudaGetLastError();
}

// The block part: values stored as V (f32 storage), else by the value store.
template <typename T, typename V>
cudaError_t launch_blocks(const vbr_fmt *f, const T *x, T *y, bool add, cudaStream_t s)
{
    if constexpr (!std::is_same<T, V>::value)
        return launch_blocks_with<T>(f, native_values<V>{static_cast<const V *>(f->d_bval)}, x, y, add, s);
    else
        return with_values<T>(&f->vs, f->d_bval,
                              [&](auto bval) { return launch_blocks_with<T>(f, bval, x, y, add, s); });
}

template <typename T, typename V>
cudaError_t launch_rem(const vbr_fmt *f, const T *x, T *y, cudaStream_t s)
{
    const unsigned grid = grid_for((int64_t)f->nr * f->rem_lanes);
    const V *rval = static_cast<const V *>(f->d_rval);
    with_lanes<VBR_WARP>(f->rem_lanes, [&](auto lanes) {
        vbr_rem_kernel<T, V, decltype(lanes)::value>
            <<<grid, kThreads, 0, s>>>(f->nr, f->d_rrow, f->d_rptr, f->d_rcol, rval, x, y);
    });
    return cudaGetLastError();
}

// Vector: the two parts write disjoint rows of y, so their order does not
// matter. Merge: the pass writes every row first, then the block kernel adds.
template <typename T, typename V>
cudaError_t launch_stored(const vbr_fmt *f, const T *x, T *y, cudaStream_t s)
{
    if (f->rem_merge) {
        const cudaError_t e = merge_path_launch<T, V>(&f->mdev, x, y, s);
        return e == cudaSuccess && f->nq > 0 ? launch_blocks<T, V>(f, x, y, true, s) : e;
    }
    cudaError_t e = f->nq > 0 ? launch_blocks<T, V>(f, x, y, false, s) : cudaSuccess;
    if (e == cudaSuccess && f->nr > 0)
        e = launch_rem<T, V>(f, x, y, s);
    return e;
}

template <typename T>
cudaError_t launch_typed(const vbr_fmt *f, const T *x, T *y, cudaStream_t s)
{
    if (f->store_f32)
        return launch_stored<T, float>(f, x, y, s);
    return launch_stored<T, T>(f, x, y, s);
}

} // namespace

// y = A x; nothing to launch without rows (a matrix with rows but no
// entries still launches: every row is written as 0).
SPMVLAB_TYPED_LAUNCHER(vbr_launch, vbr_fmt, f->rows > 0)

SPMVLAB_CUDA_ERROR_STRING(vbr)
