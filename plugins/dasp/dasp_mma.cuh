// DASP device building blocks shared by the kernels (dasp_spmv.cu,
// dasp_balanced.cu): the MMA instructions, the value types (f64; f16 with f32
// accumulation), one lane's fragment of a block row, the MMA shapes and
// their medium levels, and the warp sums. The format and the MMA diagonal
// trick are described at the top of dasp.c.
#ifndef SPMVLAB_DASP_MMA_CUH
#define SPMVLAB_DASP_MMA_CUH

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

// The sm_90 f64 shapes m16n8k4, m16n8k8, m16n8k16 (N = 1, 2, 4 values a
// lane): A a(2j) = (g, t+4j) holds the lane's value j, the odd A registers
// (rows 8-15) are zero; B b(j) = (t+4j, g). On sm_80 the same fragment runs
// as N m8n8k4 in slot order.
template <int N>
__device__ __forceinline__ void mma_m16n8k(double (&c)[2], const double (&a)[N], const double (&b)[N])
{
#if __CUDA_ARCH__ >= 900
    double d2 = 0.0, d3 = 0.0; // rows 8-15: scratch, not results
    if constexpr (N == 1)
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%0, %1, %2, %3};\n"
                     : "+d"(c[0]), "+d"(c[1]), "+d"(d2), "+d"(d3)
                     : "d"(a[0]), "d"(0.0), "d"(b[0]));
    else if constexpr (N == 2)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %6, %5, %6}, "
                     "{%7, %8}, {%0, %1, %2, %3};\n"
                     : "+d"(c[0]), "+d"(c[1]), "+d"(d2), "+d"(d3)
                     : "d"(a[0]), "d"(a[1]), "d"(0.0), "d"(b[0]), "d"(b[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
                     "{%4, %8, %5, %8, %6, %8, %7, %8}, {%9, %10, %11, %12}, {%0, %1, %2, %3};\n"
                     : "+d"(c[0]), "+d"(c[1]), "+d"(d2), "+d"(d3)
                     : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(0.0), "d"(b[0]), "d"(b[1]), "d"(b[2]),
                       "d"(b[3]));
#else
#pragma unroll
    for (int j = 0; j < N; j++)
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

// What a shape's specialisation inherits: value type V, values per lane,
// block width, U, and the fragment of VPL values a lane.
template <typename Val, template <int> class FragOf, int VPL_, int BK_, int U_>
struct ShapeOf {
    using V = Val;
    static constexpr int VPL = VPL_, BK = BK_, U = U_;
    using Frag = FragOf<VPL_>;
};
template <int VPL, int BK, int U>
using ShapeF64 = ShapeOf<F64, FragF64, VPL, BK, U>;
template <int VPL, int BK, int U>
using ShapeF16 = ShapeOf<F16, FragF16, VPL, BK, U>;

template <> struct Shape<DASP_F64_M8N8K4> : ShapeF64<1, 4, 4> {
    __device__ static void mma(double (&c)[2], const Frag &f) { mma_m8n8k4(c, f.a[0], f.b[0]); } };
template <> struct Shape<DASP_F64_M16N8K4> : ShapeF64<1, 4, 4> {
    __device__ static void mma(double (&c)[2], const Frag &f) { mma_m16n8k<1>(c, f.a, f.b); } };
template <> struct Shape<DASP_F64_M16N8K8> : ShapeF64<2, 8, 2> {
    __device__ static void mma(double (&c)[2], const Frag &f) { mma_m16n8k<2>(c, f.a, f.b); } };
template <> struct Shape<DASP_F64_M16N8K16> : ShapeF64<4, 16, 1> {
    __device__ static void mma(double (&c)[2], const Frag &f) { mma_m16n8k<4>(c, f.a, f.b); } };
template <> struct Shape<DASP_F16_M16N8K8> : ShapeF16<2, 8, 4> {
    __device__ static void mma(float (&c)[2], const Frag &f) { mma_m16n8k8_f16(c, f.a[0], f.b[0]); } };
template <> struct Shape<DASP_F16_M16N8K16> : ShapeF16<4, 16, 2> {
    __device__ static void mma(float (&c)[2], const Frag &f) { mma_m16n8k16_f16(c, f.a[0], f.a[1], f.b[0], f.b[1]); } };
// k4_batch = 8: m8n8k4 with 8 blocks (or long tiles) loaded a step, twice
// the loads in flight a warp (a kernel shape only; the format's is m8n8k4).
constexpr int kF64M8N8K4x8 = 16;
template <> struct Shape<kF64M8N8K4x8> : ShapeF64<1, 4, 8> {
    __device__ static void mma(double (&c)[2], const Frag &f) { mma_m8n8k4(c, f.a[0], f.b[0]); } };
// 8 x 4 blocks on m16n8k8: lanes t < 2 hold slots 2t, 2t+1; t >= 2 hold zero.
template <> struct Shape<DASP_F16_M16N8K8_K4> : ShapeF16<2, 4, 4> {
    __device__ static void mma(float (&c)[2], const Frag &f) { mma_m16n8k8_f16(c, f.a[0], f.b[0]); } };

// The medium levels of a top shape (dasp_shape_levels): block widths BK,
// BK/2, ..., 4.
template <int N_, int L0, int L1, int L2>
struct LevelsOf {
    static constexpr int N = N_;
    static constexpr int at[DASP_MAX_LEVELS] = {L0, L1, L2};
};
template <int S> struct Levels : LevelsOf<1, S, S, S> {};
template <> struct Levels<DASP_F64_M16N8K8> : LevelsOf<2, DASP_F64_M16N8K8, DASP_F64_M16N8K4, 0> {};
template <> struct Levels<DASP_F64_M16N8K16>
    : LevelsOf<3, DASP_F64_M16N8K16, DASP_F64_M16N8K8, DASP_F64_M16N8K4> {};
template <> struct Levels<DASP_F16_M16N8K8> : LevelsOf<2, DASP_F16_M16N8K8, DASP_F16_M16N8K8_K4, 0> {};
template <> struct Levels<DASP_F16_M16N8K16>
    : LevelsOf<3, DASP_F16_M16N8K16, DASP_F16_M16N8K8, DASP_F16_M16N8K8_K4> {};

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

// Segmented inclusive scan over the warp keyed by the row each lane ends
// in (non-decreasing over the lanes): a lane's v plus those of the lanes
// below it that end in the same row.
template <typename T>
__device__ __forceinline__ T warp_seg_scan(T v, int key, int lane)
{
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const T o = __shfl_up_sync(kFull, v, off);
        const int ok = __shfl_up_sync(kFull, key, off);
        if (lane >= off && ok == key)
            v = o + v;
    }
    return v;
}

// atomicAdd(p, 1) with release semantics at GPU scope: the pieces this
// thread stored are visible in L2 before the count moves. Unlike
// __threadfence() or an acquire, it does not invalidate the SM's L1, which
// holds the x lines of every warp on the SM; a crossing row's last warp
// reads the pieces (or partials) with strong loads instead (served by L2, issued only
// after its atomic returned and the branch on its value was taken).
__device__ __forceinline__ int count_release(int32_t *p)
{
    int old;
    asm volatile("atom.release.gpu.global.add.s32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
    return old;
}
__device__ __forceinline__ double ld_strong(const double *p)
{
    double v;
    asm volatile("ld.relaxed.gpu.global.f64 %0, [%1];" : "=d"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ float ld_strong(const float *p)
{
    float v;
    asm volatile("ld.relaxed.gpu.global.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}

// Lane l's sum of p[l], p[l + 32], ... below p[n], added in that order
// (dasp_host_impl.h's lanes), read with strong loads 16 at a time: a row of
// 500000 entries leaves hundreds or thousands of pieces, and 16 loads a lane
// in flight keep their sum to a few L2 round trips.
template <typename T>
__device__ __forceinline__ T lane_pieces(const T *p, int n, int lane)
{
    T s = 0;
    for (int t0 = lane; t0 < n; t0 += 32 * 16) {
        T got[16];
#pragma unroll
        for (int u = 0; u < 16; u++)
            got[u] = t0 + 32 * u < n ? ld_strong(p + t0 + 32 * u) : T(0);
#pragma unroll
        for (int u = 0; u < 16; u++)
            if (t0 + 32 * u < n)
                s += got[u];
    }
    return s;
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

} // namespace

#endif // SPMVLAB_DASP_MMA_CUH
