/*
 * jds kernel: one launch a product. Its front blocks take the long rows'
 * pieces (sorted positions 0 .. nlong - 1), the blocks after them the short
 * rows. Every row of y is written exactly once, through perm.
 *
 * Diagonal kernel. T = threads_per_row lanes share a short row; a warp
 * covers R = 32 / T consecutive short rows. Lane l takes row
 * warp * R + l % R and its diagonals d = t, t + T, ... (t = l / R); entry d
 * of short row r sits at jd_ptr[d] + r, so the R lanes of one t read R
 * consecutive addresses of each diagonal (T = 1: 32). The row's length is
 * found once by a binary search on jd_ptr (diagonal lengths never grow), so
 * the loop bound is known and a lane loads JDS_UNROLL entries before it adds
 * them: their loads are all in flight together. The T sums of a row meet in
 * a __shfl_xor_sync tree.
 *
 * Long rows. One warp per piece of at most JDS_PIECE entries (lane l adds
 * entries b + l, b + l + 32, ...; a butterfly sums the warp); a row of one
 * piece is written at once, otherwise the pieces' sums go to partial[] and
 * the warp that finishes the row's last piece (a counter a row) adds them
 * (lane l: pieces l, l + 32, ...).
 *
 * spmv_host (jds_host.c) replays these operations in this order.
 */
#include <cuda_runtime.h>

#include "../common/long_rows.cuh"
#include "jds.h"

namespace {

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / JDS_WARP;

/* The short rows of block `block` of the diagonal part. */
template <typename V, int T>
__device__ __forceinline__ void jds_short_rows(int64_t block, int32_t nshort, int32_t nlong, int32_t diagonals,
                                               const int32_t *__restrict__ perm, const int32_t *__restrict__ jd_ptr,
                                               const int32_t *__restrict__ col, const V *__restrict__ val,
                                               const V *__restrict__ x, V *__restrict__ y)
{
    constexpr int R = JDS_WARP / T;
    const int lane = threadIdx.x % JDS_WARP, t = lane / R;
    const int64_t r64 = (block * kBlock + threadIdx.x) / JDS_WARP * R + lane % R;
    const bool active = r64 < nshort;
    const int32_t r = (int32_t)r64;
    V sum = 0;
    if (active) {
        int32_t lo = 0, hi = diagonals; /* len = first diagonal too short for row r */
        while (lo < hi) {
            const int32_t mid = (lo + hi) >> 1;
            if (__ldg(jd_ptr + mid + 1) - __ldg(jd_ptr + mid) > r)
                lo = mid + 1;
            else
                hi = mid;
        }
        const int32_t len = lo;
        int32_t d = t;
        for (; d + (JDS_UNROLL - 1) * T < len; d += JDS_UNROLL * T) {
            int32_t c[JDS_UNROLL];
            V v[JDS_UNROLL];
#pragma unroll
            for (int u = 0; u < JDS_UNROLL; u++) {
                const int32_t k = __ldg(jd_ptr + d + u * T) + r;
                c[u] = __ldg(col + k);
                v[u] = __ldg(val + k);
            }
#pragma unroll
            for (int u = 0; u < JDS_UNROLL; u++)
                sum = long_rows_fma(v[u], __ldg(x + c[u]), sum);
        }
        for (; d < len; d += T) {
            const int32_t k = __ldg(jd_ptr + d) + r;
            sum = long_rows_fma(__ldg(val + k), __ldg(x + __ldg(col + k)), sum);
        }
    }
    sum = long_rows_tree<V, R>(sum); /* every lane of the warp takes part */
    if (active && t == 0)
        y[__ldg(perm + nlong + r)] = sum;
}

/* The one kernel of a product: the long rows' pieces in the front blocks
 * (long_rows.cuh; JDS_UNROLL entries a lane in flight, each x loaded
 * where it is added), the short rows in the blocks after them. */
template <typename V, int T>
__global__ void __launch_bounds__(kBlock)
    jds_kernel(long_rows_view<V> L, int32_t nshort, int32_t nlong, int32_t diagonals,
               const int32_t *__restrict__ perm, const int32_t *__restrict__ jd_ptr,
               const int32_t *__restrict__ col, const V *__restrict__ val, const V *__restrict__ x,
               V *__restrict__ y)
{
    const int64_t front = long_rows_blocks<V, kWarps>(L);
    if (blockIdx.x < front) {
        long_rows_front<V, JDS_PIECE, JDS_UNROLL, kWarps, false>(L, x, y);
        return;
    }
    jds_short_rows<V, T>(blockIdx.x - front, nshort, nlong, diagonals, perm, jd_ptr, col, val, x, y);
}

unsigned jds_blocks(int64_t warps)
{
    return (unsigned)((warps + kWarps - 1) / kWarps);
}

template <typename V, int T>
cudaError_t jds_launch_t(const jds_format *f, const void *x, void *y, cudaStream_t s)
{
    constexpr int R = JDS_WARP / T;
    const int32_t nshort = f->rows - f->nlong;
    const long_rows_view<V> L = {f->npieces, f->d_perm, f->d_long_ptr, f->d_piece_ptr, f->d_piece_of, f->d_col,
                                 static_cast<const V *>(f->d_val), static_cast<V *>(f->d_partial), f->d_count};
    const int64_t blocks = long_rows_blocks<V, kWarps>(L) + (nshort > 0 ? jds_blocks(((int64_t)nshort + R - 1) / R) : 0);
    if (blocks == 0)
        return cudaSuccess;
    jds_kernel<V, T><<<(unsigned)blocks, kBlock, 0, s>>>(
        L, nshort, f->nlong, f->diagonals, f->d_perm, f->d_jd_ptr, f->d_col, static_cast<const V *>(f->d_val),
        static_cast<const V *>(x), static_cast<V *>(y));
    return cudaGetLastError();
}

template <typename V>
cudaError_t jds_launch_v(const jds_format *f, const void *x, void *y, cudaStream_t s)
{
    switch (f->threads_per_row) {
    case 1: return jds_launch_t<V, 1>(f, x, y, s);
    case 2: return jds_launch_t<V, 2>(f, x, y, s);
    case 4: return jds_launch_t<V, 4>(f, x, y, s);
    case 8: return jds_launch_t<V, 8>(f, x, y, s);
    case 16: return jds_launch_t<V, 16>(f, x, y, s);
    case 32: return jds_launch_t<V, 32>(f, x, y, s);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace

extern "C" int jds_spmv_launch(const jds_format *f, const void *x, void *y, void *stream)
{
    if (f->rows <= 0)
        return (int)cudaSuccess;
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    return (int)(f->dtype == SPMVLAB_F64 ? jds_launch_v<double>(f, x, y, s)
                                         : jds_launch_v<float>(f, x, y, s));
}

extern "C" const char *jds_cuda_error_text(int code)
{
    return cudaGetErrorString(static_cast<cudaError_t>(code));
}
