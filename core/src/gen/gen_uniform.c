/* Uniform random rows: every row holds exactly k distinct columns drawn
 * uniformly from all columns, so row lengths are equal and column accesses
 * (x gathers) have no locality at all. */
#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct uniform_params {
    gen_common common;
    int n, k, cols;
} uniform_params;

static const spmvlab_option params[] = {
    GEN_PARAM(uniform_params, n, SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, "rows"),
    GEN_PARAM(uniform_params, k, SPMVLAB_OPT_INT, "8", 0, 2147483647.0, "entries per row"),
    GEN_PARAM(uniform_params, cols, SPMVLAB_OPT_INT, "0", 0, 2147483647.0, "columns; 0: as many as rows"),
    GEN_COMMON_PARAMS(uniform_params),
    {0},
};

static int check(const void *params_, spmvlab_err *err)
{
    const uniform_params *p = params_;
    double cols = p->cols > 0 ? p->cols : p->n;
    if (p->k > cols)
        return spmvlab_errf(err, "uniform: k = %d exceeds the %.0f columns", p->k, cols), -1;
    return gen_fits("uniform", "non-zeros", (double)p->n * p->k, err);
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const uniform_params *p = params_;
    int32_t n = p->n, k = p->k;
    int32_t cols = p->cols > 0 ? p->cols : n;
    if (gen_csr_alloc(A, "uniform", n, cols, (int64_t)n * k, err))
        return -1;
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)p->common.seed, gen_salt("uniform"));
    for (int32_t i = 0; i < n; i++) {
        gen_sample_sorted(&r, cols, k, A->col_idx + (int64_t)i * k);
        A->row_ptr[i + 1] = (int32_t)((int64_t)(i + 1) * k);
    }
    return 0;
}

const spmvlab_gen_kind gen_kind_uniform = {
    "uniform", "k distinct uniformly random columns in every row (n x cols)",
    params, 1, check, generate, sizeof(uniform_params),
};
