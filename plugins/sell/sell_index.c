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
 * index_base = column: a base per slot column of a slice (its C slots, one
 * warp load) instead of per slice: 4 bytes per C slots instead of per w C,
 * but a slice whose rows reach far in a few slot columns only (a circuit
 * matrix: README.md, "Column indices") loses 32 bits there only. auto: per slot column when that stores more than a quarter
 * byte a slot fewer index bytes (the kernel then loads a base per slot).
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

/* A marker for a 32-bit group before its first high-half slot is known. */
#define SELL_AUX_WIDE INT32_MIN

/* Slots of group g: a slice, or (per_column) the C slots of one slot column
 * of a slice; slices are stored column by column, so the latter are the
 * consecutive runs [g C, g C + C). */
static void sell_group(const sell_fmt *f, int per_column, int32_t g, int32_t *b, int32_t *e)
{
    *b = per_column ? g * f->C : f->slice_ptr[g];
    *e = per_column ? *b + f->C : f->slice_ptr[g + 1];
}

/* Per group: its base (lowest column, 0 without entries) when it fits
 * 16-bit offsets, else SELL_AUX_WIDE, into aux (may be NULL); returns the
 * slots of the groups that fit. */
static int64_t sell_scan_groups(const sell_fmt *f, int per_column, int32_t ngroups, int32_t *aux,
                                int32_t *ngood)
{
    int64_t slots = 0;
    *ngood = 0;
    for (int32_t g = 0; g < ngroups; g++) {
        int32_t b, e, lo = INT32_MAX, hi = INT32_MIN;
        sell_group(f, per_column, g, &b, &e);
        for (int32_t i = b; i < e; i++) {
            int32_t c = f->col[i];
            if (c == SELL_PAD_COL)
                continue;
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
        int ok = sell_slice_compressible(lo, hi);
        if (aux)
            aux[g] = ok ? (lo > hi ? 0 : lo) : SELL_AUX_WIDE;
        *ngood += ok;
        slots += ok ? e - b : 0;
    }
    return slots;
}

int sell_rule_index_base(int choice, int64_t stored, int64_t slots_slice, int64_t nslices,
                         int64_t slots_column, int64_t ncolumns)
{
    if (choice != SELL_BASE_AUTO)
        return choice == SELL_BASE_COLUMN;
    int64_t by_slice = 2 * (stored - slots_slice) + 4 * nslices;
    int64_t by_column = 2 * (stored - slots_column) + 4 * ncolumns;
    return by_column + stored / SELL_BASE_MARGIN < by_slice;
}

spmvlab_status sell_compress_index(sell_fmt *f, int choice, int base_choice, spmvlab_err *err)
{
    f->index_bits = 32;
    f->index_mode = SELL_IX_32;
    int32_t ncol_groups = f->C > 0 ? f->stored / f->C : 0, ngood_col = 0;
    int64_t slots_slice = sell_scan_groups(f, 0, f->nslices, NULL, &f->compressed_slices);
    int64_t slots_col = sell_scan_groups(f, 1, ncol_groups, NULL, &ngood_col);
    f->index_column = sell_rule_index_base(base_choice, f->stored, slots_slice, f->nslices,
                                           slots_col, ncol_groups);
    f->ngroups = f->index_column ? ncol_groups : f->nslices;
    f->compressed_slots = (int32_t)(f->index_column ? slots_col : slots_slice);
    f->index_bits = sell_rule_index(choice, f->compressed_slots, f->stored);
    if (f->index_bits == 32)
        return SPMVLAB_OK;
    int32_t *aux = malloc(((size_t)f->ngroups + 1) * sizeof *aux);
    f->hi_slots = f->stored - f->compressed_slots;
    f->lo = malloc((size_t)f->stored * sizeof *f->lo + 1);
    f->hi = malloc((size_t)f->hi_slots * sizeof *f->hi + 1);
    if (!aux || !f->lo || !f->hi) {
        free(aux);
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM,
                            "out of host memory for %d 16-bit column offsets", f->stored);
    }
    int32_t ngood;
    sell_scan_groups(f, f->index_column, f->ngroups, aux, &ngood);
    int32_t h = 0;
    for (int32_t g = 0; g < f->ngroups; g++) {
        int32_t b, e;
        sell_group(f, f->index_column, g, &b, &e);
        int wide = aux[g] == SELL_AUX_WIDE;
        if (wide)
            aux[g] = ~h;
        for (int32_t i = b; i < e; i++) {
            uint32_t c = (uint32_t)f->col[i]; /* padding: 0xFFFFFFFF, both halves SELL_PAD_OFF */
            if (wide) {
                f->lo[i] = (uint16_t)(c & 0xFFFFu);
                f->hi[h++] = (uint16_t)(c >> 16);
            } else {
                f->lo[i] = f->col[i] == SELL_PAD_COL ? (uint16_t)SELL_PAD_OFF
                                                     : (uint16_t)(f->col[i] - aux[g]);
            }
        }
    }
    f->aux = aux;
    f->index_mode = f->index_column ? SELL_IX_COLUMN
                    : f->hi_slots > 0 ? SELL_IX_MIXED
                                      : SELL_IX_16;
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
