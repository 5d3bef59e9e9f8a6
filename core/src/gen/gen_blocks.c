/* Dense r x c blocks, as in finite-element matrices with several unknowns
 * per node (pdb1HYS, cant): block_rows block-rows, each with bpr blocks —
 * its diagonal block plus bpr - 1 distinct random block-columns within
 * `spread` blocks of the diagonal (anywhere when spread is 0). Every row
 * holds exactly bpr·c entries. */
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

enum { P_BROWS, P_BPR, P_R, P_C, P_SPREAD, P_SEED, P_VALUES };

static const spmvlab_option params[] = {
    {"block_rows", SPMVLAB_OPT_INT, "1000", 1, 2147483647.0, NULL,
     "block-rows (and block-columns): block_rows*r rows, block_rows*c columns"},
    {"bpr", SPMVLAB_OPT_INT, "8", 1, 2147483647.0, NULL, "blocks per block-row"},
    {"r", SPMVLAB_OPT_INT, "3", 1, 1024, NULL, "rows of a block"},
    {"c", SPMVLAB_OPT_INT, "3", 1, 1024, NULL, "columns of a block"},
    {"spread", SPMVLAB_OPT_INT, "0", 0, 1073741823.0, NULL,
     "off-diagonal blocks lie within this many block-columns of the diagonal; 0: anywhere"},
    GEN_COMMON_PARAMS,
    {0},
};

/* Block-columns a block-row may draw from: the whole range or a window of
 * 2·spread + 1 kept inside the matrix. */
static int64_t window(const double *v)
{
    int64_t nb = (int64_t)v[P_BROWS], s = (int64_t)v[P_SPREAD];
    return s == 0 || 2 * s + 1 > nb ? nb : 2 * s + 1;
}

static int check(const double *v, spmvlab_err *err)
{
    if (v[P_BPR] > (double)window(v))
        return spmvlab_errf(err,
                            "blocks: bpr = %.0f blocks do not fit the %lld block-columns in reach",
                            v[P_BPR], (long long)window(v)), -1;
    if (gen_fits("blocks", "rows", v[P_BROWS] * v[P_R], err) ||
        gen_fits("blocks", "columns", v[P_BROWS] * v[P_C], err))
        return -1;
    return gen_fits("blocks", "non-zeros", v[P_BROWS] * v[P_BPR] * v[P_R] * v[P_C], err);
}

static int generate(const double *v, spmvlab_csr *A, spmvlab_err *err)
{
    int32_t nb = (int32_t)v[P_BROWS], bpr = (int32_t)v[P_BPR], br = (int32_t)v[P_R],
            bc = (int32_t)v[P_C];
    int32_t w = (int32_t)window(v), s = (int32_t)v[P_SPREAD];
    int64_t len = (int64_t)bpr * bc; /* entries per row */
    if (gen_csr_alloc(A, "blocks", (int64_t)nb * br, (int64_t)nb * bc, len * nb * br, err))
        return -1;
    int32_t *bcol = malloc((size_t)bpr * sizeof *bcol);
    if (!bcol) {
        spmvlab_csr_free(A);
        return spmvlab_errf(err, "blocks: out of host memory"), -1;
    }
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)v[P_SEED], gen_salt("blocks"));
    for (int32_t ib = 0; ib < nb; ib++) {
        int32_t lo = w == nb ? 0 : ib - s;
        lo = lo < 0 ? 0 : lo > nb - w ? nb - w : lo;
        /* bpr - 1 of the w - 1 other block-columns, then the diagonal. */
        gen_sample_sorted(&r, w - 1, bpr - 1, bcol);
        int32_t d = ib - lo, m = bpr - 1;
        for (int32_t q = 0; q < m; q++)
            bcol[q] += lo + (bcol[q] >= d);
        int32_t q = m;
        while (q > 0 && bcol[q - 1] > ib) {
            bcol[q] = bcol[q - 1];
            q--;
        }
        bcol[q] = ib;
        for (int32_t i = 0; i < br; i++) {
            int64_t row = (int64_t)ib * br + i, k = row * len;
            for (int32_t b = 0; b < bpr; b++)
                for (int32_t j = 0; j < bc; j++)
                    A->col_idx[k++] = bcol[b] * bc + j;
            A->row_ptr[row + 1] = (int32_t)k;
        }
    }
    free(bcol);
    return 0;
}

const spmvlab_gen_kind gen_kind_blocks = {
    "blocks", "dense r x c blocks, bpr per block-row, near the diagonal (FEM-like)",
    params, 1, check, generate,
};
