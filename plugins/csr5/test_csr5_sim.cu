/*
 * The csr5 SpMV kernels' own code (csr5_kernels.cuh), run on the host: each
 * of the 32 lanes of a warp is a thread, and the warp primitives (shuffles,
 * ballot, __syncwarp, the arrival atomic) are simulated with a barrier. The
 * kernels read the format's device arrays, which without a GPU are host
 * memory. For several matrices, sigmas, both calibrations and several orders
 * in which warps run (in order, reversed, shuffled: which warp delivers a
 * crossing row's last piece changes), y must equal spmv_host bit for bit,
 * call after call, and the arrival counters must be back to zero.
 */
#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

extern "C" {
#include "testlib.h"
#include "csr5_format.h"
}
#include "csr5_tile.h"

/* ---- the simulated warp ------------------------------------------------ */

namespace {

/* The 32 lane threads of the simulated warp meet here at every primitive. */
struct sim_warp {
    std::mutex m;
    std::condition_variable cv;
    int arrived = 0;
    unsigned generation = 0;
    uint64_t slot[CSR5_OMEGA];

    void barrier()
    {
        std::unique_lock<std::mutex> lock(m);
        unsigned g = generation;
        if (++arrived == CSR5_OMEGA) {
            arrived = 0;
            generation++;
            cv.notify_all();
        } else {
            cv.wait(lock, [&] { return generation != g; });
        }
    }
};

sim_warp *sim;                /* the warp being simulated */
thread_local int sim_lane;    /* lane of the calling thread */
std::mutex sim_atomic;        /* serialises the arrival atomics */

/* Every lane publishes v; each gets lane src's value. */
template <typename T>
T sim_exchange(T v, int src)
{
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof v);
    sim->slot[sim_lane] = bits;
    sim->barrier();
    uint64_t got = sim->slot[src];
    sim->barrier();
    T r;
    memcpy(&r, &got, sizeof r);
    return r;
}

} // namespace

#define CSR5_SIM 1
#define C5_FN inline
template <typename T>
inline T c5_ldg(const T *p) { return *p; }
template <typename T>
inline T c5_ldcg(const T *p) { return *p; }
template <typename T>
inline T c5_shfl_down(T v, int d) { return sim_exchange(v, sim_lane + d < CSR5_OMEGA ? sim_lane + d : sim_lane); }
template <typename T>
inline T c5_shfl(T v, int src) { return sim_exchange(v, src & (CSR5_OMEGA - 1)); }
inline void c5_syncwarp() { sim->barrier(); }
inline unsigned c5_ballot(bool p)
{
    sim->slot[sim_lane] = p;
    sim->barrier();
    unsigned m = 0;
    for (int l = 0; l < CSR5_OMEGA; l++)
        m |= (sim->slot[l] ? 1u : 0u) << l;
    sim->barrier();
    return m;
}
inline int c5_popc(unsigned v) { return __builtin_popcount(v); }
inline int c5_ffs(unsigned v) { return __builtin_ffs((int)v); }
inline double c5_fma(double a, double b, double c) { return std::fma(a, b, c); }
inline float c5_fma(float a, float b, float c) { return std::fmaf(a, b, c); }
inline int c5_atomic_inc_acq_rel(int32_t *p)
{
    std::lock_guard<std::mutex> lock(sim_atomic);
    return (*p)++;
}
inline int c5_atomic_inc_release(int32_t *p) { return c5_atomic_inc_acq_rel(p); }
template <typename T>
inline T c5_ld_strong(const T *p) { return *p; }
inline void c5_grid_wait() {} /* the calibration runs after the main warps */

#include "csr5_kernels.cuh"

namespace {

/* Runs the per-warp function f(warp, lane) for the warps in order. */
template <typename F>
void sim_run(const std::vector<int64_t> &order, F f)
{
    sim_warp w;
    sim = &w;
    std::vector<std::thread> lanes;
    for (int l = 0; l < CSR5_OMEGA; l++)
        lanes.emplace_back([&, l] {
            sim_lane = l;
            for (int64_t g : order)
                f(g, l);
        });
    for (auto &th : lanes)
        th.join();
    sim = nullptr;
}

/* The warps 0..n-1 in order 0 (as is), 1 (reversed) or 2+ (shuffled). */
std::vector<int64_t> sim_order(int64_t n, int kind)
{
    std::vector<int64_t> o((size_t)n);
    for (int64_t i = 0; i < n; i++)
        o[(size_t)i] = i;
    if (kind == 1)
        std::reverse(o.begin(), o.end());
    if (kind >= 2)
        std::shuffle(o.begin(), o.end(), std::mt19937_64((uint64_t)kind));
    return o;
}

/* y = A x with the kernels' code: what csr5_spmv_launch would launch. */
template <typename V, int S>
void sim_spmv(const csr5_dev &d, const V *x, V *y, int kind)
{
    const int64_t warps =
        (int64_t)d.tiles + d.tail_rows + ((int64_t)d.n_empty + d.n_runs + CSR5_OMEGA - 1) / CSR5_OMEGA;
    /* The warp's shared-memory stage: one buffer for the warps in turn, as
     * a warp finds on the GPU what the block's previous warp left there. */
    std::vector<V> stage(c5_stage_slots(S), std::numeric_limits<V>::quiet_NaN());
    sim_run(sim_order(warps, kind),
            [&](int64_t g, int lane) { csr5_main_warp<V, S>(d, g, lane, x, y, d.staged ? stage.data() : nullptr); });
    if (!d.calib_inline && d.n_cross > 0)
        sim_run(sim_order(((int64_t)d.tiles + CSR5_OMEGA - 1) / CSR5_OMEGA, kind),
                [&](int64_t w, int lane) { csr5_calibrate_warp<V>(d, w, lane, y); });
}

/* The sigmas the cases use (the kernels are templates over sigma). */
template <typename V>
bool sim_dispatch(const csr5_dev &d, const V *x, V *y, int kind)
{
    switch (d.sigma) {
    case 1: sim_spmv<V, 1>(d, x, y, kind); return true;
    case 4: sim_spmv<V, 4>(d, x, y, kind); return true;
    case 5: sim_spmv<V, 5>(d, x, y, kind); return true;
    case 6: sim_spmv<V, 6>(d, x, y, kind); return true;
    case 13: sim_spmv<V, 13>(d, x, y, kind); return true;
    case 17: sim_spmv<V, 17>(d, x, y, kind); return true;
    case 18: sim_spmv<V, 18>(d, x, y, kind); return true;
    case 32: sim_spmv<V, 32>(d, x, y, kind); return true;
    default: return false;
    }
}

/* Converts A (CPU mode), then compares the simulated kernels with spmv_host. */
void check_sim(const char *name, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets,
               std::initializer_list<int> orders)
{
    test_instance *t = nullptr;
    spmvlab_err err = {{0}};
    if (test_convert("csr5", A, dtype, sets, &t, &err) != SPMVLAB_OK) {
        fprintf(stderr, "%s: convert failed: %s\n", name, err.msg);
        test_failures++;
        test_instance_free(t);
        return;
    }
    const csr5_fmt *f = static_cast<const csr5_fmt *>(t->in.fmt);
    const spmvlab_matrix *m = &t->pm.view;
    size_t vs = spmvlab_dtype_size(dtype), ny = (size_t)m->rows * vs;
    std::vector<unsigned char> x((size_t)m->cols * vs + 8), want(ny + 8), got(ny + 8);
    spmvlab_random_x(x.data(), (size_t)m->cols, dtype, 3);
    TEST_CHECK(t->in.plugin->desc->spmv_host(f, x.data(), want.data(), &err) == SPMVLAB_OK);
    for (int kind : orders) {
        spmvlab_poison_host(got.data(), (size_t)m->rows, dtype);
        bool ran = dtype == SPMVLAB_F64
                       ? sim_dispatch(f->d, reinterpret_cast<const double *>(x.data()),
                                      reinterpret_cast<double *>(got.data()), kind)
                       : sim_dispatch(f->d, reinterpret_cast<const float *>(x.data()),
                                      reinterpret_cast<float *>(got.data()), kind);
        if (!ran) {
            fprintf(stderr, "%s: sigma %d has no simulated instance\n", name, f->sigma);
            test_failures++;
            break;
        }
        if (memcmp(got.data(), want.data(), ny) != 0) {
            size_t i = 0;
            while (i < (size_t)m->rows && memcmp(&got[i * vs], &want[i * vs], vs) == 0)
                i++;
            fprintf(stderr, "%s (%s, order %d): kernels and spmv_host differ first at row %zu [%s]\n", name,
                    spmvlab_dtype_name(dtype), kind, i, test_describe(t));
            test_failures++;
        }
        for (int32_t k = 0; f->d.arrivals && k < f->d.tiles; k++)
            if (f->d.arrivals[k] != 0) {
                fprintf(stderr, "%s (order %d): arrival counter %d left at %d\n", name, kind, k, f->d.arrivals[k]);
                test_failures++;
                break;
            }
    }
    test_instance_free(t);
}

void check_all(const char *name, const spmvlab_csr *A, const char *sigma)
{
    const char *inl[] = {sigma, "calibrate=inline", nullptr}, *ker[] = {sigma, "calibrate=kernel", nullptr};
    /* Inline calibration depends on which warp arrives last: run it in
     * order and shuffled. The calibration kernel runs after all of them. */
    check_sim(name, A, SPMVLAB_F64, inl, {0, 2});
    check_sim(name, A, SPMVLAB_F64, ker, {1});
    check_sim(name, A, SPMVLAB_F32, inl, {3});
    /* empty = compress: tiles over the non-empty rows, the row map, runs. */
    const char *cin[] = {sigma, "calibrate=inline", "empty=compress", nullptr},
               *cke[] = {sigma, "calibrate=kernel", "empty=compress", nullptr};
    check_sim(name, A, SPMVLAB_F64, cin, {0, 2});
    check_sim(name, A, SPMVLAB_F64, cke, {1});
    check_sim(name, A, SPMVLAB_F32, cin, {3});
    /* stores = staged: complete rows through the warp's stage. */
    const char *dir[] = {sigma, "stores=staged", nullptr}, *cdi[] = {sigma, "stores=staged", "empty=compress", nullptr};
    check_sim(name, A, SPMVLAB_F64, dir, {2});
    check_sim(name, A, SPMVLAB_F64, cdi, {0});
    check_sim(name, A, SPMVLAB_F32, dir, {1});
}

int gen(spmvlab_csr *A, int32_t rows, int32_t cols, int32_t (*len)(int32_t), uint64_t seed)
{
    std::vector<int32_t> lengths((size_t)rows);
    for (int32_t i = 0; i < rows; i++)
        lengths[(size_t)i] = len(i);
    return test_gen_rows(A, rows, cols, lengths.data(), seed);
}

int32_t len_gappy(int32_t i) { return (i % 7 == 0 || (i / 50) % 3 == 1 || i % 11 == 3) ? 0 : 1 + i % 9; }
int32_t len_hole(int32_t i) { return (i < 20 || i >= 2020) ? 2 : 0; }
int32_t len_one_long(int32_t i) { return i == 150 ? 9000 : 3; }
int32_t len_mixed(int32_t i) { return (int32_t)((i * 7919u) % 61u) + (i % 97 == 0 ? 700 : 0); }

// check_all with each sigma on A when A was built (rc 0); then frees A.
void check_sigmas(const char *name, int rc, spmvlab_csr *A, std::initializer_list<const char *> sigmas)
{
    if (rc != 0)
        return;
    for (const char *sigma : sigmas)
        check_all(name, A, sigma);
    spmvlab_csr_free(A);
}

} // namespace

int main()
{
    spmvlab_csr A;
    check_sigmas("many_empty_rows", gen(&A, 1500, 400, len_gappy, 1), &A, {"sigma=4", "sigma=1"});
    check_sigmas("empty_run_inside_tile", gen(&A, 2040, 300, len_hole, 2), &A, {"sigma=17"});
    /* sigma=1: 282 pieces, the 8-at-a-time piece loads */
    check_sigmas("one_long_row", gen(&A, 300, 20000, len_one_long, 3), &A, {"sigma=32", "sigma=5", "sigma=1"});
    check_sigmas("mixed_lengths", gen(&A, 800, 3000, len_mixed, 4), &A, {"sigma=13", "sigma=18"});
    check_sigmas("single_row", test_gen_uniform(&A, 1, 3000, 3000, 5), &A, {"sigma=4"});
    check_sigmas("below_one_tile", test_gen_uniform(&A, 10, 50, 3, 6), &A, {"sigma=4"});
    check_sigmas("exact_tiles", test_gen_uniform(&A, 64, 100, 8, 7), &A, {"sigma=4"});
    /* Tiles of 128 and of 64 rows (sigma 4, a 64-slot stage): beyond the
     * store stage, and at its limit, which counts the next tile's first row
     * (direct stores); with sigma 6 (128 slots) tiles of 96 rows stage. */
    check_sigmas("one_entry_rows", test_gen_uniform(&A, 1000, 500, 1, 8), &A, {"sigma=4", "sigma=13"});
    /* sigma=6: 96 rows a tile, staged */
    check_sigmas("two_entry_rows", test_gen_uniform(&A, 1000, 500, 2, 9), &A, {"sigma=4", "sigma=6"});
    check_sigmas("bcspwr10", test_load_csr("bcspwr10.mtx.gz", &A), &A, {"sigma=5"});
    return test_done("csr5.unit.kernel_sim");
}
