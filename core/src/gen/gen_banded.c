/* A full band: row i holds every column j with |i - j| <= bandwidth, so
 * interior rows have 2·bandwidth + 1 entries and the first and last
 * bandwidth rows fewer. */
#include "gen_internal.h"
#include "spmvlab/core.h"

enum { P_N, P_BW, P_SEED, P_VALUES };

static const spmvlab_option params[] = {
    {"n", SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, NULL, "rows and columns"},
    {"bandwidth", SPMVLAB_OPT_INT, "8", 0, 1073741823.0, NULL,
     "half bandwidth: entries with |i - j| <= bandwidth"},
    GEN_COMMON_PARAMS,
    {0},
};

static double band_nnz(double n, double b)
{
    if (b > n - 1)
        b = n - 1;
    return n * (2 * b + 1) - b * (b + 1);
}

static int check(const double *v, spmvlab_err *err)
{
    return gen_fits("banded", "non-zeros", band_nnz(v[P_N], v[P_BW]), err);
}

static int generate(const double *v, spmvlab_csr *A, spmvlab_err *err)
{
    int32_t n = (int32_t)v[P_N];
    int64_t b = (int64_t)v[P_BW];
    if (gen_csr_alloc(A, "banded", n, n, (int64_t)band_nnz(v[P_N], v[P_BW]), err))
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
    params, 1, check, generate,
};
