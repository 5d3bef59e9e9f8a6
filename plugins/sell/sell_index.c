/*
 * sell: the byte-lean storage options, applied to the filled slices.
 *
 * index = 16 (or auto): a slice whose columns span at most SELL_SPAN_MAX
 * (max - min over its entries) stores each slot's column as a 16-bit offset
 * from a 32-bit base kept once per slice, 2 bytes a slot instead of 4. A
 * slice that spans more keeps 32 bits, split in a low half (in the same
 * array as the offsets, so every slot of every slice sits at the same
 * position as its value) and a high half (a separate array holding only
 * those slices). One 32-bit word per slice, aux, says which: the base
 * (>= 0), or the bitwise complement of the slice's first slot in the
 * high-half array (< 0). A warp reads one slice (C = 32, lanes per row
 * dividing 32), so the choice is uniform in the warp. Padding keeps offset
 * SELL_PAD_OFF, which no real entry has (SELL_SPAN_MAX = 65534, not 65535),
 * so the kernels skip its x load by one compare, as they do for column -1.
 *
 * values = f32: the slice values stored in f32 for an f64 run, declared to
 * the core, which then checks against the bound widened by the storage
 * rounding; refused where a value would round to Inf, zero or a subnormal.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "sell_format.h"

int32_t sell_rule_index(int choice, int64_t compressible, int64_t stored)
{
    if (choice == SELL_INDEX_16)
        return 16;
    if (choice == SELL_INDEX_32 || stored <= 0)
        return 32;
    return (double)compressible >= SELL_INDEX_SHARE * (double)stored ? 16 : 32;
}

int sell_slice_compressible(int32_t lo, int32_t hi)
{
    return lo > hi || (int64_t)hi - lo <= SELL_SPAN_MAX;
}

/* A marker for a 32-bit slice before its first high-half slot is known. */
#define SELL_AUX_WIDE INT32_MIN

spmvlab_status sell_compress_index(sell_fmt *f, int choice, spmvlab_err *err)
{
    f->index_bits = 32;
    f->index_mode = SELL_IX_32;
    int32_t *aux = malloc(((size_t)f->nslices + 1) * sizeof *aux);
    if (!aux)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %d slices",
                            f->nslices);
    for (int32_t s = 0; s < f->nslices; s++) {
        int32_t lo = INT32_MAX, hi = INT32_MIN;
        for (int32_t i = f->slice_ptr[s]; i < f->slice_ptr[s + 1]; i++) {
            int32_t c = f->col[i];
            if (c == SELL_PAD_COL)
                continue;
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
        int ok = sell_slice_compressible(lo, hi);
        aux[s] = ok ? (lo > hi ? 0 : lo) : SELL_AUX_WIDE;
        f->compressed_slices += ok;
        f->compressed_slots += ok ? f->slice_ptr[s + 1] - f->slice_ptr[s] : 0;
    }
    f->index_bits = sell_rule_index(choice, f->compressed_slots, f->stored);
    if (f->index_bits == 32) {
        free(aux);
        return SPMVLAB_OK;
    }
    f->hi_slots = f->stored - f->compressed_slots;
    f->lo = malloc((size_t)f->stored * sizeof *f->lo + 1);
    f->hi = malloc((size_t)f->hi_slots * sizeof *f->hi + 1);
    if (!f->lo || !f->hi) {
        free(aux);
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM,
                            "out of host memory for %d 16-bit column offsets", f->stored);
    }
    int32_t h = 0;
    for (int32_t s = 0; s < f->nslices; s++) {
        int wide = aux[s] == SELL_AUX_WIDE;
        if (wide)
            aux[s] = ~h;
        for (int32_t i = f->slice_ptr[s]; i < f->slice_ptr[s + 1]; i++) {
            uint32_t c = (uint32_t)f->col[i]; /* padding: 0xFFFFFFFF, both halves SELL_PAD_OFF */
            if (wide) {
                f->lo[i] = (uint16_t)(c & 0xFFFFu);
                f->hi[h++] = (uint16_t)(c >> 16);
            } else {
                f->lo[i] = f->col[i] == SELL_PAD_COL ? (uint16_t)SELL_PAD_OFF
                                                     : (uint16_t)(f->col[i] - aux[s]);
            }
        }
    }
    f->aux = aux;
    f->index_mode = f->hi_slots > 0 ? SELL_IX_MIXED : SELL_IX_16;
    free(f->col);
    f->col = NULL;
    return SPMVLAB_OK;
}

/* -1 when every finite non-zero value of val survives rounding to f32 as a
 * normal number, else the first entry that does not. Inf and NaN stay what
 * they are, zero stays zero. */
static int64_t sell_first_unsafe_f32(const double *val, int64_t nnz)
{
    for (int64_t k = 0; k < nnz; k++) {
        double a = fabs(val[k]);
        if (!isfinite(a) || a == 0)
            continue;
        if (a < FLT_MIN || isinf((float)a))
            return k;
    }
    return -1;
}

spmvlab_status sell_narrow_values(sell_fmt *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    const double *src = A->val;
    int64_t k = sell_first_unsafe_f32(src, A->nnz);
    if (k >= 0) {
        int32_t r = 0;
        while (A->row_ptr[r + 1] <= k)
            r++;
        return f->ctx->fail(
            f->ctx, err, SPMVLAB_LIMIT,
            "values = f32 cannot store the value %.17g at row %d, column %d: it %s; use values = "
            "native",
            src[k], r, A->col_idx[k],
            fabs(src[k]) > 1 ? "overflows f32 (largest 3.4028235e+38)"
                             : "is below the smallest normal f32 (1.1754944e-38), where rounding "
                               "keeps fewer bits");
    }
    float *v = malloc((size_t)f->stored * sizeof *v + 1);
    if (!v)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %d f32 values",
                            f->stored);
    for (int32_t i = 0; i < f->stored; i++)
        v[i] = (float)((const double *)f->val)[i];
    free(f->val);
    f->val = v;
    f->val_f32 = 1;
    return SPMVLAB_OK;
}
