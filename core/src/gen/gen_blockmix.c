/* Dense blocks of mixed sizes and partial fill, as in multi-physics FEM
 * matrices whose nodes carry different numbers of unknowns: the rows are
 * cut into block-rows of r_min..r_max rows; each block-row holds bpr
 * blocks of c_min..c_max columns, each on its own slot of c_max columns
 * within `spread` columns of the diagonal (anywhere when spread is 0), and
 * every entry of a block is kept with probability fill. With r_min = r_max,
 * c_min = c_max and fill = 1 the blocks tile a regular grid. */
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct blockmix_params {
    gen_common common;
    int n, cols, r_min, r_max, c_min, c_max, bpr;
    int64_t spread;
    double fill;
} blockmix_params;

static const spmvlab_option params[] = {
    GEN_PARAM(blockmix_params, n, SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, "rows"),
    GEN_PARAM(blockmix_params, cols, SPMVLAB_OPT_INT, "0", 0, 2147483647.0, "columns; 0: as many as rows"),
    GEN_PARAM(blockmix_params, r_min, SPMVLAB_OPT_INT, "2", 1, 1024, "fewest rows of a block"),
    GEN_PARAM(blockmix_params, r_max, SPMVLAB_OPT_INT, "6", 1, 1024, "most rows of a block"),
    GEN_PARAM(blockmix_params, c_min, SPMVLAB_OPT_INT, "2", 1, 1024, "fewest columns of a block"),
    GEN_PARAM(blockmix_params, c_max, SPMVLAB_OPT_INT, "6", 1, 1024, "most columns of a block"),
    GEN_PARAM(blockmix_params, bpr, SPMVLAB_OPT_INT, "6", 1, 2147483647.0, "blocks per block-row"),
    GEN_PARAM(blockmix_params, fill, SPMVLAB_OPT_FLOAT, "1", 0.01, 1, "share of a block's entries kept"),
    GEN_PARAM(blockmix_params, spread, SPMVLAB_OPT_INT, "0", 0, 1073741823.0,
              "blocks lie within this many columns of the diagonal; 0: anywhere"),
    GEN_COMMON_PARAMS(blockmix_params),
    {0},
};

static int check(const void *params_, spmvlab_err *err)
{
    const blockmix_params *p = params_;
    if (p->r_min > p->r_max || p->c_min > p->c_max)
        return spmvlab_errf(err, "blockmix: r_min > r_max or c_min > c_max"), -1;
    if ((int64_t)p->bpr * p->c_max > gen_cols(p->n, p->cols))
        return spmvlab_errf(err, "blockmix: %d blocks of up to %d columns do not fit the %d columns",
                            p->bpr, p->c_max, gen_cols(p->n, p->cols)), -1;
    double mean_width = 0.5 * (p->c_min + p->c_max);
    return gen_fits("blockmix", "non-zeros (expected)", (double)p->n * p->bpr * mean_width * p->fill,
                    err);
}

/* A growable column list. */
typedef struct col_list {
    int32_t *v;
    int64_t n, cap;
} col_list;

static int push_col(col_list *c, int32_t col)
{
    if (c->n == c->cap) {
        int64_t cap = c->cap ? 2 * c->cap : 1 << 16;
        int32_t *v = realloc(c->v, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        c->v = v;
        c->cap = cap;
    }
    c->v[c->n++] = col;
    return 0;
}

static int32_t draw_between(gen_rng *r, int32_t lo, int32_t hi)
{
    return lo + (int32_t)gen_below(r, (uint64_t)(hi - lo) + 1);
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const blockmix_params *p = params_;
    int32_t n = p->n, cols = gen_cols(p->n, p->cols), slot = p->c_max;
    int32_t *row_ptr = malloc(((size_t)n + 1) * sizeof *row_ptr);
    int32_t *at = malloc((size_t)p->bpr * 2 * sizeof *at), *width = at + p->bpr;
    col_list c = {0};
    int rc = -1;
    if (!row_ptr || !at)
        goto oom;
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)p->common.seed, gen_salt("blockmix"));
    uint64_t keep = (uint64_t)(p->fill * 4294967296.0);
    row_ptr[0] = 0;
    for (int32_t i = 0; i < n;) {
        int32_t h = draw_between(&r, p->r_min, p->r_max);
        h = h > n - i ? n - i : h;
        int64_t reach = p->spread > 0 ? p->spread + slot : 0;
        gen_window w = gen_row_window(i, n, cols, reach, p->bpr * slot);
        int32_t slots = w.width / slot, blocks = p->bpr < slots ? p->bpr : slots;
        gen_sample_sorted(&r, slots, blocks, at);
        for (int32_t b = 0; b < blocks; b++)
            width[b] = draw_between(&r, p->c_min, p->c_max);
        /* Slots on the grid of c_max columns, so equal blocks line up. */
        int32_t base = w.lo / slot * slot;
        for (int32_t t = 0; t < h; t++, i++) {
            for (int32_t b = 0; b < blocks; b++)
                for (int32_t j = 0; j < width[b]; j++)
                    if ((keep >= 4294967296ull || (gen_next(&r) >> 32) < keep) &&
                        base + at[b] * slot + j < cols && push_col(&c, base + at[b] * slot + j))
                        goto oom;
            if (gen_fits("blockmix", "non-zeros", (double)c.n, err))
                goto done;
            row_ptr[i + 1] = (int32_t)c.n;
        }
    }
    if (gen_csr_alloc(A, "blockmix", n, cols, c.n, err))
        goto done;
    memcpy(A->row_ptr, row_ptr, ((size_t)n + 1) * sizeof *row_ptr);
    if (c.n)
        memcpy(A->col_idx, c.v, (size_t)c.n * sizeof *c.v);
    rc = 0;
    goto done;
oom:
    spmvlab_errf(err, "blockmix: out of host memory for %d rows", n);
done:
    free(row_ptr);
    free(at);
    free(c.v);
    return rc;
}

const spmvlab_gen_kind gen_kind_blockmix = {
    "blockmix", "dense blocks of mixed shapes and partial fill near the diagonal (n x cols)",
    params, 1, check, generate, sizeof(blockmix_params),
};
