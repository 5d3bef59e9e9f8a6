/* Dense blocks of mixed sizes, as in finite-element matrices whose nodes
 * carry different numbers of unknowns: `nodes` nodes of min_size .. max_size
 * unknowns each (uniform), the same partition for rows and columns; each
 * node-row holds its diagonal block plus bpr - 1 distinct random node-columns
 * within `spread` nodes of the diagonal (anywhere when spread is 0). Block
 * (I, J) is size(I) x size(J) and fully dense. */
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct vblocks_params {
    gen_common common;
    int nodes, bpr, min_size, max_size, spread;
} vblocks_params;

static const spmvlab_option params[] = {
    GEN_PARAM(vblocks_params, nodes, SPMVLAB_OPT_INT, "1000", 1, 2147483647.0,
              "nodes: block-rows and block-columns, each of min_size .. max_size rows and columns"),
    GEN_PARAM(vblocks_params, bpr, SPMVLAB_OPT_INT, "8", 1, 2147483647.0, "blocks per block-row"),
    GEN_PARAM(vblocks_params, min_size, SPMVLAB_OPT_INT, "2", 1, 1024, "fewest unknowns of a node"),
    GEN_PARAM(vblocks_params, max_size, SPMVLAB_OPT_INT, "6", 1, 1024, "most unknowns of a node"),
    GEN_PARAM(vblocks_params, spread, SPMVLAB_OPT_INT, "0", 0, 1073741823.0,
              "off-diagonal blocks lie within this many nodes of the diagonal; 0: anywhere"),
    GEN_COMMON_PARAMS(vblocks_params),
    {0},
};

static int64_t window(const vblocks_params *p) { return gen_block_window(p->nodes, p->spread); }

static int check(const void *params_, spmvlab_err *err)
{
    const vblocks_params *p = params_;
    if (p->min_size > p->max_size)
        return spmvlab_errf(err, "vblocks: min_size = %d exceeds max_size = %d", p->min_size, p->max_size), -1;
    if (p->bpr > window(p))
        return spmvlab_errf(err, "vblocks: bpr = %d blocks do not fit the %lld nodes in reach", p->bpr,
                            (long long)window(p)), -1;
    double n = p->nodes, most = p->max_size;
    if (gen_fits("vblocks", "rows", n * most, err))
        return -1;
    return gen_fits("vblocks", "non-zeros", n * p->bpr * most * most, err);
}

/* Node sizes from the structure stream, then their first rows (start[n]). */
static int32_t *node_starts(const vblocks_params *p, gen_rng *r)
{
    int32_t n = p->nodes, span = p->max_size - p->min_size + 1;
    int32_t *start = malloc(((size_t)n + 1) * sizeof *start);
    if (!start)
        return NULL;
    start[0] = 0;
    for (int32_t i = 0; i < n; i++)
        start[i + 1] = start[i] + p->min_size + (int32_t)gen_below(r, (uint64_t)span);
    return start;
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const vblocks_params *p = params_;
    int32_t n = p->nodes, bpr = p->bpr, w = (int32_t)window(p), s = p->spread;
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)p->common.seed, gen_salt("vblocks"));
    int32_t *start = node_starts(p, &r), *picked = malloc(((size_t)bpr * (size_t)n) * sizeof *picked);
    if (!start || !picked) {
        free(start);
        free(picked);
        return spmvlab_errf(err, "vblocks: out of host memory"), -1;
    }
    /* The block-columns of every node-row first, to size the matrix. */
    int64_t nnz = 0;
    for (int32_t ib = 0; ib < n; ib++) {
        int32_t *bcol = picked + (size_t)ib * (size_t)bpr;
        gen_pick_block_cols(&r, ib, n, w, s, bpr, bcol);
        int64_t len = 0;
        for (int32_t b = 0; b < bpr; b++)
            len += start[bcol[b] + 1] - start[bcol[b]];
        nnz += len * (start[ib + 1] - start[ib]);
    }
    int rc = gen_csr_alloc(A, "vblocks", start[n], start[n], nnz, err);
    for (int32_t ib = 0; rc == 0 && ib < n; ib++) {
        const int32_t *bcol = picked + (size_t)ib * (size_t)bpr;
        for (int32_t row = start[ib]; row < start[ib + 1]; row++) {
            int64_t k = A->row_ptr[row];
            for (int32_t b = 0; b < bpr; b++)
                for (int32_t col = start[bcol[b]]; col < start[bcol[b] + 1]; col++)
                    A->col_idx[k++] = col;
            A->row_ptr[row + 1] = (int32_t)k;
        }
    }
    free(start);
    free(picked);
    return rc;
}

const spmvlab_gen_kind gen_kind_vblocks = {
    "vblocks", "dense blocks of mixed sizes: nodes of min_size .. max_size unknowns (FEM with mixed elements)",
    params, 1, check, generate, sizeof(vblocks_params),
};
