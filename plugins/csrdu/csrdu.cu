// csrdu tiles kernel (`kernel = tiles`): one warp a task (row tile or row
// piece), columns decoded in registers from a per-chunk base; the combine
// kernel for split rows of both kernels; the launcher of both.
#include <cuda_runtime.h>

#include <stdint.h>

#include "csrdu.h"
#include "../common/launch.cuh"
#include "csrdu_device.cuh"

namespace {

using csrdu_gpu::values_of;

// Entry k's column: base of its chunk plus the stored offset, or (escaped
// chunk) the high bits from the side array joined to the offset's bits.
template <typename OffT, typename HiT>
__device__ __forceinline__ int32_t col_at(const int32_t *__restrict__ base, const OffT *__restrict__ off,
                                          const HiT *__restrict__ hi, int64_t k)
{
    int32_t b = __ldg(base + (k >> 5));
    uint32_t o = __ldg(off + k);
    uint32_t h = b < 0 ? (uint32_t)__ldg(hi + csrdu_hi_index(b, k)) : 0u;
    return csrdu_decode(b, o, h, 8 * (int)sizeof(OffT));
}

template <typename V, typename A> __device__ __forceinline__ A load_val(const V &v, int64_t k)
{
    return (A)v(k);
}

template <typename A> __device__ __forceinline__ A fma_acc(A a, A b, A c) { return fma(a, b, c); }

// V: stored value type; A: x, y and arithmetic type; J: entries per lane of
// a row tile (tile = 32 J). Every load of a batch is issued before any x
// gather and any multiply, so a warp keeps 32 J entries in flight.
template <typename V, typename A, typename OffT, typename HiT, int J>
__global__ void __launch_bounds__(32 * CSRDU_WARPS)
    csrdu_main(int32_t ntasks, const csrdu_task *__restrict__ tasks, const int32_t *__restrict__ row_ptr,
               V val, const OffT *__restrict__ off, const int32_t *__restrict__ base,
               const HiT *__restrict__ hi, int lanes, A *__restrict__ partial, const A *__restrict__ x,
               A *__restrict__ y)
{
    __shared__ A stage[CSRDU_WARPS][32 * J];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int64_t t = (int64_t)blockIdx.x * CSRDU_WARPS + warp;
    if (t >= ntasks) // the whole warp leaves together
        return;
    const csrdu_task tk = tasks[t];
    if (tk.r0 < 0) {
        // Row piece: lanes stride through [k0, k1); one accumulator a lane
        // (spmv_host's order), J loads in flight per batch.
        A sum = 0;
        for (int64_t k0 = (int64_t)tk.k0 + lane; k0 < tk.k1; k0 += 32 * J) {
            A a[J];
            int32_t c[J];
#pragma unroll
            for (int j = 0; j < J; j++) {
                int64_t k = k0 + 32 * j;
                bool in = k < tk.k1;
                a[j] = in ? load_val<V, A>(val, k) : A(0);
                c[j] = in ? col_at(base, off, hi, k) : -1;
            }
#pragma unroll
            for (int j = 0; j < J; j++)
                if (c[j] >= 0)
                    sum = fma_acc(a[j], __ldg(x + c[j]), sum);
        }
        for (int s = 16; s > 0; s /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, s);
        if (lane == 0) {
            if (tk.r1 < 0)
                y[~tk.r0] = sum;
            else
                partial[tk.r1] = sum;
        }
        return;
    }
    // Row tile: products of all its entries staged in shared memory with
    // coalesced loads, then `lanes` lanes a row add them up.
    A *p = stage[warp];
    const int n = tk.k1 - tk.k0;
    {
        A a[J];
        int32_t c[J];
#pragma unroll
        for (int j = 0; j < J; j++) {
            int i = lane + 32 * j;
            int64_t k = (int64_t)tk.k0 + i;
            a[j] = i < n ? load_val<V, A>(val, k) : A(0);
            c[j] = i < n ? col_at(base, off, hi, k) : -1;
        }
#pragma unroll
        for (int j = 0; j < J; j++)
            if (c[j] >= 0)
                p[lane + 32 * j] = a[j] * __ldg(x + c[j]);
    }
    __syncwarp();
    const int groups = 32 / lanes, g = lane / lanes, v = lane % lanes;
    const int32_t nrows = tk.r1 - tk.r0;
    for (int32_t first = 0; first < nrows; first += groups) { // uniform trip count: all lanes shuffle
        int32_t r = tk.r0 + first + g;
        A s = 0;
        if (first + g < nrows) {
            int b = __ldg(row_ptr + r) - tk.k0, e = __ldg(row_ptr + r + 1) - tk.k0;
            for (int i = b + v; i < e; i += lanes)
                s += p[i];
        }
        for (int w = lanes / 2; w > 0; w /= 2)
            s += __shfl_down_sync(0xffffffffu, s, w, lanes);
        if (first + g < nrows && v == 0)
            y[r] = s;
    }
}

// One block a split row: thread t adds slots t, t + 256, ..., then a tree.
template <typename A>
__global__ void __launch_bounds__(CSRDU_COMBINE_THREADS)
    csrdu_combine(const csrdu_split *__restrict__ splits, const A *__restrict__ partial, A *__restrict__ y)
{
    __shared__ A red[CSRDU_COMBINE_THREADS];
    const csrdu_split sp = splits[blockIdx.x];
    A s = 0;
    for (int32_t i = threadIdx.x; i < sp.count; i += CSRDU_COMBINE_THREADS)
        s += partial[sp.slot0 + i];
    red[threadIdx.x] = s;
    for (int w = CSRDU_COMBINE_THREADS / 2; w > 0; w /= 2) {
        __syncthreads();
        if (threadIdx.x < w)
            red[threadIdx.x] += red[threadIdx.x + w];
    }
    if (threadIdx.x == 0)
        y[sp.row] = red[0];
}

template <typename V, typename A, typename OffT, typename HiT, int J>
cudaError_t launch_main(const csrdu_dev *d, const A *x, A *y, cudaStream_t s)
{
    unsigned blocks = (unsigned)(((int64_t)d->ntasks + CSRDU_WARPS - 1) / CSRDU_WARPS);
    csrdu_main<V, A, OffT, HiT, J><<<blocks, 32 * CSRDU_WARPS, 0, s>>>(
        d->ntasks, d->tasks, d->row_ptr, values_of<V>(d), static_cast<const OffT *>(d->off), d->base,
        static_cast<const HiT *>(d->hi), d->lanes, static_cast<A *>(d->partial), x, y);
    return cudaGetLastError();
}

template <typename V, typename A, typename OffT, typename HiT>
cudaError_t by_tile(const csrdu_dev *d, const A *x, A *y, cudaStream_t s)
{
    switch (d->tile) {
    case 128: return launch_main<V, A, OffT, HiT, 4>(d, x, y, s);
    case 256: return launch_main<V, A, OffT, HiT, 8>(d, x, y, s);
    default: return launch_main<V, A, OffT, HiT, 16>(d, x, y, s);
    }
}

template <typename V, typename A>
cudaError_t by_index(const csrdu_dev *d, const void *x, void *y, cudaStream_t s)
{
    const A *xa = static_cast<const A *>(x);
    A *ya = static_cast<A *>(y);
    // hi_bytes 0 (no escapes) takes the uint8 kernel: hi is never read.
    if (d->off_bytes == 1)
        return d->hi_bytes == 2 ? by_tile<V, A, uint8_t, uint16_t>(d, xa, ya, s) : by_tile<V, A, uint8_t, uint8_t>(d, xa, ya, s);
    return d->hi_bytes == 2 ? by_tile<V, A, uint16_t, uint16_t>(d, xa, ya, s) : by_tile<V, A, uint16_t, uint8_t>(d, xa, ya, s);
}

// The tiles kernel's launch for by_values.
struct TilesLaunch {
    template <typename V, typename A> static cudaError_t run(const csrdu_dev *d, const void *x, void *y, cudaStream_t s)
    {
        return by_index<V, A>(d, x, y, s);
    }
};

template <typename A> cudaError_t combine(const csrdu_dev *d, void *y, cudaStream_t s)
{
    csrdu_combine<A><<<(unsigned)d->nsplits, CSRDU_COMBINE_THREADS, 0, s>>>(d->splits, static_cast<const A *>(d->partial),
                                                                          static_cast<A *>(y));
    return cudaGetLastError();
}

} // namespace

// The main kernel of its kind; after the tiles kernel, the combine of split
// rows (its partial sums are in the run's dtype: f32 only for an f32 run).
// The stream and vector kernels add their split rows themselves.
extern "C" int csrdu_launch(const csrdu_dev *d, const void *x, void *y, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    cudaError_t e = cudaSuccess;
    if (d->kernel == CSRDU_K_VECTOR)
        e = static_cast<cudaError_t>(csrdu_launch_vector(d, x, y, stream));
    else if (d->kernel == CSRDU_K_STREAM)
        e = static_cast<cudaError_t>(csrdu_launch_stream(d, x, y, stream));
    else if (d->ntasks > 0)
        e = csrdu_gpu::by_values<TilesLaunch>(d, x, y, s);
    if (e != cudaSuccess || d->nsplits == 0 || d->kernel != CSRDU_K_TILES)
        return e;
    return d->vmode == CSRDU_V_F32 ? combine<float>(d, y, s) : combine<double>(d, y, s);
}

SPMVLAB_CUDA_ERROR_STRING(csrdu)
