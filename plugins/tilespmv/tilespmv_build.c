/*
 * tilespmv's conversion: three passes over the tile rows of the CSR input,
 * each bucketing a tile row's entries by tile (row-major within a tile).
 * The first counts the kept tiles of each tile row and the entries each row
 * defers (tiles of at most defer_max entries); the second picks each kept
 * tile's kind and sizes its values and index bytes; the third writes them
 * in the kind's layout (README.md, Layout) and the deferred entries as CSR.
 */
#include <stdlib.h>
#include <string.h>

#include "tilespmv.h"

/* Scratch of one tile row: the entries bucketed by tile. */
typedef struct tile_row {
    int32_t ntiles;
    int32_t *col;      /* ntiles: column of tiles, ascending */
    int32_t *start;    /* ntiles + 1: first entry of each tile */
    uint8_t *rc;       /* entries: row << 4 | column within the tile */
    int32_t *src;      /* entries: position in A */
    int32_t *slot;     /* per column of tiles: the tile's place in the row, -1 if none */
} tile_row;

static int cmp_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Buckets tile row tr of A into w (every w->slot back at -1 afterwards). */
static void gather(const spmvlab_matrix *A, int32_t tr, tile_row *w)
{
    int32_t lo = tr * TILE, hi = lo + TILE < A->rows ? lo + TILE : A->rows, n = 0;
    for (int32_t k = A->row_ptr[lo]; k < A->row_ptr[hi]; k++) {
        int32_t tc = A->col_idx[k] / TILE;
        if (w->slot[tc] < 0) {
            w->slot[tc] = 0;
            w->col[n++] = tc;
        }
    }
    qsort(w->col, (size_t)n, sizeof *w->col, cmp_int32);
    for (int32_t t = 0; t < n; t++) {
        w->slot[w->col[t]] = t;
        w->start[t + 1] = 0;
    }
    for (int32_t k = A->row_ptr[lo]; k < A->row_ptr[hi]; k++)
        w->start[w->slot[A->col_idx[k] / TILE] + 1]++;
    w->start[0] = 0;
    for (int32_t t = 0; t < n; t++)
        w->start[t + 1] += w->start[t];
    for (int32_t i = lo; i < hi; i++) /* rows in order: row-major within each tile */
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int32_t c = A->col_idx[k], t = w->slot[c / TILE], at = w->start[t]++;
            w->rc[at] = (uint8_t)(((i - lo) << 4) | (c % TILE));
            w->src[at] = k;
        }
    for (int32_t t = n; t > 0; t--) /* the fill moved each start to the next tile's */
        w->start[t] = w->start[t - 1];
    w->start[0] = 0;
    for (int32_t t = 0; t < n; t++)
        w->slot[w->col[t]] = -1;
    w->ntiles = n;
}

/* The HYB width with the fewest stored bytes (ELL slots plus COO entries,
 * each a value and an index byte); ties go to the narrower. */
static int hyb_width(const int *len, int most)
{
    int best = 0;
    long best_slots = -1;
    for (int w = 0; w <= most; w++) {
        long slots = (long)TILE * w;
        for (int i = 0; i < TILE; i++)
            slots += len[i] > w ? len[i] - w : 0;
        if (best_slots < 0 || slots < best_slots) {
            best = w;
            best_slots = slots;
        }
    }
    return best;
}

/* The kind of tile t of w and its param, values and index bytes. */
static void size_tile(const tilespmv_fmt *f, const tilespmv_opts *o, const tile_row *w, int32_t tr, int32_t t,
                      uint8_t *kind, uint8_t *param, int32_t *nval, int32_t *nidx)
{
    int len[TILE] = {0}, col_count[TILE] = {0}, most = 0;
    int32_t n = w->start[t + 1] - w->start[t];
    for (int32_t e = w->start[t]; e < w->start[t + 1]; e++) {
        len[w->rc[e] >> 4]++;
        col_count[w->rc[e] & 15]++;
    }
    for (int i = 0; i < TILE; i++)
        most = len[i] > most ? len[i] : most;
    int rows = f->rows - tr * TILE < TILE ? f->rows - tr * TILE : TILE;
    int cols = f->cols - w->col[t] * TILE < TILE ? f->cols - w->col[t] * TILE : TILE;
    static const int forced[] = {[TILESPMV_FORMAT_CSR] = TILE_CSR,     [TILESPMV_FORMAT_COO] = TILE_COO,
                                 [TILESPMV_FORMAT_ELL] = TILE_ELL,     [TILESPMV_FORMAT_HYB] = TILE_HYB,
                                 [TILESPMV_FORMAT_DENSE] = TILE_DENSE};
    int k = o->tile_format == TILESPMV_FORMAT_AUTO ? tilespmv_rule(o, len, col_count, rows, cols)
                                                    : forced[o->tile_format];
    int p = 0, full = 0;
    switch (k) {
    case TILE_CSR: *nval = n, *nidx = TILE + n; break;
    case TILE_COO: *nval = n, *nidx = n; break;
    case TILE_ELL: p = most, *nval = *nidx = TILE * most; break;
    case TILE_HYB:
        p = hyb_width(len, most);
        *nval = *nidx = TILE * p;
        for (int i = 0; i < TILE; i++)
            *nval += len[i] > p ? len[i] - p : 0;
        *nidx = *nval;
        break;
    case TILE_DENSE: *nval = TILE_AREA, *nidx = 0; break;
    case TILE_DNSROW:
        for (int i = 0; i < TILE; i++)
            full += len[i] > 0;
        p = full, *nval = TILE * full, *nidx = full;
        break;
    default: /* TILE_DNSCOL */
        for (int j = 0; j < TILE; j++)
            full += col_count[j] > 0;
        p = full, *nval = TILE * full, *nidx = full;
        break;
    }
    *kind = (uint8_t)k;
    *param = (uint8_t)p;
}

/* Writes tile t of w (already sized) into f's arrays. */
static void fill_tile(tilespmv_fmt *f, const spmvlab_matrix *A, const tile_row *w, int32_t t, int32_t g)
{
    const size_t vs = spmvlab_dtype_size(f->dtype);
    const char *src = A->val;
    char *val = (char *)f->val + (size_t)f->voff[g] * vs;
    uint8_t *idx = f->idx + f->ioff[g];
    int p = f->param[g], row_seen[TILE] = {0}, slot_of[TILE], next = 0;
    int32_t e0 = w->start[t], n = w->start[t + 1] - e0;
    /* ELL, HYB: entry q of row i goes to slot q (column-major), the rest to the COO tail */
    int used[TILE] = {0};
    int32_t tail = TILE * p;
    if (f->kind[g] == TILE_CSR) {
        for (int i = 0; i < TILE; i++)
            idx[i] = 0;
        for (int32_t e = 0; e < n; e++)
            for (int i = (w->rc[e0 + e] >> 4) + 1; i < TILE; i++)
                idx[i]++;
    }
    if (f->kind[g] == TILE_DNSROW || f->kind[g] == TILE_DNSCOL) {
        int by_col = f->kind[g] == TILE_DNSCOL;
        for (int32_t e = 0; e < n; e++)
            row_seen[by_col ? w->rc[e0 + e] & 15 : w->rc[e0 + e] >> 4] = 1;
        for (int i = 0; i < TILE; i++)
            if (row_seen[i]) {
                idx[next] = (uint8_t)i;
                slot_of[i] = next++;
            }
    }
    for (int32_t e = 0; e < n; e++) {
        int i = w->rc[e0 + e] >> 4, j = w->rc[e0 + e] & 15;
        const char *v = src + (size_t)w->src[e0 + e] * vs;
        size_t at;
        switch (f->kind[g]) {
        case TILE_CSR: at = (size_t)e, idx[TILE + e] = (uint8_t)j; break;
        case TILE_COO: at = (size_t)e, idx[e] = w->rc[e0 + e]; break;
        case TILE_DENSE: at = (size_t)j * TILE + (size_t)i; break;
        case TILE_DNSROW: at = (size_t)slot_of[i] * TILE + (size_t)j; break;
        case TILE_DNSCOL: at = (size_t)slot_of[j] * TILE + (size_t)i; break;
        default: /* ELL, HYB */
            if (used[i] < p) {
                at = (size_t)used[i]++ * TILE + (size_t)i;
                idx[at] = (uint8_t)j;
            } else {
                at = (size_t)tail++;
                idx[at] = w->rc[e0 + e];
            }
        }
        memcpy(val + at * vs, v, vs);
    }
}

/* Allocates the per-tile arrays and the deferred part's; returns 0 or -1. */
static int alloc_tiles(tilespmv_fmt *f)
{
    size_t nt = (size_t)f->ntiles, vs = spmvlab_dtype_size(f->dtype);
    f->tcol = malloc(nt * sizeof *f->tcol + 1);
    f->kind = malloc(nt + 1);
    f->param = malloc(nt + 1);
    f->voff = malloc((nt + 1) * sizeof *f->voff);
    f->ioff = malloc((nt + 1) * sizeof *f->ioff);
    f->dcol = malloc((size_t)f->ndef * sizeof *f->dcol + 1);
    f->dval = malloc((size_t)f->ndef * vs + 1);
    return f->tcol && f->kind && f->param && f->voff && f->ioff && f->dcol && f->dval ? 0 : -1;
}

/* Whether tile t of w goes to the deferred CSR part. */
static int deferred(const tilespmv_opts *o, const tile_row *w, int32_t t)
{
    return w->start[t + 1] - w->start[t] <= o->defer_max;
}

/* Appends the deferred tiles' entries of tile row tr (bucketed in w) to
 * their rows: tiles in column order, row-major inside, so each row's
 * entries stay in column order. */
static void fill_deferred(tilespmv_fmt *f, const tilespmv_opts *o, const spmvlab_matrix *A, const tile_row *w,
                          int32_t tr)
{
    const size_t vs = spmvlab_dtype_size(f->dtype);
    int32_t next[TILE];
    for (int i = 0; i < TILE; i++)
        next[i] = tr * TILE + i < f->rows ? f->dptr[tr * TILE + i] : 0;
    for (int32_t t = 0; t < w->ntiles; t++) {
        if (!deferred(o, w, t))
            continue;
        for (int32_t e = w->start[t]; e < w->start[t + 1]; e++) {
            int i = w->rc[e] >> 4;
            int32_t at = next[i]++;
            f->dcol[at] = w->col[t] * TILE + (w->rc[e] & 15);
            memcpy((char *)f->dval + (size_t)at * vs, (const char *)A->val + (size_t)w->src[e] * vs, vs);
        }
    }
}

spmvlab_status tilespmv_build(tilespmv_fmt *f, const spmvlab_matrix *A, const tilespmv_opts *o, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    size_t ntc = (size_t)(A->cols + TILE - 1) / TILE + 1;
    tile_row w = {0};
    spmvlab_status st = SPMVLAB_OK;
    int32_t most = 0;
    f->tile_rows = (A->rows + TILE - 1) / TILE;
    for (int32_t tr = 0; tr < f->tile_rows; tr++) {
        int32_t lo = tr * TILE, hi = lo + TILE < A->rows ? lo + TILE : A->rows;
        most = A->row_ptr[hi] - A->row_ptr[lo] > most ? A->row_ptr[hi] - A->row_ptr[lo] : most;
    }
    f->tptr = malloc(((size_t)f->tile_rows + 1) * sizeof *f->tptr);
    f->dptr = calloc((size_t)A->rows + 1, sizeof *f->dptr);
    w.slot = malloc(ntc * sizeof *w.slot);
    w.col = malloc(ntc * sizeof *w.col);
    w.start = malloc((ntc + 1) * sizeof *w.start);
    w.rc = malloc((size_t)most + 1);
    w.src = malloc(((size_t)most + 1) * sizeof *w.src);
    if (!f->tptr || !f->dptr || !w.slot || !w.col || !w.start || !w.rc || !w.src) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the tilespmv tile rows");
        goto done;
    }
    for (size_t c = 0; c < ntc; c++)
        w.slot[c] = -1;
    /* pass 1: kept tiles per tile row, deferred entries per row */
    f->tptr[0] = 0;
    for (int32_t tr = 0; tr < f->tile_rows; tr++) {
        gather(A, tr, &w);
        int32_t kept = 0;
        for (int32_t t = 0; t < w.ntiles; t++) {
            if (!deferred(o, &w, t)) {
                kept++;
                continue;
            }
            f->ndef_tiles++;
            for (int32_t e = w.start[t]; e < w.start[t + 1]; e++)
                f->dptr[tr * TILE + (w.rc[e] >> 4) + 1]++;
        }
        f->tptr[tr + 1] = f->tptr[tr] + kept;
    }
    for (int32_t r = 0; r < A->rows; r++)
        f->dptr[r + 1] += f->dptr[r];
    f->ntiles = f->tptr[f->tile_rows];
    f->ndef = f->dptr[A->rows];
    if (alloc_tiles(f)) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d tilespmv tiles", f->ntiles);
        goto done;
    }
    /* pass 2: kinds and sizes of the kept tiles, then offsets */
    int64_t nval = 0, nidx = 0;
    f->voff[0] = f->ioff[0] = 0;
    for (int32_t tr = 0; tr < f->tile_rows; tr++) {
        gather(A, tr, &w);
        for (int32_t t = 0, g = f->tptr[tr]; t < w.ntiles; t++) {
            if (deferred(o, &w, t))
                continue;
            int32_t nv, ni;
            f->tcol[g] = w.col[t];
            size_tile(f, o, &w, tr, t, &f->kind[g], &f->param[g], &nv, &ni);
            f->counts[f->kind[g]]++;
            nval += nv;
            nidx += ni;
            if (nval > INT32_MAX || nidx > INT32_MAX) {
                st = ctx->fail(ctx, err, SPMVLAB_LIMIT,
                               "the tilespmv tiles would store more than 2^31 - 1 values or index bytes "
                               "(tile_format pads too much on this matrix)");
                goto done;
            }
            f->voff[g + 1] = (int32_t)nval;
            f->ioff[g + 1] = (int32_t)nidx;
            g++;
        }
    }
    f->nvals = nval;
    f->nidx = nidx;
    const size_t vs = spmvlab_dtype_size(f->dtype);
    f->val = calloc((size_t)nval * vs + 1, 1); /* padding: all-zero bits, +0.0 */
    f->idx = calloc((size_t)nidx + 1, 1);      /* padding columns: 0, inside every tile */
    if (!f->val || !f->idx) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld tilespmv values",
                       (long long)nval);
        goto done;
    }
    /* pass 3: the layouts and the deferred entries */
    for (int32_t tr = 0; tr < f->tile_rows; tr++) {
        gather(A, tr, &w);
        for (int32_t t = 0, g = f->tptr[tr]; t < w.ntiles; t++)
            if (!deferred(o, &w, t))
                fill_tile(f, A, &w, t, g++);
        fill_deferred(f, o, A, &w, tr);
    }
done:;
    void *scratch[] = {w.col, w.start, w.rc, w.src, w.slot};
    spmvlab_free_each(scratch, SPMVLAB_COUNT(scratch));
    return st;
}
