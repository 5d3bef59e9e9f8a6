/* Dense r x c blocks, as in finite-element matrices with several unknowns
 * per node (pdb1HYS, cant): block_rows block-rows, each with bpr blocks —
 * its diagonal block plus bpr - 1 distinct random block-columns within
 * `spread` blocks of the diagonal (anywhere when spread is 0). Every row
 * holds exactly bpr·c entries. */
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct blocks_params {
    gen_common common;
    int block_rows, bpr, r, c, spread;
} blocks_params;

static const spmvlab_option params[] = {
    GEN_PARAM(blocks_params, block_rows, SPMVLAB_OPT_INT, "1000", 1, 2147483647.0,
              "block-rows (and block-columns): block_rows*r rows, block_rows*c columns"),
    GEN_PARAM(blocks_params, bpr, SPMVLAB_OPT_INT, "8", 1, 2147483647.0, "blocks per block-row"),
    GEN_PARAM(blocks_params, r, SPMVLAB_OPT_INT, "3", 1, 1024, "rows of a block"),
    GEN_PARAM(blocks_params, c, SPMVLAB_OPT_INT, "3", 1, 1024, "columns of a block"),
    GEN_PARAM(blocks_params, spread, SPMVLAB_OPT_INT, "0", 0, 1073741823.0,
              "off-diagonal blocks lie within this many block-columns of the diagonal; 0: anywhere"),
    GEN_COMMON_PARAMS(blocks_params),
    {0},
};

static int64_t window(const blocks_params *p) { return gen_block_window(p->block_rows, p->spread); }

static int check(const void *params_, spmvlab_err *err)
{
    const blocks_params *p = params_;
    double nb = p->block_rows;
    if (p->bpr > window(p))
        return spmvlab_errf(err,
                            "blocks: bpr = %d blocks do not fit the %lld block-columns in reach",
                            p->bpr, (long long)window(p)), -1;
    if (gen_fits("blocks", "rows", nb * p->r, err) || gen_fits("blocks", "columns", nb * p->c, err))
        return -1;
    return gen_fits("blocks", "non-zeros", nb * p->bpr * p->r * p->c, err);
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const blocks_params *p = params_;
    int32_t nb = p->block_rows, bpr = p->bpr, br = p->r, bc = p->c;
    int32_t w = (int32_t)window(p), s = p->spread;
    int64_t len = (int64_t)bpr * bc; /* entries per row */
    if (gen_csr_alloc(A, "blocks", (int64_t)nb * br, (int64_t)nb * bc, len * nb * br, err))
        return -1;
    int32_t *bcol = malloc((size_t)bpr * sizeof *bcol);
    if (!bcol) {
        spmvlab_csr_free(A);
        return spmvlab_errf(err, "blocks: out of host memory"), -1;
    }
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)p->common.seed, gen_salt("blocks"));
    for (int32_t ib = 0; ib < nb; ib++) {
        gen_pick_block_cols(&r, ib, nb, w, s, bpr, bcol);
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
    params, 1, check, generate, sizeof(blocks_params),
};
