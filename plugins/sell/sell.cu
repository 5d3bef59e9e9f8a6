/*
 * SELL-C-sigma kernel: one launch a product. Its front blocks take the long
 * rows' pieces, the blocks after them the slices; the slices write every
 * row of y but the long rows (perm < 0 on the device), the pieces the long
 * rows. Every row of y is written once.
 *
 * Slice kernel. T = threads_per_row lanes share a row; one warp covers
 * R = 32 / T consecutive sorted positions. Lane l works on position
 * warp * R + l % R and takes the slots k = t, t + T, ... of that row,
 * t = l / R. Slot k of slice row r sits at slice_ptr[s] + k * C + r, so the
 * R lanes of one t read R consecutive addresses (T = 1: the whole warp reads
 * 32 consecutive values and columns). A lane first loads SELL_UNROLL columns
 * and values, then their x (none for padding), then adds them in order: the
 * loads are independent of the data, so they are all in flight at once. With
 * several lanes a row, the row's last batch is predicated slot by slot
 * rather than run as a loop, so the rest of a row costs one round of
 * dependent loads, not one per slot.
 * The T partial sums of a row meet in a __shfl_xor_sync tree and lane t = 0
 * writes y[perm[p]]. Columns come as 32-bit indices (index = 32) or as
 * 16-bit offsets from a base read once per slice, with 32-bit slices in
 * low and high halves where a slice spans too far (index = 16; sell_index.c):
 * one template per case, so the 32-bit kernel is the one before compression;
 * or with a base per slot column of a slice, read at every slot (the same
 * word for the lanes of one slot column).
 * Values are loaded in their storage type (float for values = f32) and
 * widened before the add. With one lane a row, Stream loads the columns
 * (offsets) and values (codes) past L1, evict-first (loads = streaming):
 * the same slots and adds, another cache hint.
 *
 * Long rows. One warp per piece of at most SELL_PIECE entries; lane l adds
 * entries b + l, b + l + 32, ... (consecutive lanes, consecutive addresses);
 * a butterfly tree sums the warp. A row of one piece is written at once;
 * otherwise the piece's sum goes to partial[], and the warp that finishes
 * the row's last piece (a counter a row) adds its pieces (lane l takes
 * pieces l, l + 32, ...) and writes the row.
 *
 * spmv_host (sell_host.c) replays these operations in this order.
 */
#include <cuda_runtime.h>

#include "../common/long_rows.cuh"
#include "../common/value_store.cuh"
#include "sell.h"

namespace {

constexpr int kBlock = 256;                      /* threads per block, whole warps */
constexpr int kWarpsPerBlock = kBlock / SELL_WARP;
/* Blocks per SM for full occupancy on sm_90 (2048 threads): the slice
 * kernel is bound by memory latency, so it keeps every warp slot (32
 * registers); without the bound the 16-bit kernels take 40 to 54. The one
 * exception, the f32 mixed-index kernel with one lane per row, would spill
 * 24 bytes at 32 and gets 40 (6 blocks). */
constexpr int kFullBlocks = 2048 / kBlock;
constexpr int sell_min_blocks(bool f32, int ix, int t)
{
    return f32 && ix == SELL_IX_MIXED && t == 1 ? kFullBlocks * 3 / 4 : kFullBlocks;
}

/* The column indices of the slices as one lane reads them (IX is
 * SELL_IX_32, SELL_IX_16, SELL_IX_MIXED or SELL_IX_COLUMN; sell.h). bind()
 * reads the slice's aux word once: the base of a 16-bit slice, or the
 * complement of its first high-half slot; with a base per slot column it
 * only notes where the slice's words start (first / C) and the lane's row r.
 * load() then decode() give slot i's (slot column k's) column, SELL_PAD_COL
 * for padding (offset SELL_PAD_OFF, or both halves 0xFFFF): the kernel
 * issues every load() of a batch before the first decode(), so no load of
 * the batch waits behind a branch on a loaded base. */
template <int IX>
struct sell_cols {
    const int32_t *__restrict__ col;
    const uint16_t *__restrict__ lo;
    const uint16_t *__restrict__ hi;
    const int32_t *__restrict__ aux;
    int32_t base;
    int64_t hoff; /* high-half slot of slot i: i + hoff */
    bool wide;
    int32_t word; /* SELL_IX_COLUMN: aux word of slot column 0 of the slice */
    int32_t r;    /* SELL_IX_COLUMN: the lane's row in its slice */

    __device__ __forceinline__ void bind(int32_t s, int32_t first, int32_t row, int32_t C)
    {
        base = 0;
        hoff = 0;
        wide = false;
        word = 0;
        r = row;
        if (IX == SELL_IX_32)
            return;
        if (IX == SELL_IX_COLUMN) {
            word = first / C;
            return;
        }
        const int32_t a = __ldg(aux + s);
        wide = IX == SELL_IX_MIXED && a < 0;
        base = wide ? 0 : a;
        hoff = wide ? (int64_t)~a - first : 0;
    }
    /* The loads of slot i (slot column k) that depend on nothing loaded:
     * the 32-bit column or the 16-bit word (past L1 with Stream), and the
     * slot column's base. */
    template <bool Stream>
    __device__ __forceinline__ void load(int64_t i, int32_t k, uint32_t &l, int32_t &a) const
    {
        a = 0;
        if (IX == SELL_IX_32) {
            l = (uint32_t)entry_load<Stream>(col + i);
            return;
        }
        l = entry_load<Stream>(lo + i);
        if (IX == SELL_IX_COLUMN)
            a = __ldg(aux + word + k);
    }
    /* Slot i's column from what load() returned; a 32-bit group's high
     * half is the one load that waits for a loaded word (the base). */
    __device__ __forceinline__ int32_t decode(int64_t i, uint32_t l, int32_t a) const
    {
        if (IX == SELL_IX_32)
            return (int32_t)l;
        if (IX == SELL_IX_COLUMN) {
            if (a < 0)
                return (int32_t)(((uint32_t)__ldg(hi + (~a + r)) << 16) | l);
            return l == SELL_PAD_OFF ? SELL_PAD_COL : a + (int32_t)l;
        }
        if (IX == SELL_IX_MIXED && wide)
            return (int32_t)(((uint32_t)__ldg(hi + i + hoff) << 16) | l);
        return l == SELL_PAD_OFF ? SELL_PAD_COL : base + (int32_t)l;
    }
};

/* SELL_UNROLL slots k, k + T, ... of a lane's row (slot i, i + step, ...):
 * every column and value load, then every x load, then the adds in slot
 * order. kTail: only the slots below the row's width w are real. Stream:
 * columns and values are loaded past L1 (the values' functor S is the
 * streaming one then). */
template <typename V, typename S, int IX, int T, bool kTail, bool Stream>
__device__ __forceinline__ void sell_batch(const sell_cols<IX> &cols, const S &val,
                                           const V *__restrict__ x, int64_t i, int64_t step,
                                           int32_t k, int32_t w, V &sum)
{
    int32_t c[SELL_UNROLL], a[SELL_UNROLL];
    uint32_t l[SELL_UNROLL];
    V v[SELL_UNROLL], xv[SELL_UNROLL];
#pragma unroll
    for (int u = 0; u < SELL_UNROLL; u++) {
        l[u] = SELL_PAD_OFF, a[u] = 0, v[u] = V(0);
        if (!kTail || k + u * T < w) {
            cols.template load<Stream>(i + u * step, k + u * T, l[u], a[u]);
            v[u] = (V)val(i + u * step);
        }
    }
#pragma unroll
    for (int u = 0; u < SELL_UNROLL; u++)
        c[u] = !kTail || k + u * T < w ? cols.decode(i + u * step, l[u], a[u]) : SELL_PAD_COL;
#pragma unroll
    for (int u = 0; u < SELL_UNROLL; u++)
        xv[u] = c[u] != SELL_PAD_COL ? __ldg(x + c[u]) : V(0);
#pragma unroll
    for (int u = 0; u < SELL_UNROLL; u++)
        sum = c[u] != SELL_PAD_COL ? long_rows_fma(v[u], xv[u], sum) : sum;
}

/* The slices' rows of block `block` of the slice part. V: the type of x,
 * y and the adds; S: the slice values' functor (value_store.cuh): native V,
 * native float for an f64 run with values = f32, codes into the table, or a
 * pattern's value; widened to V. perm < 0 marks a long row: its pieces
 * write it. */
template <typename V, typename S, int IX, int T, bool Stream>
__device__ __forceinline__ void sell_slice_rows(int64_t block, int32_t rows, int32_t C,
                                                const int32_t *__restrict__ slice_ptr,
                                                const int32_t *__restrict__ perm, sell_cols<IX> cols,
                                                S val, const V *__restrict__ x, V *__restrict__ y)
{
    constexpr int R = SELL_WARP / T;
    const int lane = threadIdx.x % SELL_WARP;
    const int t = lane / R;
    const int64_t warp = (block * kBlock + threadIdx.x) / SELL_WARP;
    const int64_t pos = warp * R + lane % R;
    const bool active = pos < rows;

    V sum = 0;
    if (active) {
        const int32_t p = (int32_t)pos, s = p / C;
        const int32_t base = __ldg(slice_ptr + s);
        const int32_t w = (__ldg(slice_ptr + s + 1) - base) / C;
        cols.bind(s, base, p - s * C, C);
        const int64_t step = (int64_t)T * C;
        int64_t i = (int64_t)base + (p - s * C) + (int64_t)t * C;
        int32_t k = t;
        for (; k + (SELL_UNROLL - 1) * T < w; k += SELL_UNROLL * T, i += SELL_UNROLL * step)
            sell_batch<V, S, IX, T, false, Stream>(cols, val, x, i, step, k, w, sum);
        /* The rest of the row: with T > 1 (launch-bound matrices) one
         * predicated batch, its loads in flight together; one lane a row
         * keeps a plain loop, faster on large uneven matrices and equal on
         * regular ones (README.md, "Execution"). */
        if constexpr (T > 1) {
            if (k < w)
                sell_batch<V, S, IX, T, true, Stream>(cols, val, x, i, step, k, w, sum);
        } else {
            for (; k < w; k += T, i += step) {
                uint32_t l;
                int32_t a;
                cols.template load<Stream>(i, k, l, a);
                const int32_t c = cols.decode(i, l, a);
                if (c != SELL_PAD_COL)
                    sum = long_rows_fma((V)val(i), __ldg(x + c), sum);
            }
        }
    }
    /* All 32 lanes reach the tree: blocks hold whole warps and inactive
     * lanes only skip the loops above. */
    sum = long_rows_tree<V, R>(sum);
    if (active && t == 0) {
        const int32_t row = perm ? __ldg(perm + pos) : (int32_t)pos;
        if (row >= 0)
            y[row] = sum;
    }
}

/* The one kernel of a product: the long rows' pieces in the front blocks
 * (long_rows.cuh; SELL_UNROLL entries a lane in flight, then all their
 * x), the slices in the blocks after them. Without long rows (FRONT
 * false) the slices alone: the pieces' code, compiled in, would cost the
 * slices registers they keep otherwise (spills under the 32-register
 * bound) and about 10 % on large regular matrices (README.md). */
template <typename V, typename S, int IX, int T, bool FRONT, bool Stream>
__global__ void __launch_bounds__(kBlock, sell_min_blocks(sizeof(V) == 4, IX, T))
    sell_kernel(long_rows_view<V> L, int32_t rows, int32_t C, const int32_t *__restrict__ slice_ptr,
                const int32_t *__restrict__ perm, sell_cols<IX> cols, S val, const V *__restrict__ x,
                V *__restrict__ y)
{
    const int64_t front = FRONT ? long_rows_blocks<V, kWarpsPerBlock>(L) : 0;
    if (FRONT && blockIdx.x < front) {
        long_rows_front<V, SELL_PIECE, SELL_UNROLL, kWarpsPerBlock, true>(L, x, y);
        return;
    }
    sell_slice_rows<V, S, IX, T, Stream>(blockIdx.x - front, rows, C, slice_ptr, perm, cols, val, x, y);
}

unsigned sell_blocks(int64_t warps)
{
    return (unsigned)((warps + kWarpsPerBlock - 1) / kWarpsPerBlock);
}

template <typename V, typename S, int IX, int T, bool Stream>
cudaError_t sell_launch_t(const sell_device_view *A, S val, const void *x, void *y, cudaStream_t stream)
{
    constexpr int R = SELL_WARP / T;
    const sell_cols<IX> cols = {A->col, A->lo, A->hi, A->aux, 0, 0, false, 0, 0};
    const long_rows_view<V> L = {A->npieces, A->long_row, A->long_ptr, A->piece_ptr, A->piece_of, A->long_col,
                                 static_cast<const V *>(A->long_val), static_cast<V *>(A->partial), A->count};
    const int64_t blocks = long_rows_blocks<V, kWarpsPerBlock>(L) + sell_blocks(((int64_t)A->rows + R - 1) / R);
    if (L.npieces > 0)
        sell_kernel<V, S, IX, T, true, Stream><<<(unsigned)blocks, kBlock, 0, stream>>>(
            L, A->rows, A->C, A->slice_ptr, A->perm, cols, val, static_cast<const V *>(x), static_cast<V *>(y));
    else
        sell_kernel<V, S, IX, T, false, Stream><<<(unsigned)blocks, kBlock, 0, stream>>>(
            L, A->rows, A->C, A->slice_ptr, A->perm, cols, val, static_cast<const V *>(x), static_cast<V *>(y));
    return cudaGetLastError();
}

/* Streaming loads are built for one lane a row only: the loads of a warp
 * then cover 32 consecutive slots, read once (sell_build.c's rule takes
 * them only there). */
template <typename V, typename S, int IX, bool Stream>
cudaError_t sell_launch_ix(const sell_device_view *A, S val, const void *x, void *y, cudaStream_t stream)
{
    if constexpr (Stream) {
        return A->threads_per_row == 1 ? sell_launch_t<V, S, IX, 1, true>(A, val, x, y, stream)
                                       : cudaErrorInvalidValue;
    } else {
        switch (A->threads_per_row) {
        case 1: return sell_launch_t<V, S, IX, 1, false>(A, val, x, y, stream);
        case 2: return sell_launch_t<V, S, IX, 2, false>(A, val, x, y, stream);
        case 4: return sell_launch_t<V, S, IX, 4, false>(A, val, x, y, stream);
        case 8: return sell_launch_t<V, S, IX, 8, false>(A, val, x, y, stream);
        case 16: return sell_launch_t<V, S, IX, 16, false>(A, val, x, y, stream);
        case 32: return sell_launch_t<V, S, IX, 32, false>(A, val, x, y, stream);
        default: return cudaErrorInvalidValue;
        }
    }
}

template <typename V, bool Stream, typename S>
cudaError_t sell_launch_s(const sell_device_view *A, S val, const void *x, void *y, cudaStream_t stream)
{
    switch (A->index_mode) {
    case SELL_IX_32: return sell_launch_ix<V, S, SELL_IX_32, Stream>(A, val, x, y, stream);
    case SELL_IX_16: return sell_launch_ix<V, S, SELL_IX_16, Stream>(A, val, x, y, stream);
    case SELL_IX_MIXED: return sell_launch_ix<V, S, SELL_IX_MIXED, Stream>(A, val, x, y, stream);
    case SELL_IX_COLUMN: return sell_launch_ix<V, S, SELL_IX_COLUMN, Stream>(A, val, x, y, stream);
    default: return cudaErrorInvalidValue;
    }
}

template <typename V, bool Stream>
cudaError_t sell_launch_loads(const sell_device_view *A, const void *x, void *y, cudaStream_t stream)
{
    /* An f64 run reads its slice values as float with values = f32; else
     * the values in the run's type, or their codes, or a pattern's value. */
    return sizeof(V) == 8 && A->val_f32
               ? sell_launch_s<V, Stream>(A, native_values<float, Stream>{static_cast<const float *>(A->val)}, x,
                                          y, stream)
               : with_values<V, false, Stream>(
                     A->vs, A->val, [&](auto val) { return sell_launch_s<V, Stream>(A, val, x, y, stream); });
}

template <typename V>
cudaError_t sell_launch_v(const sell_device_view *A, const void *x, void *y, cudaStream_t stream)
{
    return A->stream ? sell_launch_loads<V, true>(A, x, y, stream) : sell_launch_loads<V, false>(A, x, y, stream);
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
