/*
 * CSR5 SpMV launches: the __global__ wrappers of the per-warp code in
 * csr5_kernels.cuh (the algorithm is described there) and the launcher
 * callable from C.
 */
#include <cuda_runtime.h>

#include "csr5_kernels.cuh"

namespace {

/* The warp's store stage (stores = staged, ST): dynamic shared memory, so
 * that the direct kernels hold none (shared memory a kernel holds shrinks
 * the L1 left for x), and compiled out of them (a 32-register kernel would
 * spill its extra state). */
template <typename V, int S, bool ST>
__device__ __forceinline__ V *c5_stage()
{
    extern __shared__ __align__(16) unsigned char c5_smem[];
    return ST ? reinterpret_cast<V *>(c5_smem) + (threadIdx.x / CSR5_OMEGA) * c5_stage_slots(S) : nullptr;
}

/* Lets the calibration launch be scheduled once every block of the main
 * launch has started (its c5_grid_wait still waits for all of them to end). */
__device__ __forceinline__ void c5_allow_dependents()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

constexpr size_t c5_stage_bytes(int s, size_t value_size)
{
    return (size_t)kWarpsPerBlock * c5_stage_slots(s) * value_size;
}

/* The main launch, compiled for at least MINB resident blocks of 256
 * threads per SM (a register budget): 1 lets the compiler choose, 8 suits
 * short f64 tiles (few loads per lane: 32 registers, every warp the SM
 * holds, which the compiler does not choose by itself once the calibration
 * code is inlined), 4 is option occupancy = 4 for long f64 tiles (sigma >=
 * 12 use up to 80 registers at 1: 3 blocks, 24 warps; at 4, 64 registers
 * and 32 warps, fewer loads in flight per warp). g is the same for the 32
 * lanes of a warp, so a warp takes one part. */
template <typename V, int S, bool ST, int MINB>
__global__ void __launch_bounds__(kBlock, MINB) csr5_main(const csr5_dev d, const V *__restrict__ x, V *__restrict__ y)
{
    c5_allow_dependents();
    const int64_t g = ((int64_t)blockIdx.x * kBlock + threadIdx.x) / CSR5_OMEGA;
    csr5_main_warp<V, S>(d, g, (int)(threadIdx.x & (CSR5_OMEGA - 1)), x, y, c5_stage<V, S, ST>());
}

template <typename V, int S>
constexpr bool c5_long() { return sizeof(V) == 8 && S >= 12; }

/* Short tiles get the 8-blocks kernel (S 2..5 in f64: no spills there). */
template <typename V, int S>
constexpr bool c5_short() { return sizeof(V) == 8 && S >= 2 && S <= 5; }

template <typename V>
__global__ void __launch_bounds__(kBlock) csr5_calibrate(const csr5_dev d, V *__restrict__ y)
{
    const int64_t w = ((int64_t)blockIdx.x * kBlock + threadIdx.x) / CSR5_OMEGA;
    csr5_calibrate_warp<V>(d, w, (int)(threadIdx.x & (CSR5_OMEGA - 1)), y);
}

template <typename V, int S, bool ST>
void c5_launch_kernel(const csr5_dev &d, unsigned blocks, const V *x, V *y, cudaStream_t stream)
{
    const size_t smem = ST ? c5_stage_bytes(S, sizeof(V)) : 0;
    if constexpr (c5_short<V, S>())
        csr5_main<V, S, ST, 8><<<blocks, kBlock, smem, stream>>>(d, x, y);
    else if constexpr (c5_long<V, S>())
        if (d.occ4)
            csr5_main<V, S, ST, 4><<<blocks, kBlock, smem, stream>>>(d, x, y);
        else
            csr5_main<V, S, ST, 0><<<blocks, kBlock, smem, stream>>>(d, x, y);
    else
        csr5_main<V, S, ST, 0><<<blocks, kBlock, smem, stream>>>(d, x, y);
}

template <typename V, int S>
cudaError_t c5_launch_main(const csr5_dev &d, const void *x, void *y, cudaStream_t stream)
{
    const int64_t warps =
        (int64_t)d.tiles + d.tail_rows + ((int64_t)d.n_empty + d.n_runs + CSR5_OMEGA - 1) / CSR5_OMEGA;
    if (warps == 0)
        return cudaSuccess;
    const unsigned blocks = (unsigned)((warps + kWarpsPerBlock - 1) / kWarpsPerBlock);
    const V *xv = static_cast<const V *>(x);
    V *yv = static_cast<V *>(y);
    if (d.staged)
        c5_launch_kernel<V, S, true>(d, blocks, xv, yv, stream);
    else
        c5_launch_kernel<V, S, false>(d, blocks, xv, yv, stream);
    return cudaGetLastError();
}

template <typename V>
cudaError_t c5_launch(const csr5_dev &d, const void *x, void *y, cudaStream_t stream)
{
    cudaError_t e = cudaErrorInvalidValue;
    switch (d.sigma) {
#define CSR5_CASE(s) \
    case s: e = c5_launch_main<V, s>(d, x, y, stream); break;
        CSR5_CASE(1) CSR5_CASE(2) CSR5_CASE(3) CSR5_CASE(4) CSR5_CASE(5) CSR5_CASE(6) CSR5_CASE(7) CSR5_CASE(8)
        CSR5_CASE(9) CSR5_CASE(10) CSR5_CASE(11) CSR5_CASE(12) CSR5_CASE(13) CSR5_CASE(14) CSR5_CASE(15)
        CSR5_CASE(16) CSR5_CASE(17) CSR5_CASE(18) CSR5_CASE(19) CSR5_CASE(20) CSR5_CASE(21) CSR5_CASE(22)
        CSR5_CASE(23) CSR5_CASE(24) CSR5_CASE(25) CSR5_CASE(26) CSR5_CASE(27) CSR5_CASE(28) CSR5_CASE(29)
        CSR5_CASE(30) CSR5_CASE(31) CSR5_CASE(32)
#undef CSR5_CASE
    default: break;
    }
    if (e != cudaSuccess || d.calib_inline || d.n_cross == 0)
        return e;
    /* With d.pdl (sm_90) the calibration is a programmatic dependent launch:
     * its blocks start as the main kernel's last blocks run, load their
     * rows' ends, then wait in c5_grid_wait for the main kernel's pieces. */
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)(((int64_t)d.tiles + kBlock - 1) / kBlock));
    cfg.blockDim = dim3(kBlock);
    cfg.stream = stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = d.pdl ? 1 : 0;
    e = cudaLaunchKernelEx(&cfg, csr5_calibrate<V>, d, static_cast<V *>(y));
    return e != cudaSuccess ? e : cudaGetLastError();
}

} // namespace

extern "C" int csr5_spmv_launch(const csr5_dev *d, const void *x, void *y, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    return d->is_f64 ? (int)c5_launch<double>(*d, x, y, s) : (int)c5_launch<float>(*d, x, y, s);
}

extern "C" const char *csr5_cuda_error_text(int code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }
