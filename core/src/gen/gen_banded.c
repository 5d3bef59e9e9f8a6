/* A full band: row i holds every column j with |i - j| <= bandwidth, so
 * interior rows have 2·bandwidth + 1 entries and the first and last
 * bandwidth rows fewer. */
#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct banded_params {
    gen_common common;
    int n, bandwidth;
} banded_params;

static const spmvlab_option params[] = {
    GEN_PARAM(banded_params, n, SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, "rows and columns"),
    GEN_PARAM(banded_params, bandwidth, SPMVLAB_OPT_INT, "8", 0, 1073741823.0,
              "half bandwidth: entries with |i - j| <= bandwidth"),
    GEN_COMMON_PARAMS(banded_params),
    {0},
};

static double band_nnz(double n, double b)
{
    if (b > n - 1)
        b = n - 1;
    return n * (2 * b + 1) - b * (b + 1);
}

static int check(const void *params_, spmvlab_err *err)
{
    const banded_params *p = params_;
    return gen_fits("banded", "non-zeros", band_nnz(p->n, p->bandwidth), err);
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const banded_params *p = params_;
    int32_t n = p->n;
    int64_t b = p->bandwidth;
    if (gen_csr_alloc(A, "banded", n, n, (int64_t)band_nnz(p->n, p->bandwidth), err))
        return -1;
    int64_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        int64_t lo = i - b < 0 ? 0 : i - b, hi = i + b > n - 1 ? n - 1 : i + b;
        for (int64_t j = lo; j <= hi; j++)
            A->col_idx[k++] = (int32_t)j;
        A->row_ptr[i + 1] = (int32_t)k;
    }
    return 0;
}

const spmvlab_gen_kind gen_kind_banded = {
    "banded", "full band of half width bandwidth around the diagonal (n x n)",
    params, 1, check, generate, sizeof(banded_params),
};
