/* Clustered columns: every non-empty row holds about k columns in `runs`
 * contiguous runs (runs = k: scattered single columns; runs = 1: one dense
 * stretch), placed at random within `spread` columns of the row's place on
 * the diagonal (anywhere when spread is 0). Rows may be exactly k long or
 * uniform in [k/2, 3k/2]; a share `empty` of the rows is empty; the shape
 * is n x cols. Covers the column locality between a band and uniform
 * random, on square, tall and wide matrices. */
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct clustered_params {
    gen_common common;
    int n, cols, k, jitter, runs;
    int64_t spread;
    double empty;
} clustered_params;

static const spmvlab_option params[] = {
    GEN_PARAM(clustered_params, n, SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, "rows"),
    GEN_PARAM(clustered_params, cols, SPMVLAB_OPT_INT, "0", 0, 2147483647.0, "columns; 0: as many as rows"),
    GEN_PARAM(clustered_params, k, SPMVLAB_OPT_INT, "16", 1, 2147483647.0, "entries of a non-empty row"),
    {"jitter", SPMVLAB_OPT_ENUM, "fixed", 0, 0, "fixed|uniform",
     "fixed: every non-empty row holds k; uniform: lengths uniform in [k/2, 3k/2]",
     SPMVLAB_FIELD(clustered_params, jitter), NULL, 0, 0, NULL},
    GEN_PARAM(clustered_params, runs, SPMVLAB_OPT_INT, "4", 1, 2147483647.0,
              "contiguous runs of columns per row (at most its length)"),
    GEN_PARAM(clustered_params, spread, SPMVLAB_OPT_INT, "0", 0, 1073741823.0,
              "runs lie within this many columns of the diagonal; 0: anywhere"),
    GEN_PARAM(clustered_params, empty, SPMVLAB_OPT_FLOAT, "0", 0, 0.99, "share of empty rows"),
    GEN_COMMON_PARAMS(clustered_params),
    {0},
};

/* The longest row the parameters can draw. */
static int64_t longest(const clustered_params *p)
{
    return p->jitter ? (int64_t)p->k / 2 + p->k : p->k;
}

static int check(const void *params_, spmvlab_err *err)
{
    const clustered_params *p = params_;
    if (longest(p) > gen_cols(p->n, p->cols))
        return spmvlab_errf(err, "clustered: rows of up to %lld entries do not fit the %d columns",
                            (long long)longest(p), gen_cols(p->n, p->cols)), -1;
    return gen_fits("clustered", "non-zeros (expected)", p->n * (1 - p->empty) * p->k, err);
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const clustered_params *p = params_;
    int32_t n = p->n, cols = gen_cols(p->n, p->cols);
    int32_t *len = malloc((size_t)n * sizeof *len), *gap = malloc((size_t)p->runs * sizeof *gap);
    unsigned char *empty = malloc((size_t)n);
    int rc = -1;
    if (!len || !gap || !empty) {
        spmvlab_errf(err, "clustered: out of host memory for %d rows", n);
        goto done;
    }
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)p->common.seed, gen_salt("clustered"));
    if (gen_pick_empty(&r, n, p->empty, empty, "clustered", err))
        goto done;
    int64_t nnz = 0;
    for (int32_t i = 0; i < n; i++) {
        len[i] = empty[i] ? 0 : p->jitter ? gen_jitter_len(&r, p->k, cols) : p->k;
        nnz += len[i];
    }
    if (gen_csr_alloc(A, "clustered", n, cols, nnz, err))
        goto done;
    int64_t at = 0;
    for (int32_t i = 0; i < n; i++) {
        if (len[i] > 0)
            gen_place_runs(&r, gen_row_window(i, n, cols, p->spread, len[i]), len[i], p->runs, gap,
                           A->col_idx + at);
        at += len[i];
        A->row_ptr[i + 1] = (int32_t)at;
    }
    rc = 0;
done:
    free(len);
    free(gap);
    free(empty);
    return rc;
}

const spmvlab_gen_kind gen_kind_clustered = {
    "clustered", "rows of k columns in contiguous runs near the diagonal, empty-row share (n x cols)",
    params, 1, check, generate, sizeof(clustered_params),
};
