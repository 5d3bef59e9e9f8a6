/*
 * The long-row pieces shared by sell and jds (layout and order in
 * long_rows.h), run by the front blocks of the plugin's one kernel: the
 * regular part takes the blocks after them, so one launch computes y. Each
 * plugin instantiates them with its piece size, loads in flight and
 * instruction order.
 */
#ifndef SPMVLAB_PLUGINS_LONG_ROWS_CUH
#define SPMVLAB_PLUGINS_LONG_ROWS_CUH

#include <cuda_runtime.h>

#include "last_piece.cuh"
#include "long_rows.h"

__device__ __forceinline__ double long_rows_fma(double a, double b, double c) { return __fma_rn(a, b, c); }
__device__ __forceinline__ float long_rows_fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }

/* Lane 0's (every lane's) sum over the lanes whose index differs in the
 * bits from R up, by the butterfly (R = 1: the whole warp). */
template <typename V, int R>
__device__ __forceinline__ V long_rows_tree(V sum)
{
#pragma unroll
    for (int off = LONG_ROWS_WARP / 2; off >= R; off /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, off);
    return sum;
}

/* The sum of piece `piece` of long row j (both known to the whole warp),
 * on every lane: U columns and values in flight a lane, then their x, then
 * the adds; lane l adds entries b + l, b + l + 32, ... in order, whatever U,
 * so U sets only the loads in flight. Column -1 marks an entry past the
 * piece's end. AHEAD keeps the instruction order each plugin was measured
 * with: the row's end before its start and all U x values before the adds
 * (sell), or each load where it is first used (jds). */
template <typename V, int PIECE, int U, bool AHEAD>
__device__ __forceinline__ V long_rows_piece_sum(int64_t piece, int32_t j, int32_t first,
                                                 const int32_t *__restrict__ long_ptr,
                                                 const int32_t *__restrict__ col, const V *__restrict__ val,
                                                 const V *__restrict__ x)
{
    const int lane = threadIdx.x % LONG_ROWS_WARP;
    int32_t b, row_end;
    if (AHEAD) {
        row_end = __ldg(long_ptr + j + 1);
        b = __ldg(long_ptr + j) + ((int32_t)piece - first) * PIECE;
    } else {
        b = __ldg(long_ptr + j) + ((int32_t)piece - first) * PIECE;
        row_end = __ldg(long_ptr + j + 1);
    }
    const int32_t e = b + PIECE < row_end ? b + PIECE : row_end;
    V sum = 0;
#pragma unroll
    for (int h = 0; h < PIECE / LONG_ROWS_WARP; h += U) {
        int32_t c[U];
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int32_t i = b + lane + (h + u) * LONG_ROWS_WARP;
            c[u] = i < e ? __ldg(col + i) : -1;
            v[u] = i < e ? __ldg(val + i) : V(0);
        }
        if (AHEAD) {
            V xv[U];
#pragma unroll
            for (int u = 0; u < U; u++)
                xv[u] = c[u] != -1 ? __ldg(x + c[u]) : V(0);
#pragma unroll
            for (int u = 0; u < U; u++)
                sum = c[u] != -1 ? long_rows_fma(v[u], xv[u], sum) : sum;
        } else {
#pragma unroll
            for (int u = 0; u < U; u++)
                sum = c[u] >= 0 ? long_rows_fma(v[u], __ldg(x + c[u]), sum) : sum;
        }
    }
    return long_rows_tree<V, 1>(sum);
}

/* The pieces' sum of long row j (first piece first, n of them) on every
 * lane: lane l adds partials l, l + 32, ... in order, then the butterfly;
 * LOAD reads one partial (from L2: the kernel that reads them wrote them). */
template <typename V, typename LOAD>
__device__ __forceinline__ V long_rows_add_pieces(int32_t first, int32_t n, LOAD load)
{
    V sum = 0;
    for (int32_t q = threadIdx.x % LONG_ROWS_WARP; q < n; q += LONG_ROWS_WARP)
        sum = sum + load(first + q);
    return long_rows_tree<V, 1>(sum);
}

/* Piece `piece` (this warp's, below npieces) inside a kernel that also runs
 * the regular part: a row of one piece is written at once; otherwise the
 * piece's sum goes to partial[piece], and the warp that finishes a row's
 * last piece (count[j], reset to 0 for the next launch, says which) adds
 * the row's partials in a fixed order (long_rows_add_pieces), so the result does not
 * depend on which warp finished last. */
template <typename V, int PIECE, int U, bool AHEAD>
__device__ __forceinline__ void long_rows_piece_fused(int64_t piece, const int32_t *__restrict__ row_of,
                                                      const int32_t *__restrict__ long_ptr,
                                                      const int32_t *__restrict__ piece_ptr,
                                                      const int32_t *__restrict__ piece_of,
                                                      const int32_t *__restrict__ col, const V *__restrict__ val,
                                                      const V *__restrict__ x, V *partial, int32_t *count,
                                                      V *__restrict__ y)
{
    const int lane = threadIdx.x % LONG_ROWS_WARP;
    const int32_t j = __ldg(piece_of + piece), first = __ldg(piece_ptr + j);
    const int32_t n = __ldg(piece_ptr + j + 1) - first;
    const V sum = long_rows_piece_sum<V, PIECE, U, AHEAD>(piece, j, first, long_ptr, col, val, x);
    if (n == 1) {
        if (lane == 0)
            y[__ldg(row_of + j)] = sum;
        return;
    }
    if (!last_piece_done(partial, piece, sum, count, j, n))
        return;
    const V row = long_rows_add_pieces<V>(first, n, [&](int32_t i) { return __ldcg(partial + i); });
    if (lane == 0) {
        y[__ldg(row_of + j)] = row;
        count[j] = 0;
    }
}

/* The long rows as a kernel that also runs a regular part reads them
 * (long_rows.h has the layout): count holds one finished-piece counter a
 * row, 0 between launches. */
template <typename V>
struct long_rows_view {
    int32_t npieces;
    const int32_t *__restrict__ row_of;
    const int32_t *__restrict__ long_ptr;
    const int32_t *__restrict__ piece_ptr;
    const int32_t *__restrict__ piece_of;
    const int32_t *__restrict__ col;
    const V *__restrict__ val;
    V *partial;
    int32_t *count;
};

/* Blocks of WARPS warps that the pieces of L take at the front of a fused
 * grid (a warp a piece). */
template <typename V, int WARPS>
__host__ __device__ inline int64_t long_rows_blocks(const long_rows_view<V> &L)
{
    return ((int64_t)L.npieces + WARPS - 1) / WARPS;
}

/* The front blocks of a fused grid (blockIdx.x below long_rows_blocks):
 * this warp's piece of L, if any (long_rows_piece_fused). */
template <typename V, int PIECE, int U, int WARPS, bool AHEAD>
__device__ __forceinline__ void long_rows_front(const long_rows_view<V> &L, const V *__restrict__ x,
                                                V *__restrict__ y)
{
    const int64_t piece = (int64_t)blockIdx.x * WARPS + threadIdx.x / LONG_ROWS_WARP;
    if (piece < L.npieces)
        long_rows_piece_fused<V, PIECE, U, AHEAD>(piece, L.row_of, L.long_ptr, L.piece_ptr, L.piece_of,
                                                  L.col, L.val, x, L.partial, L.count, y);
}


#endif
