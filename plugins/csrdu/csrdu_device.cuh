// csrdu device helpers of the vector and stream kernels: a column decoded
// from its chunk's base and offset (escapes included), and the row piece of
// one warp, which both kernels run for their long rows.
#ifndef SPMVLAB_CSRDU_DEVICE_CUH
#define SPMVLAB_CSRDU_DEVICE_CUH

#include <cuda_runtime.h>

#include <stdint.h>

#include "csrdu.h"
#include "../common/last_piece.cuh"
#include "../common/value_store.cuh"

namespace csrdu_gpu {

constexpr unsigned kFull = 0xffffffffu;

// Entry k's column, in two steps so that a batch of entries issues all its
// loads before any of them is looked at: load() reads the chunk's base and
// the offset (no branch), decode() joins them, reading an escaped chunk's
// high bits (base < 0) at their stored width, chosen at run time (escaped
// chunks are the minority that takes the branch). A branch on a loaded
// base between the loads of two entries would make every entry wait for
// the previous one's base: one memory round trip an entry.
template <typename OffT> struct cols {
    const OffT *off;
    const int32_t *base;
    const void *hi;
    int hi_bytes;
    __device__ __forceinline__ void load(int32_t k, int32_t &b, uint32_t &o) const
    {
        b = __ldg(base + (k >> 5));
        o = __ldg(off + k);
    }
    __device__ __forceinline__ int32_t decode(int32_t k, int32_t b, uint32_t o) const
    {
        uint32_t h = 0;
        if (b < 0) {
            const int64_t i = csrdu_hi_index(b, k);
            h = hi_bytes == 1 ? __ldg(static_cast<const uint8_t *>(hi) + i) : __ldg(static_cast<const uint16_t *>(hi) + i);
        }
        return csrdu_decode(b, o, h, 8 * (int)sizeof(OffT));
    }
};

// Where split rows' pieces meet in the kernel that runs them: a partial
// sum a piece (partial[task.r1]), and a counter of finished pieces a split
// row (count, 0 between launches); the warp that finishes a row's last
// piece adds the row (combine_row).
template <typename A> struct split_sink {
    A *partial;
    const csrdu_split *__restrict__ splits;
    int32_t nsplits;
    int32_t *count;
};

// The split row whose slots hold `slot` (splits in slot order).
__device__ __forceinline__ int32_t split_of(const csrdu_split *__restrict__ splits, int32_t nsplits, int32_t slot)
{
    int32_t lo = 0, hi = nsplits - 1;
    while (lo < hi) {
        const int32_t mid = (lo + hi + 1) >> 1;
        if (__ldg(&splits[mid].slot0) <= slot)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// Split row sp's sum on lane 0, in the combine kernel's order: thread t of
// CSRDU_COMBINE_THREADS adds slots t, t + threads, ... from 0, then the
// block's halving tree. Lane l plays threads l, l + 32, ...: the tree's
// steps above 32 are additions between a lane's registers, the rest
// shuffles, so every addition has the same operands in the same order.
template <typename A>
__device__ __forceinline__ A combine_row(const A *partial, csrdu_split sp, int lane)
{
    constexpr int M = CSRDU_COMBINE_THREADS / 32;
    A r[M];
#pragma unroll
    for (int m = 0; m < M; m++) {
        A s = 0;
        for (int32_t i = lane + 32 * m; i < sp.count; i += CSRDU_COMBINE_THREADS)
            s += __ldcg(partial + sp.slot0 + i); // L2: written in this kernel
        r[m] = s;
    }
#pragma unroll
    for (int w = M / 2; w > 0; w /= 2)
#pragma unroll
        for (int m = 0; m < w; m++)
            r[m] += r[m + w];
    A t = r[0];
    for (int w = 16; w > 0; w /= 2)
        t += __shfl_down_sync(kFull, t, w);
    return t;
}

// Row piece: entries [k0, k1) strided over the 32 lanes, J loads a lane in
// flight per batch, one fma chain a lane in entry order, then the warp's
// shuffle tree (spmv_host's order). A whole row is written at once; a
// split row's piece stores its partial sum, and the warp that finishes the
// row's last piece adds them (combine_row).
template <typename V, typename A, typename OffT>
__device__ __forceinline__ void row_piece(const csrdu_task tk, int lane, V val, cols<OffT> ix,
                                          const split_sink<A> &sink, const A *__restrict__ x, A *__restrict__ y)
{
    constexpr int J = CSRDU_PIECE_J;
    A sum = 0;
    for (int64_t k0 = (int64_t)tk.k0 + lane; k0 < tk.k1; k0 += 32 * J) {
        A a[J], xv[J];
        int32_t b[J], c[J];
        uint32_t o[J];
#pragma unroll
        for (int j = 0; j < J; j++) { // every load of the batch first
            const int64_t k = k0 + 32 * j;
            a[j] = A(0);
            b[j] = 0;
            o[j] = 0;
            if (k < tk.k1) {
                a[j] = (A)val(k);
                ix.load((int32_t)k, b[j], o[j]);
            }
        }
#pragma unroll
        for (int j = 0; j < J; j++)
            c[j] = k0 + 32 * j < tk.k1 ? ix.decode((int32_t)(k0 + 32 * j), b[j], o[j]) : -1;
#pragma unroll
        for (int j = 0; j < J; j++)
            xv[j] = c[j] >= 0 ? __ldg(x + c[j]) : A(0);
#pragma unroll
        for (int j = 0; j < J; j++)
            if (c[j] >= 0)
                sum = fma(a[j], xv[j], sum);
    }
    for (int s = 16; s > 0; s /= 2)
        sum += __shfl_down_sync(kFull, sum, s);
    if (tk.r1 < 0) {
        if (lane == 0)
            y[~tk.r0] = sum;
        return;
    }
    int32_t id = 0;
    if (lane == 0)
        id = split_of(sink.splits, sink.nsplits, tk.r1);
    id = __shfl_sync(kFull, id, 0);
    const csrdu_split sp = sink.splits[id];
    if (!last_piece_done(sink.partial, tk.r1, sum, sink.count, id, sp.count))
        return;
    const A row = combine_row<A>(sink.partial, sp, lane);
    if (lane == 0) {
        y[sp.row] = row;
        sink.count[id] = 0;
    }
}

// The values functor V (value_store.cuh) over d's stored values: the
// values themselves, their codes into d's table, or the pattern's value.
template <typename V> struct values_from;
template <typename T> struct values_from<native_values<T>> {
    static native_values<T> of(const csrdu_dev *d) { return {static_cast<const T *>(d->val)}; }
};
template <typename T, typename C> struct values_from<coded_values<T, C>> {
    static coded_values<T, C> of(const csrdu_dev *d)
    {
        return {static_cast<const C *>(d->val), static_cast<const T *>(d->vs->d_table)};
    }
};
template <typename T> struct values_from<pattern_values<T>> {
    static pattern_values<T> of(const csrdu_dev *d)
    {
        T v;
        memcpy(&v, d->vs->pattern, sizeof v);
        return {v};
    }
};
template <typename V> V values_of(const csrdu_dev *d) { return values_from<V>::of(d); }

// K::run<V, A>(d, x, y, s) with the format's types: the values functor V
// by vmode and storage (f32 values widened to f64 as loaded; codes or a
// pattern in the run's type), sums A by vmode.
template <typename K, typename T, typename A>
cudaError_t by_storage(const csrdu_dev *d, const void *x, void *y, cudaStream_t s)
{
    switch (d->vs->kind) {
    case SPMVLAB_STORE_CODES8: return K::template run<coded_values<T, uint8_t>, A>(d, x, y, s);
    case SPMVLAB_STORE_CODES16: return K::template run<coded_values<T, uint16_t>, A>(d, x, y, s);
    case SPMVLAB_STORE_PATTERN: return K::template run<pattern_values<T>, A>(d, x, y, s);
    default: return K::template run<native_values<T>, A>(d, x, y, s);
    }
}
template <typename K> cudaError_t by_values(const csrdu_dev *d, const void *x, void *y, cudaStream_t s)
{
    switch (d->vmode) {
    case CSRDU_V_F64: return by_storage<K, double, double>(d, x, y, s);
    case CSRDU_V_F32: return by_storage<K, float, float>(d, x, y, s);
    default: return K::template run<native_values<float>, double>(d, x, y, s);
    }
}

// K::run<V, A, OffT>(d, x, y, s): by_values, then column offsets OffT by
// off_bytes.
template <typename K> struct with_offsets {
    template <typename V, typename A> static cudaError_t run(const csrdu_dev *d, const void *x, void *y, cudaStream_t s)
    {
        return d->off_bytes == 1 ? K::template run<V, A, uint8_t>(d, x, y, s) : K::template run<V, A, uint16_t>(d, x, y, s);
    }
};
template <typename K> cudaError_t by_types(const csrdu_dev *d, const void *x, void *y, void *stream)
{
    return by_values<with_offsets<K>>(d, x, y, static_cast<cudaStream_t>(stream));
}

} // namespace csrdu_gpu

#endif
