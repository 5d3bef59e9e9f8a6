// DASP kernels: one launch, four kinds of warps — long-row segments, medium
// row-blocks, short tiles, and the tail (singles and empty rows). The format
// and the MMA diagonal trick are described at the top of dasp.c; dasp_host.c
// runs the same steps on the CPU.
//
// Memory-level parallelism is the design goal: every warp issues all the
// loads of a step (values and columns of several blocks, then their x
// gathers, with the indices it needs later prefetched) before it waits.
#include <climits>
#include <cstdint>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "dasp.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "dasp needs sm_80 or newer (f64 and f16 mma.sync)"
#endif

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kWarps = DASP_BLOCK_THREADS / 32;
constexpr int kTailPerLane = DASP_TAIL_PER_WARP / 32; // singles / empty rows per lane
constexpr int kIrrUnroll = 4; // irregular entries a lane loads before it multiplies

// ---- MMA instructions -------------------------------------------------------
// Only rows 0-7 of A carry values (row g: the lane's own); rows 8-15 of the
// m16 shapes are zero, their C rows go to scratch outputs. c[0], c[1] are
// C[g][2t], C[g][2t+1]: the diagonal C[g][g] is in lane 4g + g/2, c[g & 1].

__device__ __forceinline__ void mma_m8n8k4(double (&c)[2], double a, double b)
{
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
                 : "+d"(c[0]), "+d"(c[1])
                 : "d"(a), "d"(b));
}

__device__ __forceinline__ void mma_m16n8k4(double (&c)[2], double a, double b)
{
#if __CUDA_ARCH__ >= 900
    double d2 = 0.0, d3 = 0.0; // rows 8-15: scratch, not results
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(d2), "+d"(d3)
                 : "d"(a), "d"(0.0), "d"(b));
#else
    mma_m8n8k4(c, a, b);
#endif
}

// A: a0 (g, t), a2 (g, t+4) hold the lane's values; B: b0 (t, g), b1 (t+4, g).
__device__ __forceinline__ void mma_m16n8k8(double (&c)[2], const double (&a)[2], const double (&b)[2])
{
#if __CUDA_ARCH__ >= 900
    double d2 = 0.0, d3 = 0.0; // rows 8-15: scratch, not results
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %6, %5, %6}, "
                 "{%7, %8}, {%0, %1, %2, %3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(d2), "+d"(d3)
                 : "d"(a[0]), "d"(a[1]), "d"(0.0), "d"(b[0]), "d"(b[1]));
#else
    mma_m8n8k4(c, a[0], b[0]);
    mma_m8n8k4(c, a[1], b[1]);
#endif
}

// A: a(2j) = (g, t+4j) holds the lane's value j; B: b(j) = (t+4j, g).
__device__ __forceinline__ void mma_m16n8k16(double (&c)[2], const double (&a)[4], const double (&b)[4])
{
#if __CUDA_ARCH__ >= 900
    double d2 = 0.0, d3 = 0.0; // rows 8-15: scratch, not results
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
                 "{%4, %8, %5, %8, %6, %8, %7, %8}, {%9, %10, %11, %12}, {%0, %1, %2, %3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(d2), "+d"(d3)
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(0.0), "d"(b[0]), "d"(b[1]), "d"(b[2]),
                   "d"(b[3]));
#else
#pragma unroll
    for (int j = 0; j < 4; j++)
        mma_m8n8k4(c, a[j], b[j]);
#endif
}

// f16 x f16 + f32. A reg0 = {(g, 2t), (g, 2t+1)}, B reg0 = {(2t, g), (2t+1, g)}.
__device__ __forceinline__ void mma_m16n8k8_f16(float (&c)[2], uint32_t a0, uint32_t b0)
{
    float d2 = 0.0f, d3 = 0.0f; // rows 8-15: scratch, not results
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(d2), "+f"(d3)
                 : "r"(a0), "r"(0u), "r"(b0));
}

// A reg0 = row g slots 2t, 2t+1; reg2 = row g slots 2t+8, 2t+9; B likewise.
__device__ __forceinline__ void mma_m16n8k16_f16(float (&c)[2], uint32_t a0, uint32_t a2, uint32_t b0, uint32_t b1)
{
    float d2 = 0.0f, d3 = 0.0f; // rows 8-15: scratch, not results
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %6, %5, %6}, "
                 "{%7, %8}, {%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(d2), "+f"(d3)
                 : "r"(a0), "r"(a2), "r"(0u), "r"(b0), "r"(b1));
}

// ---- value types ----------------------------------------------------------------

struct F64 {
    using val_t = double;
    using acc_t = double;
    __device__ static double acc(double v) { return v; }
    __device__ static double x_at(const double *x, int c) { return __ldg(x + c); }
    __device__ static double fma(double a, double b, double c) { return __fma_rn(a, b, c); }
    __device__ static double mul(double a, double b) { return __dmul_rn(a, b); }
    __device__ static void store(double *y, int row, double v) { y[row] = v; }
};

struct F16 {
    using val_t = unsigned short; // binary16 bits
    using acc_t = float;
    __device__ static float acc(unsigned short v) { return __half2float(__ushort_as_half(v)); }
    __device__ static float x_at(const unsigned short *x, int c) { return acc(__ldg(x + c)); }
    __device__ static float fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
    __device__ static float mul(float a, float b) { return __fmul_rn(a, b); }
    __device__ static void store(unsigned short *y, int row, float v) { y[row] = __half_as_ushort(__float2half_rn(v)); }
};

__device__ __forceinline__ uint32_t pack_half2(unsigned short lo, unsigned short hi)
{
    return (uint32_t)lo | ((uint32_t)hi << 16);
}

__device__ __forceinline__ unsigned short x_half(const unsigned short *x, int c)
{
    return c >= 0 ? __ldg(x + c) : (unsigned short)0;
}

// ---- fragments: one lane's VPL values of a block row and their columns
// (streaming loads), then x at those columns (read-only path; 0 for padding
// and for fragments that load nothing). Two steps, so a warp issues the
// value / column loads of all its fragments before any gather. -------------

template <int VPL>
struct FragF64 {
    double a[VPL], b[VPL];
    int c[VPL];
    __device__ __forceinline__ void load(const double *val, const int32_t *col, int64_t off, bool ok)
    {
#pragma unroll
        for (int j = 0; j < VPL; j++)
            a[j] = 0.0, c[j] = DASP_PAD_COL;
        if (!ok)
            return;
        if constexpr (VPL == 1) {
            a[0] = __ldcs(val + off);
            c[0] = __ldcs(col + off);
        } else if constexpr (VPL == 2) {
            double2 v = __ldcs(reinterpret_cast<const double2 *>(val + off));
            int2 k = __ldcs(reinterpret_cast<const int2 *>(col + off));
            a[0] = v.x, a[1] = v.y, c[0] = k.x, c[1] = k.y;
        } else {
            double2 v0 = __ldcs(reinterpret_cast<const double2 *>(val + off));
            double2 v1 = __ldcs(reinterpret_cast<const double2 *>(val + off + 2));
            int4 k = __ldcs(reinterpret_cast<const int4 *>(col + off));
            a[0] = v0.x, a[1] = v0.y, a[2] = v1.x, a[3] = v1.y;
            c[0] = k.x, c[1] = k.y, c[2] = k.z, c[3] = k.w;
        }
    }
    __device__ __forceinline__ void gather(const double *x)
    {
#pragma unroll
        for (int j = 0; j < VPL; j++)
            b[j] = c[j] >= 0 ? __ldg(x + c[j]) : 0.0;
    }
};

template <int VPL>
struct FragF16 {
    uint32_t a[VPL / 2], b[VPL / 2];
    int c[VPL];
    __device__ __forceinline__ void load(const unsigned short *val, const int32_t *col, int64_t off, bool ok)
    {
#pragma unroll
        for (int j = 0; j < VPL; j++)
            c[j] = DASP_PAD_COL;
#pragma unroll
        for (int j = 0; j < VPL / 2; j++)
            a[j] = 0u;
        if (!ok)
            return;
        if constexpr (VPL == 2) {
            a[0] = __ldcs(reinterpret_cast<const unsigned int *>(val + off));
            int2 k = __ldcs(reinterpret_cast<const int2 *>(col + off));
            c[0] = k.x, c[1] = k.y;
        } else {
            uint2 v = __ldcs(reinterpret_cast<const uint2 *>(val + off));
            int4 k = __ldcs(reinterpret_cast<const int4 *>(col + off));
            a[0] = v.x, a[1] = v.y;
            c[0] = k.x, c[1] = k.y, c[2] = k.z, c[3] = k.w;
        }
    }
    __device__ __forceinline__ void gather(const unsigned short *x)
    {
#pragma unroll
        for (int j = 0; j < VPL / 2; j++)
            b[j] = pack_half2(x_half(x, c[2 * j]), x_half(x, c[2 * j + 1]));
    }
};

// ---- shapes: value type, values per lane, block width, fragment, MMA, and
// U, the blocks a warp loads before it multiplies (about 4 values a lane) ---

template <int S>
struct Shape;

template <>
struct Shape<DASP_F64_M8N8K4> {
    using V = F64;
    static constexpr int VPL = 1, BK = 4, U = 4;
    using Frag = FragF64<1>;
    __device__ static void mma(double (&c)[2], const Frag &f) { mma_m8n8k4(c, f.a[0], f.b[0]); }
};
template <>
struct Shape<DASP_F64_M16N8K4> {
    using V = F64;
    static constexpr int VPL = 1, BK = 4, U = 4;
    using Frag = FragF64<1>;
    __device__ static void mma(double (&c)[2], const Frag &f) { mma_m16n8k4(c, f.a[0], f.b[0]); }
};
template <>
struct Shape<DASP_F64_M16N8K8> {
    using V = F64;
    static constexpr int VPL = 2, BK = 8, U = 2;
    using Frag = FragF64<2>;
    __device__ static void mma(double (&c)[2], const Frag &f) { mma_m16n8k8(c, f.a, f.b); }
};
template <>
struct Shape<DASP_F64_M16N8K16> {
    using V = F64;
    static constexpr int VPL = 4, BK = 16, U = 1;
    using Frag = FragF64<4>;
    __device__ static void mma(double (&c)[2], const Frag &f) { mma_m16n8k16(c, f.a, f.b); }
};
template <>
struct Shape<DASP_F16_M16N8K8> {
    using V = F16;
    static constexpr int VPL = 2, BK = 8, U = 4;
    using Frag = FragF16<2>;
    __device__ static void mma(float (&c)[2], const Frag &f) { mma_m16n8k8_f16(c, f.a[0], f.b[0]); }
};
template <>
struct Shape<DASP_F16_M16N8K16> {
    using V = F16;
    static constexpr int VPL = 4, BK = 16, U = 2;
    using Frag = FragF16<4>;
    __device__ static void mma(float (&c)[2], const Frag &f) { mma_m16n8k16_f16(c, f.a[0], f.a[1], f.b[0], f.b[1]); }
};
// 8 x 4 blocks on m16n8k8: lanes t < 2 hold slots 2t, 2t+1; t >= 2 hold zero.
template <>
struct Shape<DASP_F16_M16N8K8_K4> {
    using V = F16;
    static constexpr int VPL = 2, BK = 4, U = 4;
    using Frag = FragF16<2>;
    __device__ static void mma(float (&c)[2], const Frag &f) { mma_m16n8k8_f16(c, f.a[0], f.b[0]); }
};

// The medium levels of a top shape (dasp_shape_levels): block widths BK,
// BK/2, ..., 4.
template <int S>
struct Levels {
    static constexpr int N = 1;
    static constexpr int at[DASP_MAX_LEVELS] = {S, S, S};
};
template <>
struct Levels<DASP_F64_M16N8K8> {
    static constexpr int N = 2;
    static constexpr int at[DASP_MAX_LEVELS] = {DASP_F64_M16N8K8, DASP_F64_M16N8K4, 0};
};
template <>
struct Levels<DASP_F64_M16N8K16> {
    static constexpr int N = 3;
    static constexpr int at[DASP_MAX_LEVELS] = {DASP_F64_M16N8K16, DASP_F64_M16N8K8, DASP_F64_M16N8K4};
};
template <>
struct Levels<DASP_F16_M16N8K8> {
    static constexpr int N = 2;
    static constexpr int at[DASP_MAX_LEVELS] = {DASP_F16_M16N8K8, DASP_F16_M16N8K8_K4, 0};
};
template <>
struct Levels<DASP_F16_M16N8K16> {
    static constexpr int N = 3;
    static constexpr int at[DASP_MAX_LEVELS] = {DASP_F16_M16N8K16, DASP_F16_M16N8K8, DASP_F16_M16N8K8_K4};
};

// Sum over the warp; every lane ends with the same bits (dasp_host_impl.h's
// butterfly).
template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(kFull, v, off);
    return v;
}

// Lane 4g+t's candidate for the diagonal C[g][g]: its c[g & 1], the true
// diagonal in lane 4g + g/2 only.
template <typename T>
__device__ __forceinline__ T diag_pick(const T (&c)[2], int lane)
{
    return (lane >> 2) & 1 ? c[1] : c[0];
}
__device__ __forceinline__ int diag_lane(int g) { return 4 * g + (g >> 1); }

// Lane 4g+t reads values g*BK + t*VPL.. of a block; lanes with t*VPL >= BK
// (8 x 4 blocks on a k8 MMA) read nothing.
template <int S>
__device__ __forceinline__ int64_t lane_offset(int lane)
{
    return (lane >> 2) * Shape<S>::BK + (lane & 3) * Shape<S>::VPL;
}
template <int S>
__device__ __forceinline__ bool lane_active(int lane)
{
    return (lane & 3) * Shape<S>::VPL < Shape<S>::BK;
}

// ---- long rows: one warp per segment; the last warp of a row reduces -------

// Accumulates the long tiles [t0, t1) of 8 x BK values at val/col into c,
// U tiles at a time; values at or past len (the row's end) load nothing.
template <int S>
__device__ __forceinline__ void long_tiles(typename Shape<S>::V::acc_t (&c)[2], const typename Shape<S>::V::val_t *val,
                                           const int32_t *col, int64_t t0, int64_t t1, int64_t len,
                                           const typename Shape<S>::V::val_t *x, int lane)
{
    using Sh = Shape<S>;
    constexpr int TE = DASP_BM * Sh::BK, U = Sh::U;
    const int64_t lo = lane_offset<S>(lane);
    for (int64_t t = t0; t < t1; t += U) {
        typename Sh::Frag fr[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int64_t off = (t + u) * TE + lo;
            fr[u].load(val, col, off, t + u < t1 && off < len);
        }
#pragma unroll
        for (int u = 0; u < U; u++)
            fr[u].gather(x);
#pragma unroll
        for (int u = 0; u < U; u++)
            if (t + u < t1)
                Sh::mma(c, fr[u]);
    }
}

template <int S>
__device__ __forceinline__ void long_warp(const dasp_launch &L, const typename Shape<S>::V::val_t *x,
                                          typename Shape<S>::V::val_t *y, int64_t s, int lane)
{
    using V = typename Shape<S>::V;
    using acc_t = typename V::acc_t;
    constexpr int TE = DASP_BM * Shape<S>::BK;
    const int lr = __ldg(L.seg_row + s);
    const int sp0 = __ldg(L.seg_ptr + lr), nseg = __ldg(L.seg_ptr + lr + 1) - sp0;
    const int row = __ldg(L.long_row + lr);
    const int64_t base = __ldg(L.long_ptr + lr), len = __ldg(L.long_ptr + lr + 1) - base;
    const int64_t ntiles = (len + TE - 1) / TE, t0 = (int64_t)(s - sp0) * L.seg_tiles;
    const int64_t t1 = t0 + L.seg_tiles < ntiles ? t0 + L.seg_tiles : ntiles;
    acc_t c[2] = {0, 0};
    long_tiles<S>(c, static_cast<const typename V::val_t *>(L.long_val) + base, L.long_col + base, t0, t1, len, x,
                  lane);
    const acc_t v = warp_sum(lane == diag_lane(lane >> 2) ? diag_pick(c, lane) : acc_t(0));
    if (nseg == 1) {
        if (lane == 0)
            V::store(y, row, v);
        return;
    }
    acc_t *partial = static_cast<acc_t *>(L.partial);
    int last = 0;
    if (lane == 0) {
        partial[s] = v;
        __threadfence(); // the partial is visible before the count says so
        last = atomicAdd(L.count + lr, 1) == nseg - 1;
    }
    if (!__shfl_sync(kFull, last, 0))
        return;
    __threadfence();
    acc_t p = 0;
    for (int i = lane; i < nseg; i += 32)
        p += __ldcg(partial + sp0 + i);
    p = warp_sum(p);
    if (lane == 0) {
        V::store(y, row, p);
        L.count[lr] = 0; // ready for the next call
    }
}

// ---- medium rows: RB row-blocks (8 RB rows) per warp --------------------------

// Level I.. of top shape S for the warp's nrb row-blocks (level starts q, in
// units of 32 values). G row-blocks run together, each with its own
// accumulator, UB blocks of each per step, so a warp has about 4 values a
// lane in flight even when every row-block is one block wide.
template <int S, int RB, int I>
__device__ __forceinline__ void medium_levels(typename Shape<S>::V::acc_t (&c)[RB][2], const dasp_launch &L,
                                              const int32_t (&q)[RB][DASP_MAX_LEVELS + 1],
                                              const typename Shape<S>::V::val_t *x, int lane)
{
    if constexpr (I < Levels<S>::N) {
        constexpr int SL = Levels<S>::at[I];
        using Sh = Shape<SL>;
        using val_t = typename Shape<S>::V::val_t;
        constexpr int TE = DASP_BM * Sh::BK;
        // All RB row-blocks load together where registers allow (f16
        // fragments are small: always; f64 about 4 values a lane), so a
        // warp of one-block-wide row-blocks waits for one round trip.
        constexpr int budget = sizeof(val_t) == 2 ? 16 : 4;
        constexpr int G = RB < budget / Sh::VPL ? RB : (budget / Sh::VPL > 0 ? budget / Sh::VPL : 1);
        constexpr int UB = Sh::U / G > 0 ? Sh::U / G : 1;
        const val_t *val = static_cast<const val_t *>(L.med_val);
        const int64_t lo = lane_offset<SL>(lane);
        const bool active = lane_active<SL>(lane);
#pragma unroll
        for (int gb = 0; gb < RB; gb += G) {
            int64_t base[G];
            int nb[G], nmax = 0;
#pragma unroll
            for (int b = 0; b < G; b++) {
                base[b] = (int64_t)q[gb + b][I] * 32;
                nb[b] = (int)(((int64_t)q[gb + b][I + 1] - q[gb + b][I]) * 32 / TE);
                nmax = nb[b] > nmax ? nb[b] : nmax;
            }
            for (int k = 0; k < nmax; k += UB) {
                typename Sh::Frag fr[G][UB];
#pragma unroll
                for (int b = 0; b < G; b++)
#pragma unroll
                    for (int u = 0; u < UB; u++) {
                        const int64_t off = base[b] + (int64_t)(k + u) * TE + lo;
                        fr[b][u].load(val, L.med_col, off, active && k + u < nb[b]);
                    }
#pragma unroll
                for (int b = 0; b < G; b++)
#pragma unroll
                    for (int u = 0; u < UB; u++)
                        fr[b][u].gather(x);
#pragma unroll
                for (int b = 0; b < G; b++)
#pragma unroll
                    for (int u = 0; u < UB; u++)
                        if (k + u < nb[b])
                            Sh::mma(c[gb + b], fr[b][u]);
            }
        }
        medium_levels<S, RB, I + 1>(c, L, q, x, lane);
    }
}

// The warp's rows: row j = lane / LPR of its 8 RB rows (LPR = 4 / RB lanes
// per row) sums the row's irregular entries (lane sub takes entries sub,
// sub + LPR, ...; then a butterfly over the LPR lanes), takes the MMA
// diagonal of its row-block from lane 4g + g/2, and stores y once.
template <int S, int RB>
__device__ __forceinline__ void medium_warp(const dasp_launch &L, const typename Shape<S>::V::val_t *x,
                                            typename Shape<S>::V::val_t *y, int64_t w, int lane)
{
    using V = typename Shape<S>::V;
    using val_t = typename V::val_t;
    using acc_t = typename V::acc_t;
    constexpr int NL = Levels<S>::N, LPR = 4 / RB;
    const int64_t rb0 = w * RB;
    const int nrb = L.n_rb - rb0 < RB ? (int)(L.n_rb - rb0) : RB;
    const int j = lane / LPR, sub = lane % LPR;
    const int64_t r = rb0 * DASP_BM + j;
    int i0 = 0, i1 = 0, row = -1;
    if (j < nrb * DASP_BM) {
        i0 = __ldg(L.irr_ptr + r);
        i1 = __ldg(L.irr_ptr + r + 1);
        row = __ldg(L.med_row + r);
    }
    int32_t q[RB][DASP_MAX_LEVELS + 1];
#pragma unroll
    for (int b = 0; b < RB; b++)
#pragma unroll
        for (int l = 0; l <= NL; l++)
            q[b][l] = b < nrb ? __ldg(L.rb_ptr + (rb0 + b) * NL + l) : 0;
    // The lane's first irregular entry is loaded with the blocks.
    const val_t *ival = static_cast<const val_t *>(L.irr_val);
    int i = i0 + sub, c0 = DASP_PAD_COL;
    val_t v0 = 0;
    if (i < i1) {
        v0 = __ldcs(ival + i);
        c0 = __ldcs(L.irr_col + i);
    }
    acc_t c[RB][2];
#pragma unroll
    for (int b = 0; b < RB; b++)
        c[b][0] = c[b][1] = 0;
    medium_levels<S, RB, 0>(c, L, q, x, lane);
    acc_t s = 0;
    if (c0 >= 0)
        s = V::fma(V::acc(v0), V::x_at(x, c0), s);
    // The rest, kIrrUnroll entries a lane per step: their value / column
    // loads, then their x gathers, are all issued before the first FMA (the
    // same FMAs in the same order as one entry at a time).
    for (i += LPR; i < i1; i += kIrrUnroll * LPR) {
        val_t v[kIrrUnroll];
        int cl[kIrrUnroll];
#pragma unroll
        for (int u = 0; u < kIrrUnroll; u++) {
            const int k = i + u * LPR;
            v[u] = 0, cl[u] = DASP_PAD_COL;
            if (k < i1) {
                v[u] = __ldcs(ival + k);
                cl[u] = __ldcs(L.irr_col + k);
            }
        }
        acc_t xv[kIrrUnroll];
#pragma unroll
        for (int u = 0; u < kIrrUnroll; u++)
            xv[u] = cl[u] >= 0 ? V::x_at(x, cl[u]) : acc_t(0);
#pragma unroll
        for (int u = 0; u < kIrrUnroll; u++)
            if (cl[u] >= 0)
                s = V::fma(V::acc(v[u]), xv[u], s);
    }
    if constexpr (LPR >= 2)
        s += __shfl_xor_sync(kFull, s, 1);
    if constexpr (LPR >= 4)
        s += __shfl_xor_sync(kFull, s, 2);
    const int g = j % DASP_BM, jb = j / DASP_BM;
    acc_t d = 0;
#pragma unroll
    for (int b = 0; b < RB; b++) {
        const acc_t got = __shfl_sync(kFull, diag_pick(c[b], lane), diag_lane(g));
        if (jb == b)
            d = got;
    }
    if (sub == 0 && row >= 0)
        V::store(y, row, d + s);
}

// ---- short tiles: 8 rows x 4 slots; one MMA per packing segment --------------

__device__ __forceinline__ int64_t short_id0(const dasp_launch &L, int64_t tile)
{
    const int64_t n2 = L.n_tiles13 + L.n_tiles22;
    return tile < n2 ? tile * DASP_SHORT_IDS2 : n2 * DASP_SHORT_IDS2 + (tile - n2) * DASP_SHORT_IDS1;
}

// Slots of segment 0 of a tile: 1 (1&3), 2 (2&2), 4 (4-tile, one segment).
__device__ __forceinline__ int short_split(const dasp_launch &L, int64_t tile)
{
    return tile < L.n_tiles13 ? 1 : tile < L.n_tiles13 + L.n_tiles22 ? 2 : DASP_SHORT_K;
}

// The rows of the two segments of tile row g (-1: none), for the diagonal
// lanes; loaded with the tile.
__device__ __forceinline__ void short_rows(const dasp_launch &L, int64_t tile, int split, int lane, int &row0,
                                           int &row1)
{
    const int g = lane >> 2;
    row0 = row1 = -1;
    if (lane == diag_lane(g)) {
        const int64_t id0 = short_id0(L, tile);
        row0 = __ldg(L.sh_row + id0 + g);
        if (split < DASP_SHORT_K)
            row1 = __ldg(L.sh_row + id0 + DASP_BM + g);
    }
}

// f64: m8n8k4, lane 4g+t holds slot t of tile row g.
__device__ __forceinline__ void short_warp(const dasp_launch &L, const double *x, double *y, int64_t w, int lane)
{
    constexpr int P = DASP_SHORT_TILES_PER_WARP;
    const int t = lane & 3;
    const int64_t nt = L.n_tiles13 + L.n_tiles22 + L.n_tiles4, tl0 = w * P;
    const double *val = static_cast<const double *>(L.sh_val);
    double a[P], xv[P];
    int cl[P], split[P], row0[P], row1[P];
#pragma unroll
    for (int u = 0; u < P; u++) {
        const int64_t tile = tl0 + u, p = tile * DASP_SHORT_TILE + lane;
        a[u] = 0.0, cl[u] = DASP_PAD_COL, split[u] = DASP_SHORT_K, row0[u] = row1[u] = -1;
        if (tile < nt) {
            a[u] = __ldcs(val + p);
            cl[u] = __ldcs(L.sh_col + p);
            split[u] = short_split(L, tile);
            short_rows(L, tile, split[u], lane, row0[u], row1[u]);
        }
    }
#pragma unroll
    for (int u = 0; u < P; u++)
        xv[u] = cl[u] >= 0 ? __ldg(x + cl[u]) : 0.0;
#pragma unroll
    for (int u = 0; u < P; u++) {
        if (tl0 + u >= nt)
            continue;
        double c[2] = {0, 0};
        mma_m8n8k4(c, a[u], t < split[u] ? xv[u] : 0.0);
        if (row0[u] >= 0)
            y[row0[u]] = diag_pick(c, lane);
        if (split[u] < DASP_SHORT_K) {
            double d[2] = {0, 0};
            mma_m8n8k4(d, a[u], t >= split[u] ? xv[u] : 0.0);
            if (row1[u] >= 0)
                y[row1[u]] = diag_pick(d, lane);
        }
    }
}

// f16: m16n8k8, lane 4g+t (t < 2) holds slots 2t, 2t+1 of tile row g; lanes
// t >= 2 hold slots 4-7, which a short tile does not have (zero).
__device__ __forceinline__ void short_warp(const dasp_launch &L, const unsigned short *x, unsigned short *y,
                                           int64_t w, int lane)
{
    constexpr int P = DASP_SHORT_TILES_PER_WARP;
    const int g = lane >> 2, t = lane & 3;
    const int64_t nt = L.n_tiles13 + L.n_tiles22 + L.n_tiles4, tl0 = w * P;
    const unsigned short *val = static_cast<const unsigned short *>(L.sh_val);
    uint32_t a[P];
    int2 cl[P];
    int split[P], row0[P], row1[P];
    unsigned short x0[P], x1[P];
#pragma unroll
    for (int u = 0; u < P; u++) {
        const int64_t tile = tl0 + u, p = tile * DASP_SHORT_TILE + g * DASP_SHORT_K + 2 * t;
        a[u] = 0u, cl[u] = make_int2(DASP_PAD_COL, DASP_PAD_COL), split[u] = DASP_SHORT_K, row0[u] = row1[u] = -1;
        if (tile < nt) {
            if (t < 2) {
                a[u] = __ldcs(reinterpret_cast<const unsigned int *>(val + p));
                cl[u] = __ldcs(reinterpret_cast<const int2 *>(L.sh_col + p));
            }
            split[u] = short_split(L, tile);
            short_rows(L, tile, split[u], lane, row0[u], row1[u]);
        }
    }
#pragma unroll
    for (int u = 0; u < P; u++) {
        x0[u] = x_half(x, cl[u].x);
        x1[u] = x_half(x, cl[u].y);
    }
#pragma unroll
    for (int u = 0; u < P; u++) {
        if (tl0 + u >= nt)
            continue;
        const int s0 = 2 * t, s1 = 2 * t + 1;
        float c[2] = {0, 0};
        mma_m16n8k8_f16(c, a[u], pack_half2(s0 < split[u] ? x0[u] : 0, s1 < split[u] ? x1[u] : 0));
        if (row0[u] >= 0)
            F16::store(y, row0[u], diag_pick(c, lane));
        if (split[u] < DASP_SHORT_K) {
            float d[2] = {0, 0};
            mma_m16n8k8_f16(d, a[u], pack_half2(s0 >= split[u] ? x0[u] : 0, s1 >= split[u] ? x1[u] : 0));
            if (row1[u] >= 0)
                F16::store(y, row1[u], diag_pick(d, lane));
        }
    }
}

// ---- tail: leftover length-1 rows, then empty rows; kTailPerLane a lane ----

template <typename V>
__device__ __forceinline__ void tail_warp(const dasp_launch &L, const typename V::val_t *x, typename V::val_t *y,
                                          int64_t w, int lane)
{
    using val_t = typename V::val_t;
    const val_t *sval = static_cast<const val_t *>(L.single_val);
    const int64_t n = L.n_single + L.n_empty;
    int row[kTailPerLane], cl[kTailPerLane];
    val_t v[kTailPerLane];
#pragma unroll
    for (int u = 0; u < kTailPerLane; u++) {
        const int64_t i = (w * kTailPerLane + u) * 32 + lane;
        row[u] = -1, cl[u] = DASP_PAD_COL, v[u] = 0;
        if (i < L.n_single) {
            row[u] = __ldg(L.single_row + i);
            cl[u] = __ldcs(L.single_col + i);
            v[u] = __ldcs(sval + i);
        } else if (i < n) {
            row[u] = __ldg(L.empty_row + (i - L.n_single));
        }
    }
#pragma unroll
    for (int u = 0; u < kTailPerLane; u++)
        if (row[u] >= 0)
            V::store(y, row[u], cl[u] >= 0 ? V::mul(V::acc(v[u]), V::x_at(x, cl[u])) : typename V::acc_t(0));
}

// ---- empty runs (empty_runs = 1): DASP_RUNS_PER_WARP runs a warp; lane j
// loads run j, then the warp writes each run whole, 32 consecutive rows a
// store ----

template <typename V>
__device__ __forceinline__ void runs_warp(const dasp_launch &L, typename V::val_t *y, int64_t w, int lane)
{
    const int64_t r0 = w * DASP_RUNS_PER_WARP;
    const int64_t left = L.n_runs - r0;
    const int nr = left < DASP_RUNS_PER_WARP ? (int)left : DASP_RUNS_PER_WARP; // uniform over the warp
    int start = 0, len = 0;
    if (lane < nr) {
        start = __ldcs(L.run_start + r0 + lane);
        len = __ldcs(L.run_len + r0 + lane);
    }
    for (int j = 0; j < nr; j++) {
        const int s = __shfl_sync(0xffffffffu, start, j), n = __shfl_sync(0xffffffffu, len, j);
        for (int i = lane; i < n; i += 32)
            V::store(y, s + i, typename V::acc_t(0));
    }
}

// Warps are numbered long segments, medium, short, tail, runs; every role is
// uniform over a warp, so each MMA and shuffle runs with all 32 lanes.
template <int S, int RB>
__device__ __forceinline__ void dasp_body(const dasp_launch &L, const void *xv, void *yv)
{
    using V = typename Shape<S>::V;
    using val_t = typename V::val_t;
    const val_t *x = static_cast<const val_t *>(xv);
    val_t *y = static_cast<val_t *>(yv);
    int64_t w = (int64_t)blockIdx.x * kWarps + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (w < L.w_long) {
        long_warp<S>(L, x, y, w, lane);
        return;
    }
    w -= L.w_long;
    if (w < L.w_med) {
        medium_warp<S, RB>(L, x, y, w, lane);
        return;
    }
    w -= L.w_med;
    if (w < L.w_short) {
        short_warp(L, x, y, w, lane);
        return;
    }
    w -= L.w_short;
    if (w < L.w_tail) {
        tail_warp<V>(L, x, y, w, lane);
        return;
    }
    w -= L.w_tail;
    if (w < L.w_runs)
        runs_warp<V>(L, y, w, lane);
}

template <int S, int RB>
__global__ void __launch_bounds__(DASP_BLOCK_THREADS) dasp_kernel(const dasp_launch L, const void *xv, void *yv)
{
    dasp_body<S, RB>(L, xv, yv);
}

// The same kernel held to 64 registers (4 blocks, 32 warps an SM), for the
// instances the compiler would otherwise give a few registers more and one
// block less without need: m16n8k4 with 4 row-blocks a warp (66 -> 64, no
// spills; nvcc -Xptxas -v).
template <int S, int RB>
__global__ void __launch_bounds__(DASP_BLOCK_THREADS, 4) dasp_kernel_r64(const dasp_launch L, const void *xv, void *yv)
{
    dasp_body<S, RB>(L, xv, yv);
}

template <int S>
cudaError_t launch(const dasp_launch &L, const void *x, void *y, unsigned blocks, cudaStream_t s)
{
    switch (L.rb_per_warp) {
    case 1: dasp_kernel<S, 1><<<blocks, DASP_BLOCK_THREADS, 0, s>>>(L, x, y); break;
    case 2: dasp_kernel<S, 2><<<blocks, DASP_BLOCK_THREADS, 0, s>>>(L, x, y); break;
    case 4:
        if constexpr (S == DASP_F64_M16N8K4)
            dasp_kernel_r64<S, 4><<<blocks, DASP_BLOCK_THREADS, 0, s>>>(L, x, y);
        else
            dasp_kernel<S, 4><<<blocks, DASP_BLOCK_THREADS, 0, s>>>(L, x, y);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

} // namespace

extern "C" int dasp_spmv_launch(const dasp_launch *L, const void *x, void *y, void *stream)
{
    const int64_t warps = L->w_long + L->w_med + L->w_short + L->w_tail + L->w_runs;
    if (warps <= 0)
        return 0;
    const int64_t blocks = (warps + kWarps - 1) / kWarps;
    if (blocks > INT_MAX)
        return (int)cudaErrorInvalidConfiguration;
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    const unsigned b = (unsigned)blocks;
    switch (L->shape) {
    case DASP_F64_M8N8K4: return (int)launch<DASP_F64_M8N8K4>(*L, x, y, b, s);
    case DASP_F64_M16N8K4: return (int)launch<DASP_F64_M16N8K4>(*L, x, y, b, s);
    case DASP_F64_M16N8K8: return (int)launch<DASP_F64_M16N8K8>(*L, x, y, b, s);
    case DASP_F64_M16N8K16: return (int)launch<DASP_F64_M16N8K16>(*L, x, y, b, s);
    case DASP_F16_M16N8K8: return (int)launch<DASP_F16_M16N8K8>(*L, x, y, b, s);
    case DASP_F16_M16N8K16: return (int)launch<DASP_F16_M16N8K16>(*L, x, y, b, s);
    default: return (int)cudaErrorInvalidValue;
    }
}

extern "C" const char *dasp_cuda_error_text(int code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }
