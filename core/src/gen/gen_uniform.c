/* Uniform random rows: every row holds exactly k distinct columns drawn
 * uniformly from all columns, so row lengths are equal and column accesses
 * (x gathers) have no locality at all. */
#include "gen_internal.h"
#include "spmvlab/core.h"

enum { P_N, P_K, P_COLS, P_SEED, P_VALUES };

static const spmvlab_option params[] = {
    {"n", SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, NULL, "rows"},
    {"k", SPMVLAB_OPT_INT, "8", 0, 2147483647.0, NULL, "entries per row"},
    {"cols", SPMVLAB_OPT_INT, "0", 0, 2147483647.0, NULL, "columns; 0: as many as rows"},
    GEN_COMMON_PARAMS,
    {0},
};

static int check(const double *v, spmvlab_err *err)
{
    double cols = v[P_COLS] > 0 ? v[P_COLS] : v[P_N];
    if (v[P_K] > cols)
        return spmvlab_errf(err, "uniform: k = %.0f exceeds the %.0f columns", v[P_K], cols), -1;
    return gen_fits("uniform", "non-zeros", v[P_N] * v[P_K], err);
}

static int generate(const double *v, spmvlab_csr *A, spmvlab_err *err)
{
    int32_t n = (int32_t)v[P_N], k = (int32_t)v[P_K];
    int32_t cols = v[P_COLS] > 0 ? (int32_t)v[P_COLS] : n;
    if (gen_csr_alloc(A, "uniform", n, cols, (int64_t)n * k, err))
        return -1;
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)v[P_SEED], gen_salt("uniform"));
    for (int32_t i = 0; i < n; i++) {
        gen_sample_sorted(&r, cols, k, A->col_idx + (int64_t)i * k);
        A->row_ptr[i + 1] = (int32_t)((int64_t)(i + 1) * k);
    }
    return 0;
}

const spmvlab_gen_kind gen_kind_uniform = {
    "uniform", "k distinct uniformly random columns in every row (n x cols)",
    params, 1, check, generate,
};
