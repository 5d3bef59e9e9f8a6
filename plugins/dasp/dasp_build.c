/*
 * DASP conversion on the host, linear in rows + nnz: one pass to classify
 * rows by length, a counting sort of the medium rows by length (longest
 * first, stable), then one pass per part to pack the values. The layout is
 * described at the top of dasp.c.
 */
#include <stdlib.h>
#include <string.h>

#include "dasp_format.h"

/* Allocates the host copy of array id: n elements of es bytes, every byte
 * set to fill (0 for values, 0xff for -1 column and row indices). */
static int arr_make(dasp_format *f, int id, size_t n, size_t es, int fill)
{
    size_t bytes = n * es;
    f->a[id].bytes = bytes;
    f->a[id].host = malloc(bytes ? bytes : 1);
    if (!f->a[id].host)
        return -1;
    memset(f->a[id].host, fill, bytes);
    return 0;
}

/* Copies value si of src into slot di of dst (es bytes per value). */
static inline void val_put(void *dst, size_t di, const void *src, size_t si, size_t es)
{
    if (es == 8)
        ((uint64_t *)dst)[di] = ((const uint64_t *)src)[si];
    else
        ((uint16_t *)dst)[di] = ((const uint16_t *)src)[si];
}

/* One entry of A into value / column slot di of the arrays vid / cid. */
static inline void entry_put(dasp_format *f, int vid, int cid, size_t di, const spmvlab_matrix *A, int64_t k,
                             size_t es)
{
    val_put(f->a[vid].host, di, A->val, (size_t)k, es);
    ((int32_t *)f->a[cid].host)[di] = A->col_idx[k];
}

static inline int32_t row_len(const spmvlab_matrix *A, int32_t i) { return A->row_ptr[i + 1] - A->row_ptr[i]; }

/* Row lists by class, in one array: empty | len 1 | len 2 | len 3 | len 4 |
 * medium (sorted by length, longest first, stable) | long. */
typedef struct dasp_classes {
    int32_t *order;
    int64_t off[8]; /* start of each class in order; off[7] = rows */
} dasp_classes;

enum { C_EMPTY, C_S1, C_S2, C_S3, C_S4, C_MED, C_LONG };

static spmvlab_status classify(dasp_format *f, const spmvlab_matrix *A, dasp_classes *c, spmvlab_err *err)
{
    int64_t cnt[7] = {0};
    int32_t longest = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t len = row_len(A, i);
        longest = len > longest ? len : longest;
        cnt[len == 0 ? C_EMPTY : len <= 4 ? C_EMPTY + len : len < f->max_len ? C_MED : C_LONG]++;
    }
    c->off[0] = 0;
    for (int k = 0; k < 7; k++)
        c->off[k + 1] = c->off[k] + cnt[k];
    f->n.empty = cnt[C_EMPTY];
    if (f->empty_auto) /* the rule reads the count just taken */
        f->empty_mode = dasp_empty_rule(f->n.empty, A->rows, A->nnz);
    for (int k = 1; k <= 4; k++)
        f->n.short_len[k] = cnt[k];
    f->n.medium = cnt[C_MED];
    f->n.long_rows = cnt[C_LONG];

    /* Counting sort of the medium rows: hist[len] rows of each length, then
     * the cursor of a length is the count of all longer medium rows. */
    size_t nh = (size_t)(longest + 1 < f->max_len ? longest + 1 : f->max_len);
    int64_t *cursor = calloc(nh + 1, sizeof *cursor);
    c->order = malloc(((size_t)A->rows + 1) * sizeof *c->order);
    if (!cursor || !c->order) {
        free(cursor);
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the row classes of %d rows", A->rows);
    }
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t len = row_len(A, i);
        if (len > 4 && len < f->max_len)
            cursor[len]++;
    }
    int64_t pos = c->off[C_MED];
    for (size_t len = nh; len-- > 5;) {
        int64_t n = cursor[len];
        cursor[len] = pos;
        pos += n;
    }
    int64_t next[7];
    memcpy(next, c->off, sizeof next);
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t len = row_len(A, i);
        if (len > 4 && len < f->max_len)
            c->order[cursor[len]++] = i;
        else
            c->order[next[len == 0 ? C_EMPTY : len <= 4 ? C_EMPTY + len : C_LONG]++] = i;
    }
    free(cursor);
    if (!dasp_staged(f))
        return SPMVLAB_OK;
    /* empty_rows = stage: row order[k] has slot k - (empty rows); the empty
     * rows have none (-1). The buffer is the kernels' alone: device bytes,
     * no host copy (spmv_host stages into one of its own). */
    f->n.staged = A->rows - f->n.empty;
    f->a[DASP_A_STAGE_Y].bytes = (size_t)f->n.staged * spmvlab_dtype_size(A->dtype);
    if (arr_make(f, DASP_A_STAGE_POS, (size_t)A->rows, 4, 0xff))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the staging of %d rows", A->rows);
    int32_t *slot = f->a[DASP_A_STAGE_POS].host;
    for (int64_t k = c->off[C_S1]; k < A->rows; k++)
        slot[c->order[k]] = (int32_t)(k - c->off[C_S1]);
    return SPMVLAB_OK;
}

/* Blocks of bk slots kept for one row-block of lengths l[8] (longest
 * first) from slot start on: leading blocks while at least threshold of the
 * block's 8 x bk slots hold real entries (and at least one does). */
static int32_t rowblock_width(const dasp_format *f, const int32_t l[DASP_BM], int64_t start, int bk)
{
    const double need = f->threshold * (DASP_BM * bk);
    int32_t w = 0;
    for (;;) {
        int64_t fill = 0, lo = start + (int64_t)w * bk;
        for (int g = 0; g < DASP_BM; g++) {
            int64_t r = l[g] - lo;
            fill += r <= 0 ? 0 : r >= bk ? bk : r;
        }
        if (fill == 0 || (double)fill < need)
            return w;
        w++;
    }
}

/* Medium rows: row-blocks of 8 sorted rows; each level (block width bk of
 * its shape) keeps blocks while filled enough, from where the level before
 * stopped; what is left of each row is its irregular (CSR) part. */
static spmvlab_status build_medium(dasp_format *f, const spmvlab_matrix *A, const dasp_classes *c, size_t es,
                                   spmvlab_err *err)
{
    const int64_t nmed = f->n.medium, nrb = (nmed + DASP_BM - 1) / DASP_BM;
    const int nl = f->nlev;
    const int32_t *rows = c->order + c->off[C_MED];
    f->n.rb = nrb;
    if (arr_make(f, DASP_A_RB_PTR, (size_t)(nrb * nl) + 1, 4, 0) ||
        arr_make(f, DASP_A_IRR_PTR, (size_t)(nrb * DASP_BM) + 1, 4, 0) ||
        arr_make(f, DASP_A_MED_ROW, (size_t)(nrb * DASP_BM), 4, 0xff))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld row-blocks", (long long)nrb);
    int32_t *rb_ptr = f->a[DASP_A_RB_PTR].host, *irr_ptr = f->a[DASP_A_IRR_PTR].host,
            *med_row = f->a[DASP_A_MED_ROW].host;
    int64_t quanta = 0, irr = 0; /* units of 32 values (one 8 x 4 block) */
    for (int64_t rb = 0; rb < nrb; rb++) {
        int32_t l[DASP_BM];
        for (int g = 0; g < DASP_BM; g++) {
            int64_t s = rb * DASP_BM + g;
            med_row[s] = s < nmed ? dasp_out_row(f, rows[s]) : -1;
            l[g] = s < nmed ? row_len(A, rows[s]) : 0;
        }
        int64_t in = 0; /* slots of each row in blocks so far */
        for (int lv = 0; lv < nl; lv++) {
            int bk = dasp_shape_bk(f->lev[lv]);
            int32_t w = rowblock_width(f, l, in, bk);
            in += (int64_t)w * bk;
            quanta += (int64_t)w * bk / 4;
            f->n.level_blocks[lv] += w;
            f->n.blocks += w;
            f->n.block_slots += (int64_t)w * bk * DASP_BM;
            if (quanta > INT32_MAX / 32)
                return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT, "the MMA blocks exceed %d values", INT32_MAX);
            rb_ptr[rb * nl + lv + 1] = (int32_t)quanta;
        }
        for (int g = 0; g < DASP_BM; g++) {
            int64_t left = l[g] > in ? l[g] - in : 0;
            f->n.block_nnz += l[g] - left;
            irr += left;
            irr_ptr[rb * DASP_BM + g + 1] = (int32_t)irr;
        }
    }
    f->n.irr = irr;
    /* med_rows = runs: row-blocks of 8 consecutive rows keep their first
     * row; row-blocks of equal irregular counts {first offset, count}. */
    if (f->med_runs) {
        if (arr_make(f, DASP_A_RB_BASE, (size_t)nrb, 4, 0xff) ||
            arr_make(f, DASP_A_RB_IRR, 2 * (size_t)nrb, 4, 0xff))
            return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld row-blocks", (long long)nrb);
        int32_t *base = f->a[DASP_A_RB_BASE].host, *ri = f->a[DASP_A_RB_IRR].host;
        for (int64_t rb = 0; rb < nrb; rb++) {
            const int32_t *mr = med_row + rb * DASP_BM;
            int g = 1;
            while (g < DASP_BM && mr[g] >= 0 && mr[g] == mr[0] + g)
                g++;
            if (g == DASP_BM) {
                base[rb] = med_row[rb * DASP_BM];
                f->n.rb_runs++;
            }
            const int32_t cnt = dasp_rb_even_irr(irr_ptr, rb, nmed);
            ri[2 * rb] = cnt >= 0 ? irr_ptr[rb * DASP_BM] : 0;
            ri[2 * rb + 1] = cnt;
            f->n.rb_even += cnt >= 0;
        }
    }
    if (arr_make(f, DASP_A_MED_VAL, (size_t)(quanta * 32), es, 0) ||
        arr_make(f, DASP_A_MED_COL, (size_t)(quanta * 32), 4, 0xff) ||
        arr_make(f, DASP_A_IRR_VAL, (size_t)irr, es, 0) || arr_make(f, DASP_A_IRR_COL, (size_t)irr, 4, 0))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld MMA block values",
                            (long long)(quanta * 32));
    for (int64_t rb = 0; rb < nrb; rb++) {
        for (int g = 0; g < DASP_BM; g++) {
            int64_t s = rb * DASP_BM + g;
            if (s >= nmed)
                break;
            int64_t k0 = A->row_ptr[rows[s]], len = row_len(A, rows[s]), k = 0;
            for (int lv = 0; lv < nl; lv++) {
                int64_t bk = dasp_shape_bk(f->lev[lv]), q0 = rb_ptr[rb * nl + lv], q1 = rb_ptr[rb * nl + lv + 1];
                int64_t w = (q1 - q0) * 4 / bk;
                for (int64_t j = 0; j < w; j++)
                    for (int64_t e = 0; e < bk; e++, k++)
                        if (k < len)
                            entry_put(f, DASP_A_MED_VAL, DASP_A_MED_COL,
                                      (size_t)(q0 * 32 + j * DASP_BM * bk + g * bk + e), A, k0 + k, es);
            }
            for (int64_t i = irr_ptr[s]; k < len; k++, i++)
                entry_put(f, DASP_A_IRR_VAL, DASP_A_IRR_COL, (size_t)i, A, k0 + k, es);
        }
    }
    return SPMVLAB_OK;
}

/* Short rows: 1&3 tiles (a length-1 row in slot 0, a length-3 row in slots
 * 1-3 of one tile row), 2&2 tiles (two length-2 rows), 4-tiles (one row of
 * length 4, or a leftover 3 or 2, per tile row); leftover 1s are singles. */
static spmvlab_status build_short(dasp_format *f, const spmvlab_matrix *A, const dasp_classes *c, size_t es,
                                  spmvlab_err *err)
{
    const int32_t *s1 = c->order + c->off[C_S1], *s2 = c->order + c->off[C_S2], *s3 = c->order + c->off[C_S3],
                  *s4 = c->order + c->off[C_S4];
    const int64_t n1 = f->n.short_len[1], n2 = f->n.short_len[2], n3 = f->n.short_len[3], n4 = f->n.short_len[4];
    const int64_t p13 = n1 < n3 ? n1 : n3, p22 = n2 / 2;
    f->n.tiles13 = (p13 + DASP_BM - 1) / DASP_BM;
    f->n.tiles22 = (p22 + DASP_BM - 1) / DASP_BM;
    f->n.rows4 = n4 + (n3 - p13) + n2 % 2;
    f->n.tiles4 = (f->n.rows4 + DASP_BM - 1) / DASP_BM;
    f->n.singles = n1 - p13;
    const int64_t t2 = f->n.tiles13 + f->n.tiles22, nt = t2 + f->n.tiles4;
    if (arr_make(f, DASP_A_SH_VAL, (size_t)(nt * DASP_SHORT_TILE), es, 0) ||
        arr_make(f, DASP_A_SH_COL, (size_t)(nt * DASP_SHORT_TILE), 4, 0xff) ||
        arr_make(f, DASP_A_SH_ROW, (size_t)(t2 * DASP_SHORT_IDS2 + f->n.tiles4 * DASP_SHORT_IDS1), 4, 0xff) ||
        arr_make(f, DASP_A_SINGLE_ROW, (size_t)f->n.singles, 4, 0) ||
        arr_make(f, DASP_A_SINGLE_COL, (size_t)f->n.singles, 4, 0) ||
        arr_make(f, DASP_A_SINGLE_VAL, (size_t)f->n.singles, es, 0) ||
        arr_make(f, DASP_A_EMPTY_ROW, dasp_empty_listed(f) ? (size_t)f->n.empty : 0, 4, 0))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld short tiles", (long long)nt);
    int32_t *ids = f->a[DASP_A_SH_ROW].host;

    /* Row r placed in tile row g of tile t at slots first.., result id at ids[idx]. */
#define DASP_PLACE(r, t, g, first, idx)                                                                  \
    do {                                                                                                 \
        int64_t k0_ = A->row_ptr[r], len_ = row_len(A, r);                                               \
        for (int64_t k_ = 0; k_ < len_; k_++)                                                            \
            entry_put(f, DASP_A_SH_VAL, DASP_A_SH_COL,                                                   \
                      (size_t)((t) * DASP_SHORT_TILE + (g) * DASP_SHORT_K + (first) + k_), A, k0_ + k_, es); \
        ids[idx] = dasp_out_row(f, r);                                                                   \
    } while (0)

    for (int64_t k = 0; k < p13; k++) {
        int64_t t = k / DASP_BM, g = k % DASP_BM;
        DASP_PLACE(s1[k], t, g, 0, t * DASP_SHORT_IDS2 + g);
        DASP_PLACE(s3[k], t, g, 1, t * DASP_SHORT_IDS2 + DASP_BM + g);
    }
    for (int64_t k = 0; k < p22; k++) {
        int64_t t = f->n.tiles13 + k / DASP_BM, g = k % DASP_BM;
        DASP_PLACE(s2[2 * k], t, g, 0, t * DASP_SHORT_IDS2 + g);
        DASP_PLACE(s2[2 * k + 1], t, g, 2, t * DASP_SHORT_IDS2 + DASP_BM + g);
    }
    for (int64_t k = 0; k < f->n.rows4; k++) {
        int32_t r = k < n4 ? s4[k] : k < n4 + (n3 - p13) ? s3[p13 + k - n4] : s2[n2 - 1];
        int64_t t = t2 + k / DASP_BM, g = k % DASP_BM;
        DASP_PLACE(r, t, g, 0, t2 * DASP_SHORT_IDS2 + (k / DASP_BM) * DASP_SHORT_IDS1 + g);
    }
#undef DASP_PLACE
    int32_t *srow = f->a[DASP_A_SINGLE_ROW].host, *scol = f->a[DASP_A_SINGLE_COL].host;
    for (int64_t k = 0; k < f->n.singles; k++) {
        int32_t r = s1[p13 + k];
        srow[k] = dasp_out_row(f, r);
        scol[k] = A->col_idx[A->row_ptr[r]];
        val_put(f->a[DASP_A_SINGLE_VAL].host, (size_t)k, A->val, (size_t)A->row_ptr[r], es);
    }
    if (f->n.empty && dasp_empty_listed(f))
        memcpy(f->a[DASP_A_EMPTY_ROW].host, c->order + c->off[C_EMPTY], (size_t)f->n.empty * 4);
    return SPMVLAB_OK;
}

/* empty_runs = 1: the empty rows (ascending in c->order) as runs of
 * consecutive rows, each at most DASP_RUN_MAX long (build_short left
 * empty_row empty). */
static spmvlab_status build_runs(dasp_format *f, const dasp_classes *c, spmvlab_err *err)
{
    const int32_t *e = c->order + c->off[C_EMPTY];
    const int64_t ne = f->n.empty;
    int64_t nr = 0;
    for (int64_t k = 0, len = 0; k < ne; k++) {
        len = k && e[k] == e[k - 1] + 1 && len < DASP_RUN_MAX ? len + 1 : 1;
        nr += len == 1;
    }
    f->n.runs = nr;
    if (arr_make(f, DASP_A_RUN_START, (size_t)nr, 4, 0) || arr_make(f, DASP_A_RUN_LEN, (size_t)nr, 4, 0))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld empty runs", (long long)nr);
    int32_t *rs = f->a[DASP_A_RUN_START].host, *rl = f->a[DASP_A_RUN_LEN].host;
    for (int64_t k = 0, r = -1, len = 0; k < ne; k++) {
        len = k && e[k] == e[k - 1] + 1 && len < DASP_RUN_MAX ? len + 1 : 1;
        if (len == 1)
            rs[++r] = e[k];
        rl[r] = (int32_t)len;
    }
    return SPMVLAB_OK;
}

/* empty_rows = bitmap: one bit a row (set: empty), 32 rows a word. */
static spmvlab_status build_bitmap(dasp_format *f, const dasp_classes *c, spmvlab_err *err)
{
    const int32_t *e = c->order + c->off[C_EMPTY];
    if (arr_make(f, DASP_A_EMPTY_BITS, ((size_t)f->rows + 31) / 32, 4, 0))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the empty-row bitmap");
    uint32_t *bits = f->a[DASP_A_EMPTY_BITS].host;
    for (int64_t k = 0; k < f->n.empty; k++)
        bits[e[k] / 32] |= 1u << (e[k] % 32);
    return SPMVLAB_OK;
}

/* Long rows: each stored whole (padded to a multiple of VPL so lanes load
 * whole vectors), read as tiles of 8 x BK values, seg_tiles tiles per warp. */
static spmvlab_status build_long(dasp_format *f, const spmvlab_matrix *A, const dasp_classes *c, size_t es,
                                 spmvlab_err *err)
{
    const int64_t nl = f->n.long_rows, tile = (int64_t)DASP_BM * f->bk, seg_tiles = f->long_chunk / tile;
    const int32_t *rows = c->order + c->off[C_LONG];
    if (arr_make(f, DASP_A_LONG_PTR, (size_t)nl + 1, 8, 0) || arr_make(f, DASP_A_LONG_ROW, (size_t)nl, 4, 0) ||
        arr_make(f, DASP_A_SEG_PTR, (size_t)nl + 1, 4, 0) || arr_make(f, DASP_A_COUNT, (size_t)nl, 4, 0))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld long rows", (long long)nl);
    int64_t *lp = f->a[DASP_A_LONG_PTR].host;
    int32_t *lrow = f->a[DASP_A_LONG_ROW].host, *sp = f->a[DASP_A_SEG_PTR].host;
    int64_t stored = 0, segs = 0;
    for (int64_t k = 0; k < nl; k++) {
        int64_t len = row_len(A, rows[k]), tiles = (len + tile - 1) / tile;
        lrow[k] = dasp_out_row(f, rows[k]);
        f->n.long_nnz += len;
        stored += (len + f->vpl - 1) / f->vpl * f->vpl;
        segs += (tiles + seg_tiles - 1) / seg_tiles;
        lp[k + 1] = stored;
        if (segs > INT32_MAX)
            return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT, "%lld long segments exceed the 32-bit limit",
                                (long long)segs);
        sp[k + 1] = (int32_t)segs;
    }
    f->n.long_stored = stored;
    f->n.segs = segs;
    size_t ps = f->dtype == SPMVLAB_F64 ? 8 : 4;
    if (arr_make(f, DASP_A_LONG_VAL, (size_t)stored, es, 0) || arr_make(f, DASP_A_LONG_COL, (size_t)stored, 4, 0xff) ||
        arr_make(f, DASP_A_SEG_ROW, (size_t)segs, 4, 0) || arr_make(f, DASP_A_PARTIAL, (size_t)segs, ps, 0))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld long-row values",
                            (long long)stored);
    int32_t *seg_row = f->a[DASP_A_SEG_ROW].host;
    for (int64_t k = 0; k < nl; k++) {
        int64_t k0 = A->row_ptr[rows[k]], len = row_len(A, rows[k]);
        for (int64_t j = 0; j < len; j++)
            entry_put(f, DASP_A_LONG_VAL, DASP_A_LONG_COL, (size_t)(lp[k] + j), A, k0 + j, es);
        for (int64_t s = sp[k]; s < sp[k + 1]; s++)
            seg_row[s] = (int32_t)k;
    }
    return SPMVLAB_OK;
}

spmvlab_status dasp_build(dasp_format *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    size_t es = spmvlab_dtype_size(A->dtype);
    dasp_classes c = {0};
    spmvlab_status st = classify(f, A, &c, err);
    if (st == SPMVLAB_OK)
        st = build_medium(f, A, &c, es, err);
    if (st == SPMVLAB_OK)
        st = build_short(f, A, &c, es, err);
    if (st == SPMVLAB_OK)
        st = build_long(f, A, &c, es, err);
    if (st == SPMVLAB_OK && f->empty_runs)
        st = build_runs(f, &c, err);
    if (st == SPMVLAB_OK && f->empty_mode == DASP_ER_BITMAP)
        st = build_bitmap(f, &c, err);
    f->n_ranges = 0;
    if (st == SPMVLAB_OK && f->med_ranges)
        dasp_build_ranges(f);
    free(c.order);
    return st;
}
