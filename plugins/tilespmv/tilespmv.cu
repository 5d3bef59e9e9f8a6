// tilespmv kernel: one warp per chunk (tilespmv.h, tilespmv_plan.c). In a
// tile chunk half-warp h takes tiles h, h + 2, ... of the chunk and lane i
// of the half row i of each tile, so one accumulator per lane suffices.
// Per kind (README.md, Layout):
//  - ELL, HYB's ELL part, dense and dense columns are column-major: the 16
//    lanes of a half read 16 consecutive values and index bytes.
//  - CSR: lane i walks its row from the tile's 8-bit row starts.
//  - COO and HYB's tail: lane k loads entry k (16 at a time, with its x),
//    then the half walks them by shuffles and each lane keeps its row's, so
//    no lane waits on a load per entry.
//  - dense rows: the lane whose row is listed walks its 16 values.
// A half's tile metadata (offsets, column, kind) is loaded for 16 tiles at
// once, a tile a lane, and handed out by shuffles, so a tile's own loads
// start without waiting on its metadata.
// Fused path: WHOLE chunks then sum their rows' deferred CSR entries,
// `Lanes` lanes a row, and write y once; PIECE and DEFERRED chunks (split
// tile rows, zeroed first) add atomically. Merge path: the merge-path pass
// (../common/merge_path.cuh) writes the deferred part into every row of y
// first, on the same stream; a WHOLE chunk, the only warp of its rows, then
// adds its tiles with a plain y += and PIECE chunks add atomically. x of a
// column past the matrix is never read: loops stop at the tile's last
// column, padding columns index column 0 of the tile. tilespmv_host.c runs
// the same lanes in the same order.
#include <cuda_runtime.h>

#include "tilespmv.h"
#include "../common/launch.cuh"
#include "../common/merge_path.cuh"

namespace {

constexpr int kThreads = 128; // 4 chunks per thread block
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ double tile_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float tile_fma(float a, float b, float c) { return fmaf(a, b, c); }

template <typename T>
struct tile_args {
    int32_t nchunks, rows, cols, ndef;
    const int4 *chunk;
    const int32_t *tcol, *voff, *ioff;
    const uint8_t *kind, *param, *idx;
    const T *val;
    const int32_t *dptr, *dcol;
    const T *dval;
    const T *x;
    T *y;
};

// One tile's metadata, as a half hands it out.
struct tile_meta {
    int32_t v0, n, c0, i0, kind_param;
};

// Row i's share of n COO entries (rc = row << 4 | column) at v / ix of a
// tile whose x starts at xt, added to acc in entry order. Only the lanes of
// the half in hmask run this.
template <typename T>
__device__ __forceinline__ T coo_sum(const T *v, const uint8_t *ix, int n, int i, const T *xt, unsigned hmask,
                                     T acc)
{
    for (int b = 0; b < n; b += TILE) {
        int rc = -1;
        T vk = 0, xk = 0;
        if (b + i < n) {
            rc = __ldg(ix + b + i);
            vk = __ldg(v + b + i);
            xk = __ldg(xt + (rc & 15));
        }
        const int m = n - b < TILE ? n - b : TILE;
        for (int q = 0; q < m; q++) {
            const int r = __shfl_sync(hmask, rc, q, TILE);
            const T a = __shfl_sync(hmask, vk, q, TILE), xv = __shfl_sync(hmask, xk, q, TILE);
            if (r >> 4 == i)
                acc = tile_fma(a, xv, acc);
        }
    }
    return acc;
}

// Row i's share of the tile described by t added to acc, by its kind.
template <typename T>
__device__ __forceinline__ T tile_row_sum(const tile_meta &t, int i, unsigned hmask, const tile_args<T> &a, T acc)
{
    const T *v = a.val + t.v0, *xt = a.x + t.c0;
    const uint8_t *ix = a.idx + t.i0;
    const int p = t.kind_param >> 8, ncol = a.cols - t.c0 < TILE ? a.cols - t.c0 : TILE;
    switch (t.kind_param & 0xff) {
    case TILE_CSR: {
        const int e = i < TILE - 1 ? __ldg(ix + i + 1) : t.n;
        for (int k = __ldg(ix + i); k < e; k++)
            acc = tile_fma(__ldg(v + k), __ldg(xt + __ldg(ix + TILE + k)), acc);
        break;
    }
    case TILE_ELL:
        for (int k = 0; k < p; k++)
            acc = tile_fma(__ldg(v + k * TILE + i), __ldg(xt + __ldg(ix + k * TILE + i)), acc);
        break;
    case TILE_HYB:
        for (int k = 0; k < p; k++)
            acc = tile_fma(__ldg(v + k * TILE + i), __ldg(xt + __ldg(ix + k * TILE + i)), acc);
        acc = coo_sum(v + TILE * p, ix + TILE * p, t.n - TILE * p, i, xt, hmask, acc);
        break;
    case TILE_COO:
        acc = coo_sum(v, ix, t.n, i, xt, hmask, acc);
        break;
    case TILE_DENSE:
#pragma unroll 4
        for (int j = 0; j < ncol; j++)
            acc = tile_fma(__ldg(v + j * TILE + i), __ldg(xt + j), acc);
        break;
    case TILE_DNSROW:
        for (int k = 0; k < p; k++)
            if (__ldg(ix + k) == i)
                for (int j = 0; j < ncol; j++)
                    acc = tile_fma(__ldg(v + k * TILE + j), __ldg(xt + j), acc);
        break;
    default: // TILE_DNSCOL
        for (int k = 0; k < p; k++)
            acc = tile_fma(__ldg(v + k * TILE + i), __ldg(xt + __ldg(ix + k)), acc);
    }
    return acc;
}

// This lane's half's sum over tiles [g0, g1) (its tiles g0 + h, g0 + h + 2,
// ...). Every lane of the warp calls it: the metadata shuffles are the
// whole warp's; a half with no tile left skips only the tile's work.
template <typename T>
__device__ __forceinline__ T tiles_sum(int32_t g0, int32_t g1, int lane, const tile_args<T> &a)
{
    const int half = lane >> 4, i = lane & (TILE - 1);
    const unsigned hmask = 0xffffu << (lane & TILE);
    const int32_t pairs = (g1 - g0 + 1) / 2;
    T acc = 0;
    for (int32_t base = 0; base < pairs; base += TILE) {
        const int32_t mine = g0 + 2 * (base + i) + half; // the tile whose metadata this lane loads
        tile_meta own = {0, 0, 0, 0, 0};
        if (mine < g1) {
            own.v0 = __ldg(a.voff + mine);
            own.n = __ldg(a.voff + mine + 1) - own.v0;
            own.c0 = __ldg(a.tcol + mine) * TILE;
            own.i0 = __ldg(a.ioff + mine);
            own.kind_param = __ldg(a.kind + mine) | __ldg(a.param + mine) << 8;
        }
        const int m = pairs - base < TILE ? pairs - base : TILE;
        for (int q = 0; q < m; q++) {
            const int src = (lane & TILE) | q;
            tile_meta t;
            t.v0 = __shfl_sync(kFull, own.v0, src);
            t.n = __shfl_sync(kFull, own.n, src);
            t.c0 = __shfl_sync(kFull, own.c0, src);
            t.i0 = __shfl_sync(kFull, own.i0, src);
            t.kind_param = __shfl_sync(kFull, own.kind_param, src);
            if (g0 + 2 * (base + q) + half < g1)
                acc = tile_row_sum(t, i, hmask, a, acc);
        }
    }
    return acc;
}

// The deferred entries of tile row tr's rows, Lanes lanes a row, 32 / Lanes
// rows a pass: each row's lanes sum entries b + l, b + l + Lanes, ... and
// add by a butterfly; lane i (of either half) returns row i's sum.
template <typename T, int Lanes>
__device__ __forceinline__ T deferred_rows(int32_t tr, int lane, const tile_args<T> &a)
{
    constexpr int kPerPass = TILE_WARP / Lanes;
    const int i = lane & (TILE - 1);
    T mine = 0;
#pragma unroll
    for (int p = 0; p < TILE / kPerPass; p++) {
        const int64_t row = (int64_t)tr * TILE + p * kPerPass + lane / Lanes;
        T d = 0;
        if (row < a.rows)
            for (int32_t e = __ldg(a.dptr + row) + lane % Lanes, end = __ldg(a.dptr + row + 1); e < end; e += Lanes)
                d = tile_fma(__ldg(a.dval + e), __ldg(a.x + __ldg(a.dcol + e)), d);
#pragma unroll
        for (int off = Lanes / 2; off >= 1; off /= 2)
            d += __shfl_xor_sync(kFull, d, off);
        const T got = __shfl_sync(kFull, d, (i % kPerPass) * Lanes);
        if (i / kPerPass == p)
            mine = got;
    }
    return mine;
}

// ADD (merge path): y already holds the deferred part; WHOLE chunks add.
template <typename T, int Lanes, bool ADD>
__global__ void __launch_bounds__(kThreads) tilespmv_kernel(const tile_args<T> a)
{
    const int lane = threadIdx.x & (TILE_WARP - 1), i = lane & (TILE - 1);
    const int64_t c = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / TILE_WARP;
    if (c >= a.nchunks) // the whole warp leaves together: the shuffles below see 32 lanes
        return;
    const int4 ch = __ldg(a.chunk + c); // kind, tile row or row, begin, end
    if (!ADD && ch.x == CHUNK_DEFERRED) { // fused only
        T s = 0;
        for (int32_t e = ch.z + lane; e < ch.w; e += TILE_WARP)
            s = tile_fma(__ldg(a.dval + e), __ldg(a.x + __ldg(a.dcol + e)), s);
#pragma unroll
        for (int off = TILE_WARP / 2; off >= 1; off /= 2)
            s += __shfl_xor_sync(kFull, s, off);
        if (lane == 0)
            atomicAdd(a.y + ch.y, s);
        return;
    }
    T acc = tiles_sum(ch.z, ch.w, lane, a);
    acc += __shfl_xor_sync(kFull, acc, TILE);
    const int64_t row = (int64_t)ch.y * TILE + i;
    if (ch.x == CHUNK_PIECE) {
        if (lane < TILE && row < a.rows)
            atomicAdd(a.y + row, acc);
        return;
    }
    if (ADD) {
        if (lane < TILE && row < a.rows)
            a.y[row] += acc;
        return;
    }
    const T d = a.ndef > 0 ? deferred_rows<T, Lanes>(ch.y, lane, a) : T(0);
    if (lane < TILE && row < a.rows)
        a.y[row] = acc + d;
}

// The 16 rows of each split tile row set to 0, before the atomic adds.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    zero_split_rows(int32_t nsplit, const int32_t *__restrict__ split, int32_t rows, T *__restrict__ y)
{
    const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (int64_t)nsplit * TILE)
        return;
    const int64_t row = (int64_t)__ldg(split + t / TILE) * TILE + t % TILE;
    if (row < rows)
        y[row] = 0;
}

template <typename T>
cudaError_t launch_typed(const tilespmv_fmt *f, const T *x, T *y, cudaStream_t s)
{
    const bool merge = f->path == TILESPMV_DEFER_MERGE;
    if (merge) { // the deferred part into every row of y, before the tiles add
        const cudaError_t e = merge_path_launch<T>(&f->mdev, x, y, s);
        if (e != cudaSuccess)
            return e;
    } else if (f->nsplit > 0) {
        const int64_t threads = (int64_t)f->nsplit * TILE;
        zero_split_rows<T><<<(unsigned)((threads + kThreads - 1) / kThreads), kThreads, 0, s>>>(
            f->nsplit, f->d_split, f->rows, y);
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
    }
    const tile_args<T> a = {f->nchunks, f->rows,  f->cols,  f->ndef,
                            reinterpret_cast<const int4 *>(f->d_chunk),
                            f->d_tcol,    f->d_voff, f->d_ioff, f->d_kind, f->d_param, f->d_idx,
                            static_cast<const T *>(f->d_val),
                            f->d_dptr,    f->d_dcol, static_cast<const T *>(f->d_dval), x, y};
    const int64_t threads = (int64_t)f->nchunks * TILE_WARP;
    const unsigned grid = (unsigned)((threads + kThreads - 1) / kThreads);
    if (merge) { // no chunk at all when every entry is deferred
        if (f->nchunks == 0)
            return cudaSuccess;
        tilespmv_kernel<T, TILE_WARP, true><<<grid, kThreads, 0, s>>>(a);
        return cudaGetLastError();
    }
    switch (f->lanes) {
    case 2: tilespmv_kernel<T, 2, false><<<grid, kThreads, 0, s>>>(a); break;
    case 4: tilespmv_kernel<T, 4, false><<<grid, kThreads, 0, s>>>(a); break;
    case 8: tilespmv_kernel<T, 8, false><<<grid, kThreads, 0, s>>>(a); break;
    case 16: tilespmv_kernel<T, 16, false><<<grid, kThreads, 0, s>>>(a); break;
    default: tilespmv_kernel<T, 32, false><<<grid, kThreads, 0, s>>>(a); break;
    }
    return cudaGetLastError();
}

} // namespace

// y = A x; nothing to launch without rows (a matrix with rows but no
// entries still launches: every row is written as 0). On the merge path
// the merge pass writes every row, and there may be no chunk.
SPMVLAB_TYPED_LAUNCHER(tilespmv_launch, tilespmv_fmt, f->nchunks > 0 || f->mdev.tiles > 0)

SPMVLAB_CUDA_ERROR_STRING(tilespmv)
