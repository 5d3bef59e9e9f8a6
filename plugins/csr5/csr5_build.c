/*
 * CSR5 conversion on the host: the steps of the GPU conversion
 * (csr5_convert.cu) with the same per-tile and per-chunk code (csr5_tile.h)
 * and the same prefix sums, run in loops. Used without a GPU, and with one
 * to verify the GPU conversion (option verify_convert).
 */
#include <stdlib.h>
#include <string.h>

#include "csr5_format.h"
#include "csr5_tile.h"

void csr5_arrays_free(csr5_arrays *h)
{
    void *const host[] = {h->row_ptr, h->tile_ptr, h->desc,    h->eo_ptr,    h->empty_offset, h->empty_rows,
                          h->col,     h->val,      h->row_map, h->run_start, h->run_len};
    spmvlab_free_each(host, SPMVLAB_COUNT(host));
    memset(h, 0, sizeof *h);
}

int csr5_compress_rows(const spmvlab_matrix *A, int32_t **crp, int32_t *nr, csr5_arrays *h)
{
    const int32_t *rp = A->row_ptr;
    int32_t n = 0, runs = 0, open = 0; /* open: rows of the current run */
    for (int32_t r = 0; r < A->rows; r++) {
        if (rp[r + 1] > rp[r]) {
            n++;
            open = 0;
        } else {
            runs += open == 0;
            open = open + 1 == CSR5_RUN_MAX ? 0 : open + 1;
        }
    }
    int32_t *c = malloc(((size_t)n + 1) * sizeof *c), *map = malloc((size_t)(n ? n : 1) * sizeof *map);
    int32_t *rs = malloc((size_t)(runs ? runs : 1) * sizeof *rs), *rl = malloc((size_t)(runs ? runs : 1) * sizeof *rl);
    if (!c || !map || !rs || !rl) {
        free(c);
        free(map);
        free(rs);
        free(rl);
        return -1;
    }
    int32_t k = 0, q = 0;
    c[0] = 0;
    for (int32_t r = 0; r < A->rows; r++) {
        if (rp[r + 1] > rp[r]) {
            map[k] = r;
            c[++k] = rp[r + 1];
        } else if (q > 0 && rs[q - 1] + rl[q - 1] == r && rl[q - 1] < CSR5_RUN_MAX) {
            rl[q - 1]++;
        } else {
            rs[q] = r;
            rl[q++] = 1;
        }
    }
    *crp = c;
    *nr = n;
    h->row_map = map;
    h->run_start = rs;
    h->run_len = rl;
    h->n_runs = q;
    return 0;
}

int64_t csr5_exclusive_sum(int32_t *a, int64_t n)
{
    int64_t run = 0;
    for (int64_t i = 0; i < n; i++) {
        int32_t c = a[i];
        a[i] = (int32_t)run;
        run += c;
        if (run > INT32_MAX)
            return -1;
    }
    return run;
}

/* malloc that never returns NULL for 0 bytes, so NULL always means failure. */
static void *csr5_alloc(size_t bytes) { return malloc(bytes ? bytes : 1); }

/* Descriptors, tile_ptr and the slot rows of the tiles that span empty rows. */
static int csr5_build_tiles(const spmvlab_matrix *A, int sigma, int32_t tiles, csr5_arrays *h)
{
    const int W = csr5_desc_words(sigma);
    const int64_t T = (int64_t)CSR5_OMEGA * sigma;
    int32_t *slots = csr5_alloc((size_t)tiles * sizeof *slots);
    if (!slots)
        return -1;
    for (int32_t t = 0; t < tiles; t++) {
        csr5_tile_info info;
        csr5_build_tile(A->row_ptr, A->rows, sigma, t, h->desc + (size_t)t * CSR5_OMEGA * W, NULL, &info);
        h->tile_ptr[t] = (uint32_t)info.first_row | (info.empty ? CSR5_EMPTY_FLAG : 0u);
        slots[t] = info.empty ? info.starts : 0;
        h->n_flagged += info.empty;
    }
    h->tile_ptr[tiles] = (uint32_t)csr5_row_of(A->row_ptr, A->rows, (int64_t)tiles * T);
    int64_t n_eo = csr5_exclusive_sum(slots, tiles);
    if (n_eo < 0) {
        free(slots);
        return -1;
    }
    h->n_eo = (int32_t)n_eo;
    if (h->n_flagged) {
        h->eo_ptr = slots; /* the slot starts; flagged tiles move back by their head below */
        slots = NULL;
    }
    free(slots);
    h->empty_offset = csr5_alloc((size_t)h->n_eo * sizeof *h->empty_offset);
    if (!h->empty_offset)
        return -1;
    for (int32_t t = 0; t < tiles; t++) {
        if (!(h->tile_ptr[t] & CSR5_EMPTY_FLAG))
            continue;
        csr5_tile_info info;
        csr5_build_tile(A->row_ptr, A->rows, sigma, t, NULL, h->empty_offset + h->eo_ptr[t], &info);
        h->eo_ptr[t] -= info.head;
    }
    return 0;
}

int csr5_host_build(const spmvlab_matrix *A, int sigma, csr5_arrays *h)
{
    memset(h, 0, sizeof *h);
    const int W = csr5_desc_words(sigma);
    const int64_t T = (int64_t)CSR5_OMEGA * sigma;
    const int32_t tiles = (int32_t)(A->nnz / T), rows = A->rows;
    const int64_t tail_start = (int64_t)tiles * T;
    const size_t vs = spmvlab_dtype_size(A->dtype);
    h->row_ptr = csr5_alloc(((size_t)rows + 1) * sizeof *h->row_ptr);
    h->tile_ptr = csr5_alloc(((size_t)tiles + 1) * sizeof *h->tile_ptr);
    h->desc = csr5_alloc((size_t)tiles * CSR5_OMEGA * W * sizeof *h->desc);
    h->col = csr5_alloc((size_t)A->nnz * sizeof *h->col);
    h->val = csr5_alloc((size_t)A->nnz * vs);
    if (!h->row_ptr || !h->tile_ptr || !h->desc || !h->col || !h->val)
        goto nomem;
    memcpy(h->row_ptr, A->row_ptr, ((size_t)rows + 1) * sizeof *h->row_ptr);
    if (csr5_build_tiles(A, sigma, tiles, h))
        goto nomem;

    /* The empty-row list by chunks, as the GPU conversion builds it. */
    const int64_t chunks = ((int64_t)rows + CSR5_EMPTY_CHUNK - 1) / CSR5_EMPTY_CHUNK;
    int32_t *first = csr5_alloc((size_t)chunks * sizeof *first);
    if (!first)
        goto nomem;
    for (int64_t c = 0; c < chunks; c++)
        first[c] = csr5_chunk_empty(A->row_ptr, rows, c, NULL);
    h->n_empty = (int32_t)csr5_exclusive_sum(first, chunks);
    h->empty_rows = csr5_alloc((size_t)h->n_empty * sizeof *h->empty_rows);
    if (!h->empty_rows) {
        free(first);
        goto nomem;
    }
    for (int64_t c = 0; c < chunks; c++)
        csr5_chunk_empty(A->row_ptr, rows, c, h->empty_rows + first[c]);
    free(first);

    const char *src = A->val;
    char *dst = h->val;
    for (int64_t o = 0; o < A->nnz; o++) {
        int64_t s = csr5_source_pos(o, sigma, tail_start);
        h->col[o] = A->col_idx[s];
        memcpy(dst + o * vs, src + s * vs, vs);
    }
    return 0;
nomem:
    csr5_arrays_free(h);
    return -1;
}

int csr5_arrays_equal(const csr5_arrays *a, const csr5_arrays *b, int32_t rows, int32_t nnz, int sigma,
                      size_t value_size, const char **which)
{
    const int32_t tiles = nnz / (CSR5_OMEGA * sigma);
    const size_t words = (size_t)tiles * CSR5_OMEGA * csr5_desc_words(sigma);
#define CSR5_SAME(name, count)                                                               \
    if ((count) && memcmp(a->name, b->name, (size_t)(count) * sizeof *a->name) != 0) {       \
        *which = #name;                                                                      \
        return 0;                                                                            \
    }
    *which = "counts";
    if (a->n_eo != b->n_eo || a->n_empty != b->n_empty || a->n_flagged != b->n_flagged ||
        !a->eo_ptr != !b->eo_ptr)
        return 0;
    CSR5_SAME(row_ptr, (size_t)rows + 1)
    CSR5_SAME(tile_ptr, (size_t)tiles + 1)
    CSR5_SAME(desc, words)
    CSR5_SAME(eo_ptr, a->eo_ptr ? (size_t)tiles : 0)
    CSR5_SAME(empty_offset, a->n_eo)
    CSR5_SAME(empty_rows, a->n_empty)
    CSR5_SAME(col, nnz)
#undef CSR5_SAME
    if (nnz && memcmp(a->val, b->val, (size_t)nnz * value_size) != 0) {
        *which = "val";
        return 0;
    }
    return 1;
}

void csr5_layout_scalars(csr5_fmt *f)
{
    const int64_t T = (int64_t)CSR5_OMEGA * f->sigma;
    const int32_t tiles = f->d.tiles;
    const int32_t *rp = f->h.row_ptr;
    f->d.tail_start = (int32_t)(tiles * T);
    f->d.tail_row0 = 0;
    f->d.tail_rows = 0;
    if (f->d.tail_start < f->nnz) {
        int32_t last = csr5_row_of(rp, f->rows, (int64_t)f->nnz - 1);
        f->d.tail_row0 = (int32_t)(f->h.tile_ptr[tiles] & CSR5_ROW_MASK);
        f->d.tail_rows = last + 1 - f->d.tail_row0;
    }
    f->d.n_empty = f->h.n_empty;
    f->d.n_cross = 0;
    for (int32_t t = 0; t < tiles; t++) {
        int32_t r = (int32_t)(f->h.tile_ptr[t + 1] & CSR5_ROW_MASK);
        f->d.n_cross += r < f->rows && rp[r] >= t * T && rp[r] < (t + 1) * T;
    }
}
