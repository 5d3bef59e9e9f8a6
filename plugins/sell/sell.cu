/*
 * SELL-C-sigma kernels. The slice kernel writes every row of y (long rows
 * are empty in the slices and get 0); the long-row kernels then overwrite
 * the long rows. All three run on one stream, in that order.
 *
 * Slice kernel. T = threads_per_row lanes share a row; one warp covers
 * R = 32 / T consecutive sorted positions. Lane l works on position
 * warp * R + l % R and takes the slots k = t, t + T, ... of that row,
 * t = l / R. Slot k of slice row r sits at slice_ptr[s] + k * C + r, so the
 * R lanes of one t read R consecutive addresses (T = 1: the whole warp reads
 * 32 consecutive values and columns). A lane first loads SELL_UNROLL columns
 * and values, then their x (none for padding), then adds them in order: the
 * loads are independent of the data, so they are all in flight at once.
 * The T partial sums of a row meet in a __shfl_xor_sync tree and lane t = 0
 * writes y[perm[p]].
 *
 * Long rows. One warp per piece of at most SELL_PIECE entries; lane l adds
 * entries b + l, b + l + 32, ... (consecutive lanes, consecutive addresses);
 * a butterfly tree sums the warp. A row of one piece is written at once;
 * otherwise the piece's sum goes to partial[] and a warp per row adds its
 * pieces (lane l takes pieces l, l + 32, ...) and writes the row.
 *
 * spmv_host (sell_host.c) replays these operations in this order.
 */
#include <cuda_runtime.h>

#include "sell.h"

namespace {

constexpr int kBlock = 256;                      /* threads per block, whole warps */
constexpr int kWarpsPerBlock = kBlock / SELL_WARP;
constexpr int kPieceSteps = SELL_PIECE / SELL_WARP; /* entries per lane of a piece */

__device__ __forceinline__ double sell_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float sell_fma(float a, float b, float c) { return fmaf(a, b, c); }

/* Lane 0's (every lane's) sum over the lanes whose index differs in the
 * bits from R up (R = 1: the whole warp). */
template <typename V, int R>
__device__ __forceinline__ V sell_tree(V sum)
{
#pragma unroll
    for (int off = SELL_WARP / 2; off >= R; off /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, off);
    return sum;
}

template <typename V, int T>
__global__ void __launch_bounds__(kBlock)
    sell_slice_kernel(int32_t rows, int32_t C, const int32_t *__restrict__ slice_ptr,
                      const int32_t *__restrict__ perm, const int32_t *__restrict__ col,
                      const V *__restrict__ val, const V *__restrict__ x, V *__restrict__ y)
{
    constexpr int R = SELL_WARP / T;
    const int lane = threadIdx.x % SELL_WARP;
    const int t = lane / R;
    const int64_t warp = ((int64_t)blockIdx.x * kBlock + threadIdx.x) / SELL_WARP;
    const int64_t pos = warp * R + lane % R;
    const bool active = pos < rows;

    V sum = 0;
    if (active) {
        const int32_t p = (int32_t)pos, s = p / C;
        const int32_t base = __ldg(slice_ptr + s);
        const int32_t w = (__ldg(slice_ptr + s + 1) - base) / C;
        const int64_t step = (int64_t)T * C;
        int64_t i = (int64_t)base + (p - s * C) + (int64_t)t * C;
        int32_t k = t;
        for (; k + (SELL_UNROLL - 1) * T < w; k += SELL_UNROLL * T, i += SELL_UNROLL * step) {
            int32_t c[SELL_UNROLL];
            V v[SELL_UNROLL], xv[SELL_UNROLL];
#pragma unroll
            for (int u = 0; u < SELL_UNROLL; u++) {
                c[u] = __ldg(col + i + u * step);
                v[u] = __ldg(val + i + u * step);
            }
#pragma unroll
            for (int u = 0; u < SELL_UNROLL; u++)
                xv[u] = c[u] != SELL_PAD_COL ? __ldg(x + c[u]) : V(0);
#pragma unroll
            for (int u = 0; u < SELL_UNROLL; u++)
                sum = c[u] != SELL_PAD_COL ? sell_fma(v[u], xv[u], sum) : sum;
        }
        for (; k < w; k += T, i += step) {
            const int32_t c = __ldg(col + i);
            if (c != SELL_PAD_COL)
                sum = sell_fma(__ldg(val + i), __ldg(x + c), sum);
        }
    }
    /* All 32 lanes reach the tree: blocks hold whole warps and inactive
     * lanes only skip the loops above. */
    sum = sell_tree<V, R>(sum);
    if (active && t == 0)
        y[perm ? __ldg(perm + pos) : pos] = sum;
}

template <typename V>
__global__ void __launch_bounds__(kBlock)
    sell_piece_kernel(int32_t npieces, const int32_t *__restrict__ long_row,
                      const int32_t *__restrict__ long_ptr, const int32_t *__restrict__ piece_ptr,
                      const int32_t *__restrict__ piece_of, const int32_t *__restrict__ col,
                      const V *__restrict__ val, const V *__restrict__ x, V *__restrict__ partial,
                      V *__restrict__ y)
{
    const int lane = threadIdx.x % SELL_WARP;
    const int64_t piece = (int64_t)blockIdx.x * kWarpsPerBlock + threadIdx.x / SELL_WARP;
    if (piece >= npieces)
        return; /* the whole warp leaves together */
    const int32_t j = __ldg(piece_of + piece), first = __ldg(piece_ptr + j);
    const int32_t row_end = __ldg(long_ptr + j + 1);
    const int32_t b = __ldg(long_ptr + j) + ((int32_t)piece - first) * SELL_PIECE;
    const int32_t e = b + SELL_PIECE < row_end ? b + SELL_PIECE : row_end;
    V sum = 0;
#pragma unroll
    for (int h = 0; h < kPieceSteps; h += SELL_UNROLL * 2) {
        constexpr int U = SELL_UNROLL * 2;
        int32_t c[U];
        V v[U], xv[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int32_t i = b + lane + (h + u) * SELL_WARP;
            c[u] = i < e ? __ldg(col + i) : SELL_PAD_COL;
            v[u] = i < e ? __ldg(val + i) : V(0);
        }
#pragma unroll
        for (int u = 0; u < U; u++)
            xv[u] = c[u] != SELL_PAD_COL ? __ldg(x + c[u]) : V(0);
#pragma unroll
        for (int u = 0; u < U; u++)
            sum = c[u] != SELL_PAD_COL ? sell_fma(v[u], xv[u], sum) : sum;
    }
    sum = sell_tree<V, 1>(sum);
    if (lane == 0) {
        if (__ldg(piece_ptr + j + 1) - first == 1)
            y[__ldg(long_row + j)] = sum;
        else
            partial[piece] = sum;
    }
}

template <typename V>
__global__ void __launch_bounds__(kBlock)
    sell_pieces_sum_kernel(int32_t nlong, const int32_t *__restrict__ long_row,
                           const int32_t *__restrict__ piece_ptr, const V *__restrict__ partial,
                           V *__restrict__ y)
{
    const int lane = threadIdx.x % SELL_WARP;
    const int64_t j = (int64_t)blockIdx.x * kWarpsPerBlock + threadIdx.x / SELL_WARP;
    if (j >= nlong)
        return;
    const int32_t first = __ldg(piece_ptr + j), n = __ldg(piece_ptr + j + 1) - first;
    if (n <= 1)
        return; /* written by the piece kernel */
    V sum = 0;
    for (int32_t q = lane; q < n; q += SELL_WARP)
        sum = sum + partial[first + q];
    sum = sell_tree<V, 1>(sum);
    if (lane == 0)
        y[__ldg(long_row + j)] = sum;
}

unsigned sell_blocks(int64_t warps)
{
    return (unsigned)((warps + kWarpsPerBlock - 1) / kWarpsPerBlock);
}

template <typename V, int T>
cudaError_t sell_launch_t(const sell_device_view *A, const void *x, void *y, cudaStream_t stream)
{
    constexpr int R = SELL_WARP / T;
    sell_slice_kernel<V, T><<<sell_blocks(((int64_t)A->rows + R - 1) / R), kBlock, 0, stream>>>(
        A->rows, A->C, A->slice_ptr, A->perm, A->col, static_cast<const V *>(A->val),
        static_cast<const V *>(x), static_cast<V *>(y));
    return cudaGetLastError();
}

template <typename V>
cudaError_t sell_launch_v(const sell_device_view *A, const void *x, void *y, cudaStream_t stream)
{
    cudaError_t e;
    switch (A->threads_per_row) {
    case 1: e = sell_launch_t<V, 1>(A, x, y, stream); break;
    case 2: e = sell_launch_t<V, 2>(A, x, y, stream); break;
    case 4: e = sell_launch_t<V, 4>(A, x, y, stream); break;
    case 8: e = sell_launch_t<V, 8>(A, x, y, stream); break;
    case 16: e = sell_launch_t<V, 16>(A, x, y, stream); break;
    case 32: e = sell_launch_t<V, 32>(A, x, y, stream); break;
    default: return cudaErrorInvalidValue;
    }
    if (e != cudaSuccess || A->npieces == 0)
        return e;
    sell_piece_kernel<V><<<sell_blocks(A->npieces), kBlock, 0, stream>>>(
        A->npieces, A->long_row, A->long_ptr, A->piece_ptr, A->piece_of, A->long_col,
        static_cast<const V *>(A->long_val), static_cast<const V *>(x), static_cast<V *>(A->partial),
        static_cast<V *>(y));
    e = cudaGetLastError();
    if (e != cudaSuccess || !A->multi_piece)
        return e;
    sell_pieces_sum_kernel<V><<<sell_blocks(A->nlong), kBlock, 0, stream>>>(
        A->nlong, A->long_row, A->piece_ptr, static_cast<const V *>(A->partial),
        static_cast<V *>(y));
    return cudaGetLastError();
}

} // namespace

extern "C" int sell_spmv_launch(const sell_device_view *A, const void *x, void *y, void *stream)
{
    if (A->rows <= 0)
        return (int)cudaSuccess; /* nothing to write; never launch an empty grid */
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    cudaError_t e = A->is_f32 ? sell_launch_v<float>(A, x, y, s) : sell_launch_v<double>(A, x, y, s);
    return (int)e;
}

extern "C" const char *sell_cuda_error_text(int code)
{
    return cudaGetErrorString(static_cast<cudaError_t>(code));
}
