// dia kernel: one thread per row walking the diagonals in ascending offset.
// Thread i of a block reads val[start + i - begin] of each diagonal, so a
// warp's loads are consecutive words; a diagonal's metadata is one int4
// that the whole warp reads at once. x: with `shared`, the block first
// copies its window x[row0 + min_off, row0 + rows + max_off) (clamped to the
// matrix) into shared memory, and every diagonal reads it from there; else
// x is read through the read-only (L1) path, where neighbouring diagonals
// hit the same lines. dia.c runs the same loop on the CPU.
//
// Coded kernel (values as 4-bit, 1- or 2-byte codes, dia.h's coded
// layout): a thread serves R rows (2, 4 or 8: option rows_per_thread),
// lane l of a warp rows q + l + 32 j (j < R) of its chunk q of 32 R rows,
// so its R codes of a diagonal are one aligned word (R = 8: 4 bytes of
// 4-bit codes, a warp load fetching 256 codes in 128 bytes; uint2 of
// 1-byte codes; uint4 of 2-byte ones) and its x reads and y writes stay
// consecutive over the lanes. The table of 4-bit or 1-byte codes is staged
// in shared memory per block. The diagonals come in
// batches (1, 2, 4 or 8: option batch): every metadata and code load of a
// batch is issued before its first multiply. x_reuse = shuffle (coded
// kernel only): diagonals with consecutive offsets o, o + 1, ... read x
// values the warp already holds, x[q + l + 32 j + o + k] being lane
// (l + k)'s value for row j while l + k < 32, else lane (l + k - 32)'s for
// row j + 1 (for j = 3: an extension word x[q + 128 + o + l]); the warp
// loads x once per run (4 values a lane, and an extension word at the
// run's second diagonal and each 32 offsets on) and takes every
// diagonal's by 4 __shfl_sync, instead of every diagonal reading x
// through L1 and L2 (struct x_run). Measured slower than L1 on every
// few-valued stencil and band (README.md): auto does not take it.
// Through L1, a chunk that lies whole on a diagonal (most of them) skips
// the row tests and addresses its rows' x by constant offsets from row
// 0's, and a whole chunk of rows stores y likewise (with the shared window
// these paths took 4 more registers, a block less an SM, and ran bands up
// to 13 % slower). Each
// row still adds its diagonals in ascending offset with one fused
// multiply-add each: the native kernel's sums in the same order.
#include <cuda_runtime.h>

#include "dia.h"
#include "../common/launch.cuh"
#include "../common/value_store.cuh"

namespace {

__device__ __forceinline__ double dia_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float dia_fma(float a, float b, float c) { return fmaf(a, b, c); }

// Copies x[row0 + min_off, row0 + span + max_off), clamped to the matrix,
// into xs (the block's x window); returns the window's first column. The
// caller synchronises the block before reading it.
template <typename T>
__device__ __forceinline__ int64_t stage_x_window(const T *__restrict__ x, T *xs, int64_t row0, int64_t span,
                                                  int32_t min_off, int32_t max_off, int32_t cols)
{
    const int64_t wlo = row0 + min_off > 0 ? row0 + min_off : 0;
    const int64_t whi = row0 + span + max_off < cols ? row0 + span + max_off : cols;
    for (int64_t j = wlo + threadIdx.x; j < whi; j += DIA_BLOCK)
        xs[j - wlo] = __ldg(x + j);
    return wlo;
}

template <typename T, bool Shared, typename V>
__global__ void __launch_bounds__(DIA_BLOCK)
dia_kernel(int32_t rows, int32_t cols, int32_t ndiag, int32_t min_off, int32_t max_off,
           const int4 *__restrict__ diags, V vals, const T *__restrict__ x, T *__restrict__ y)
{
    extern __shared__ unsigned char dia_smem[];
    T *xs = reinterpret_cast<T *>(dia_smem);
    const int64_t row0 = (int64_t)blockIdx.x * DIA_BLOCK, i = row0 + threadIdx.x;
    int64_t wlo = 0;
    if (Shared) {
        wlo = stage_x_window(x, xs, row0, DIA_BLOCK, min_off, max_off, cols);
        __syncthreads();
    }
    if (i >= rows)
        return;
    T sum = 0;
#pragma unroll 4
    for (int32_t d = 0; d < ndiag; d++) {
        const int4 g = __ldg(diags + d); // offset, begin, end, start
        if (i >= g.y && i < g.z) {
            const T v = vals(g.w + (i - g.y)); // the value itself, its code's table entry, or the pattern
            const int64_t col = i + g.x;
            sum = dia_fma(v, Shared ? xs[col - wlo] : __ldg(x + col), sum);
        }
    }
    y[i] = sum;
}

// 4-bit codes, two a byte (the code type of a nibble-coded layout).
struct nibble {};

// The R codes of one lane for a diagonal: one aligned word of R codes
// (W: the word type, R * Bits / 8 bytes).
template <typename C, int R> struct code_word;
template <typename W, int R, int Bits> struct code_word_of {
    W w;
    // The word whose first code is entry pos of the layout (pos * Bits / 8
    // bytes in: pos is a multiple of R, so whole bytes).
    __device__ __forceinline__ void load(const unsigned char *code, int64_t pos)
    {
        w = __ldg(reinterpret_cast<const W *>(code + pos * Bits / 8));
    }
    __device__ __forceinline__ void clear() { w = W{}; }
    __device__ __forceinline__ uint32_t at(int j) const
    {
        constexpr int per = 32 / Bits; // codes a 32-bit part
        const uint32_t part = word_part(w, j / per);
        return (part >> (Bits * (j % per))) & ((1u << Bits) - 1u);
    }
    static __device__ __forceinline__ uint32_t word_part(uint8_t v, int) { return v; }
    static __device__ __forceinline__ uint32_t word_part(uint16_t v, int) { return v; }
    static __device__ __forceinline__ uint32_t word_part(uint32_t v, int) { return v; }
    static __device__ __forceinline__ uint32_t word_part(uint2 v, int k) { return k == 0 ? v.x : v.y; }
    static __device__ __forceinline__ uint32_t word_part(uint4 v, int k)
    {
        return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
    }
};
template <> struct code_word<nibble, 2> : code_word_of<uint8_t, 2, 4> {};
template <> struct code_word<nibble, 4> : code_word_of<uint16_t, 4, 4> {};
template <> struct code_word<nibble, 8> : code_word_of<uint32_t, 8, 4> {};
template <> struct code_word<uint8_t, 2> : code_word_of<uint16_t, 2, 8> {};
template <> struct code_word<uint8_t, 4> : code_word_of<uint32_t, 4, 8> {};
template <> struct code_word<uint8_t, 8> : code_word_of<uint2, 8, 8> {};
template <> struct code_word<uint16_t, 2> : code_word_of<uint32_t, 2, 16> {};
template <> struct code_word<uint16_t, 4> : code_word_of<uint2, 4, 16> {};
template <> struct code_word<uint16_t, 8> : code_word_of<uint4, 8, 16> {};

// x[col], or 0 outside the matrix's columns (a run's words reach past the
// rows its diagonals cover; those rows do not add).
template <typename T>
__device__ __forceinline__ T load_x(const T *__restrict__ x, int64_t col, int32_t cols)
{
    return col >= 0 && col < cols ? __ldg(x + col) : T(0);
}

// x of the current run of consecutive offsets (x_reuse = shuffle), for
// lane l of the warp serving chunk q: word[j] = x[q + l + 32 j + base]
// and ext = x[q + 128 + base + l] (loaded at the run's second diagonal,
// k = 1). base and last are the same in every lane, and at() branches on
// them only, so all 32 lanes reach every shuffle.
template <typename T, int R> struct x_run {
    T word[R];
    T ext = T(0);
    int32_t base = 0;          // offset the words were loaded for
    int32_t last = INT32_MIN;  // offset of the run's latest diagonal; offsets are > INT32_MIN + 1

    // Sets xv[j] = x[q + lane + 32 j + o] for diagonal offset o (the next
    // diagonal's, ascending): a new run unless o = last + 1; 32 past the
    // base, the words move up by one (the extension becomes word 3).
    // Shuffles even at k = 0 (they pass each lane its own words): skipping
    // them there took 64 registers in f64 against 48 (sm_90, batch 2).
    __device__ __forceinline__ void at(int32_t o, const T *__restrict__ x, int64_t q, int lane, int32_t cols,
                                       T (&xv)[R])
    {
        if (o != last + 1) { // a new run: its 4 words
            base = o;
#pragma unroll
            for (int j = 0; j < R; j++)
                word[j] = load_x(x, q + lane + 32 * j + o, cols);
        } else if (o - base == 32) {
#pragma unroll
            for (int j = 0; j + 1 < R; j++)
                word[j] = word[j + 1];
            word[R - 1] = ext;
            base += 32;
        }
        last = o;
        const int k = o - base; // 0 .. 31; within a run it counts up by one
        if (k == 1)
            ext = load_x(x, q + 32 * R + base + lane, cols);
        // Lane l takes row j's value from lane (l + k) & 31: that lane's
        // word j when l + k < 32, i.e. when the sender's lane is >= k, else
        // its word j + 1 (the extension for j = 3). The sender knows which
        // from its own lane, so it picks before sending: 4 shuffles, not 5.
        const bool low = lane < k; // its receivers want the next word
#pragma unroll
        for (int j = 0; j < R; j++) {
            const T send = low ? (j + 1 < R ? word[j + 1] : ext) : word[j];
            xv[j] = __shfl_sync(0xffffffffu, send, (lane + k) & 31);
        }
    }
};

// y = A x with codes of type C (nibble, uint8_t, uint16_t) into table
// (count entries; staged in shared memory when Staged: 4-bit and 1-byte
// codes). X, where x comes from (enum
// dia_reuse): DIA_REUSE_SHARED, the x window as dia_kernel's over the
// block's DIA_BLOCK R rows; DIA_REUSE_L1; DIA_REUSE_SHUFFLE, an
// x_run. B diagonals a batch: their loads are in flight together (option
// batch).
template <typename T, typename C, int X, bool Staged, int B, int R>
__global__ void __launch_bounds__(DIA_BLOCK)
dia_coded_kernel(int32_t rows, int32_t cols, int32_t ndiag, int32_t min_off, int32_t max_off,
                 const int4 *__restrict__ diags, const unsigned char *__restrict__ code, const T *__restrict__ table,
                 int32_t count, const T *__restrict__ x, T *__restrict__ y)
{
    constexpr bool Shared = X == DIA_REUSE_SHARED;
    extern __shared__ __align__(16) unsigned char dia_smem[];
    T *tab = reinterpret_cast<T *>(dia_smem);
    T *xs = tab + (Staged ? DIA_TABLE8_MAX : 0);
    if (Staged)
        for (int k = threadIdx.x; k < count; k += DIA_BLOCK)
            tab[k] = __ldg(table + k);
    const int64_t row0 = (int64_t)blockIdx.x * (DIA_BLOCK * R);
    const int lane = threadIdx.x & 31;
    const int64_t q = row0 + (threadIdx.x >> 5) * (32 * R); // this warp's chunk
    int64_t wlo = 0;
    if (Shared)
        wlo = stage_x_window(x, xs, row0, DIA_BLOCK * R, min_off, max_off, cols);
    if (Shared || Staged)
        __syncthreads();
    if (q >= rows) // the whole warp: its shuffles below keep all 32 lanes
        return;
    T sum[R];
#pragma unroll
    for (int j = 0; j < R; j++)
        sum[j] = 0;
    x_run<T, R> run;
    for (int32_t d0 = 0; d0 < ndiag; d0 += B) {
        int4 g[B];
        code_word<C, R> cw[B];
#pragma unroll
        for (int b = 0; b < B; b++) // offset, begin, end, start; past the last: an empty diagonal
            g[b] = d0 + b < ndiag ? __ldg(diags + d0 + b) : make_int4(0, 0, 0, 0);
#pragma unroll
        for (int b = 0; b < B; b++) {
            cw[b].clear();
            if (q + 32 * R > g[b].y && q < g[b].z) // the warp's chunk holds rows of the diagonal
                cw[b].load(code, g[b].w + q + R * lane);
        }
#pragma unroll
        for (int b = 0; b < B; b++) {
            T xv[R] = {}; // read only with shuffles, and only by rows of a real diagonal
            if (X == DIA_REUSE_SHUFFLE && d0 + b < ndiag) // the same in every lane: a warp-wide branch
                run.at(g[b].x, x, q, lane, cols, xv);
            if (X == DIA_REUSE_L1 && q >= g[b].y && q + 32 * R <= g[b].z) {
                // The whole chunk lies on the diagonal (the same in every
                // lane): no test a row, and row j's x is 32 j entries past
                // row 0's, an offset the load instruction carries.
                const T *xr = x + (q + lane + g[b].x);
#pragma unroll
                for (int j = 0; j < R; j++) {
                    const T v = Staged ? tab[cw[b].at(j)] : __ldg(table + cw[b].at(j));
                    sum[j] = dia_fma(v, __ldg(xr + 32 * j), sum[j]);
                }
                continue;
            }
#pragma unroll
            for (int j = 0; j < R; j++) {
                const int64_t i = q + lane + 32 * j;
                if (i >= g[b].y && i < g[b].z) {
                    const T v = Staged ? tab[cw[b].at(j)] : __ldg(table + cw[b].at(j));
                    const int64_t col = i + g[b].x;
                    const T xc = X == DIA_REUSE_SHUFFLE ? xv[j] : Shared ? xs[col - wlo] : __ldg(x + col);
                    sum[j] = dia_fma(v, xc, sum[j]);
                }
            }
        }
    }
    if (X == DIA_REUSE_L1 && q + 32 * R <= rows) { // a whole chunk of rows: offsets in the store instructions
        T *yr = y + (q + lane);
#pragma unroll
        for (int j = 0; j < R; j++)
            yr[32 * j] = sum[j];
        return;
    }
#pragma unroll
    for (int j = 0; j < R; j++) {
        const int64_t i = q + lane + 32 * j;
        if (i < rows)
            y[i] = sum[j];
    }
}

// Launches the coded kernel for codes of type C, B diagonals a batch, R
// rows a thread. Shuffles are instantiated for R = 4 only (the rows the
// format takes with them, dia_choose_rows).
template <typename T, typename C, int B, int R>
cudaError_t launch_coded_shape(const dia_fmt *f, const T *x, T *y, cudaStream_t s)
{
    constexpr bool staged = sizeof(C) == 1; // nibble (an empty struct) and uint8_t
    const unsigned grid = (unsigned)(((int64_t)f->rows + DIA_BLOCK * R - 1) / (DIA_BLOCK * R));
    const int4 *diags = reinterpret_cast<const int4 *>(f->d_diags);
    const unsigned char *code = static_cast<const unsigned char *>(f->d_val);
    const T *table = static_cast<const T *>(f->vs.d_table);
    size_t smem = staged ? (size_t)DIA_TABLE8_MAX * sizeof(T) : 0;
    if (f->x_path == DIA_REUSE_SHARED) {
        smem += ((size_t)DIA_BLOCK * R + (size_t)(f->max_off - f->min_off)) * sizeof(T);
        dia_coded_kernel<T, C, DIA_REUSE_SHARED, staged, B, R><<<grid, DIA_BLOCK, smem, s>>>(
            f->rows, f->cols, f->ndiag, f->min_off, f->max_off, diags, code, table, f->vs.count, x, y);
    } else if (R == 4 && f->x_path == DIA_REUSE_SHUFFLE) {
        dia_coded_kernel<T, C, DIA_REUSE_SHUFFLE, staged, B, 4><<<grid, DIA_BLOCK, smem, s>>>(
            f->rows, f->cols, f->ndiag, f->min_off, f->max_off, diags, code, table, f->vs.count, x, y);
    } else {
        dia_coded_kernel<T, C, DIA_REUSE_L1, staged, B, R><<<grid, DIA_BLOCK, smem, s>>>(
            f->rows, f->cols, f->ndiag, f->min_off, f->max_off, diags, code, table, f->vs.count, x, y);
    }
    return cudaGetLastError();
}

// The rows a thread the format chose (dia.c, dia_choose_rows).
template <typename T, typename C, int B>
cudaError_t launch_coded_batch(const dia_fmt *f, const T *x, T *y, cudaStream_t s)
{
    if (f->coded_rows == 2)
        return launch_coded_shape<T, C, B, 2>(f, x, y, s);
    if (f->coded_rows == 8)
        return launch_coded_shape<T, C, B, 8>(f, x, y, s);
    return launch_coded_shape<T, C, B, 4>(f, x, y, s);
}

// The batch the format chose (dia.c, dia_choose_batch).
template <typename T, typename C>
cudaError_t launch_coded(const dia_fmt *f, const T *x, T *y, cudaStream_t s)
{
    if (f->batch == 8)
        return launch_coded_batch<T, C, 8>(f, x, y, s);
    if (f->batch == 2)
        return launch_coded_batch<T, C, 2>(f, x, y, s);
    if (f->batch == 1)
        return launch_coded_batch<T, C, 1>(f, x, y, s);
    return launch_coded_batch<T, C, 4>(f, x, y, s);
}

template <typename T>
cudaError_t launch_typed(const dia_fmt *f, const T *x, T *y, cudaStream_t s)
{
    const unsigned grid = (unsigned)(((int64_t)f->rows + DIA_BLOCK - 1) / DIA_BLOCK);
    const int4 *diags = reinterpret_cast<const int4 *>(f->d_diags);
    if (f->vs.kind == SPMVLAB_STORE_CODES4)
        return launch_coded<T, nibble>(f, x, y, s);
    if (f->vs.kind == SPMVLAB_STORE_CODES8)
        return launch_coded<T, uint8_t>(f, x, y, s);
    if (f->vs.kind == SPMVLAB_STORE_CODES16)
        return launch_coded<T, uint16_t>(f, x, y, s);
    return with_values<T>(&f->vs, f->d_val, [&](auto vals) { // x_path is shared or l1 here (dia_choose_x_path)
        if (f->x_path == DIA_REUSE_SHARED) {
            const size_t smem = ((size_t)DIA_BLOCK + (size_t)(f->max_off - f->min_off)) * sizeof(T);
            dia_kernel<T, true><<<grid, DIA_BLOCK, smem, s>>>(f->rows, f->cols, f->ndiag, f->min_off, f->max_off,
                                                              diags, vals, x, y);
        } else {
            dia_kernel<T, false><<<grid, DIA_BLOCK, 0, s>>>(f->rows, f->cols, f->ndiag, f->min_off, f->max_off,
                                                            diags, vals, x, y);
        }
        return cudaGetLastError();
    });
}

} // namespace

// y = A x; nothing to launch without rows (rows without diagonals are
// written as 0).
SPMVLAB_TYPED_LAUNCHER(dia_launch, dia_fmt, f->rows > 0)

SPMVLAB_CUDA_ERROR_STRING(dia)
