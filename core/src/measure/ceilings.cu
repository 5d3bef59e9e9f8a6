// Device ceilings measured with kernels of known traffic; see ceilings.h.
// Each kernel's result is folded into one word written only when a
// checksum is impossible, so the compiler keeps every load.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "spmvlab/bandwidth.h"
#include "spmvlab/ceilings.h"

namespace {

constexpr int kBlock = 256;
constexpr int kReps = 15;              // timed repetitions per ceiling (after one warm-up)
constexpr int kLoadsPerThread = 64;    // random loads per thread in one gather launch
constexpr int kGraphCalls = 200;       // empty launches captured in the replay graph
constexpr int kMethodVersion = 2;      // 2: the L2 stream reads bypass L1

// Loads bypass L1 (ld.global.cg): a quarter of L2 fits in the SMs' L1s
// together, and each block re-reads the same part every pass.
__global__ void stream_read_kernel(const double2 *__restrict__ a, size_t n2, int passes, double *sink)
{
    double acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += stride) {
            double2 v = __ldcg(a + i);
            acc += v.x + v.y;
        }
    if (acc == -1.0)
        *sink = acc;
}

// Random indices from a per-thread xorshift, so no index array competes
// with the gathers for bandwidth; n is a power of two.
__global__ void gather_kernel(const double *__restrict__ x, size_t mask, double *sink)
{
    unsigned s = 2654435761u * (blockIdx.x * blockDim.x + threadIdx.x + 1);
    double acc = 0;
    for (int k = 0; k < kLoadsPerThread; k++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        acc += x[s & mask];
    }
    if (acc == -1.0)
        *sink = acc;
}

__global__ void empty_kernel() {}

struct Session {
    spmvlab_err *err;
    cudaStream_t s;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    bool failed = false; // a call inside a launch lambda failed (its sentence is in err)
    bool ok(cudaError_t e, const char *what)
    {
        if (e == cudaSuccess)
            return true;
        failed = true;
        spmvlab_errf(err, "device ceilings: %s failed: %s", what, cudaGetErrorString(e));
        return false;
    }
    // Time of one call of launch() between an event pair; false on failure.
    template <class F> bool time_ms(F launch, float *ms)
    {
        if (!ok(cudaEventRecord(e0, s), "cudaEventRecord"))
            return false;
        launch();
        if (failed || !ok(cudaGetLastError(), "a kernel launch") || !ok(cudaEventRecord(e1, s), "cudaEventRecord") ||
            !ok(cudaEventSynchronize(e1), "a kernel"))
            return false;
        return ok(cudaEventElapsedTime(ms, e0, e1), "cudaEventElapsedTime");
    }
    // Fastest (best = true) or median of kReps timed calls after one warm-up.
    template <class F> bool repeat_ms(F launch, bool best, double *out)
    {
        std::vector<float> t;
        for (int r = -1; r < kReps; r++) {
            float ms = 0;
            if (!time_ms(launch, &ms))
                return false;
            if (r >= 0)
                t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        *out = best ? t.front() : t[t.size() / 2];
        return true;
    }
};

size_t pow2_below(size_t n)
{
    size_t p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

bool measure_l2_stream(Session &se, const spmvlab_device *d, int blocks, double *sink, double *gbs)
{
    size_t bytes = std::max<size_t>(d->l2_bytes / 4, 1u << 20); // a quarter of L2: resident with room to spare
    size_t n2 = bytes / sizeof(double2);
    const int passes = 200; // enough passes that one launch lasts far longer than its overhead
    double2 *a = nullptr;
    if (!se.ok(cudaMalloc(&a, n2 * sizeof(double2)), "cudaMalloc"))
        return false;
    bool good = se.ok(cudaMemsetAsync(a, 0, n2 * sizeof(double2), se.s), "cudaMemsetAsync");
    double ms = 0;
    good = good && se.repeat_ms([&] { stream_read_kernel<<<blocks, kBlock, 0, se.s>>>(a, n2, passes, sink); }, true, &ms);
    cudaFree(a);
    if (good)
        *gbs = (double)passes * n2 * sizeof(double2) / (ms * 1e-3) / 1e9;
    return good;
}

bool measure_gather(Session &se, size_t vec_bytes, int blocks, double *sink, double *gps)
{
    size_t n = pow2_below(vec_bytes / sizeof(double));
    double *x = nullptr;
    if (!se.ok(cudaMalloc(&x, n * sizeof(double)), "cudaMalloc"))
        return false;
    bool good = se.ok(cudaMemsetAsync(x, 0, n * sizeof(double), se.s), "cudaMemsetAsync");
    double ms = 0;
    good = good && se.repeat_ms([&] { gather_kernel<<<blocks, kBlock, 0, se.s>>>(x, n - 1, sink); }, true, &ms);
    cudaFree(x);
    if (good)
        *gps = (double)blocks * kBlock * kLoadsPerThread / (ms * 1e-3) / 1e9;
    return good;
}

bool measure_launch(Session &se, double *launch_us, double *replay_us)
{
    double ms = 0;
    if (!se.repeat_ms([&] { empty_kernel<<<1, 32, 0, se.s>>>(); }, false, &ms))
        return false;
    *launch_us = ms * 1e3;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    if (!se.ok(cudaStreamBeginCapture(se.s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture"))
        return false;
    for (int k = 0; k < kGraphCalls; k++)
        empty_kernel<<<1, 32, 0, se.s>>>();
    cudaError_t launched = cudaGetLastError();
    bool good = se.ok(cudaStreamEndCapture(se.s, &graph), "cudaStreamEndCapture") &&
                se.ok(launched, "a kernel launch during capture") &&
                se.ok(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
    good = good && se.repeat_ms([&] { se.ok(cudaGraphLaunch(exec, se.s), "cudaGraphLaunch"); }, true, &ms);
    if (exec)
        cudaGraphExecDestroy(exec);
    if (graph)
        cudaGraphDestroy(graph);
    if (good)
        *replay_us = ms * 1e3 / kGraphCalls;
    return good;
}

} // namespace

extern "C" int spmvlab_ceilings_key(const spmvlab_runtime *rt, char *out, size_t len, spmvlab_err *err)
{
    if (!rt->device.present) {
        spmvlab_errf(err, "no GPU: device ceilings need a CUDA device");
        return -1;
    }
    int sm_khz = 0, mem_khz = 0, drv = 0;
    cudaError_t e;
    if ((e = cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, rt->device.ordinal)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, rt->device.ordinal)) != cudaSuccess ||
        (e = cudaDriverGetVersion(&drv)) != cudaSuccess) {
        spmvlab_errf(err, "device ceilings: reading the clocks and driver failed: %s", cudaGetErrorString(e));
        return -1;
    }
    // The method's version ends the key, so a change of a ceiling's kernel measures again.
    snprintf(out, len, "%s sm%d mem%d drv%d m%d", rt->device.name, sm_khz / 1000, mem_khz / 1000, drv, kMethodVersion);
    return 0;
}

extern "C" int spmvlab_ceilings_measure(spmvlab_runtime *rt, spmvlab_ceilings *c, spmvlab_err *err)
{
    spmvlab_ceilings_clear(c);
    if (spmvlab_ceilings_key(rt, c->key, sizeof c->key, err))
        return -1;
    const spmvlab_device *d = &rt->device;
    c->l2_bytes = (double)d->l2_bytes;
    spmvlab_triad_result tr;
    if (spmvlab_triad(rt, 0, 20, &tr, err))
        return -1;
    c->dram_gbs = tr.best_gbs;
    Session se{err, static_cast<cudaStream_t>(rt->stream)};
    double *sink = nullptr;
    int blocks = std::max(1, d->sm_count * (d->max_threads_per_sm / kBlock));
    size_t dram_vec = std::min<size_t>(std::max<size_t>(1ull << 30, 16 * d->l2_bytes), d->global_mem_bytes / 4);
    bool good = se.ok(cudaEventCreate(&se.e0), "cudaEventCreate") && se.ok(cudaEventCreate(&se.e1), "cudaEventCreate") &&
                se.ok(cudaMalloc(&sink, sizeof(double)), "cudaMalloc") &&
                measure_l2_stream(se, d, blocks, sink, &c->l2_gbs) &&
                measure_gather(se, d->l2_bytes / 4, blocks * 8, sink, &c->gather_l2_gps) &&
                measure_gather(se, dram_vec, blocks * 8, sink, &c->gather_dram_gps) &&
                measure_launch(se, &c->launch_us, &c->replay_us);
    if (se.e0)
        cudaEventDestroy(se.e0);
    if (se.e1)
        cudaEventDestroy(se.e1);
    cudaFree(sink);
    cudaGetLastError();
    return good ? 0 : -1;
}
