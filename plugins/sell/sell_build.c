/*
 * sell: the rules (long_row, sigma, threads_per_row), the sort in windows,
 * the slice layout and the long-row tail, built on the host from the CSR
 * input. sell.c uploads the result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sell_format.h"

int32_t sell_rule_long_row(int32_t rows, int32_t nnz)
{
    return long_rows_threshold(rows, nnz);
}

int32_t sell_rule_tpr(double mean_width, int32_t max_width, int64_t rows, int64_t resident_warps)
{
    int32_t t = long_rows_tpr(mean_width, rows, resident_warps);
    /* Launch-bound matrices (4 lanes a row still fit one wave of resident
     * warps): shorter chains per lane finish sooner, whatever the width.
     * Uneven slices (the widest SELL_TPR_UNEVEN times the mean or more) take
     * 8 lanes when one wave still holds them: the wide slices' lanes set the
     * time, while even slices lose at 8 (README.md, "The rules"). */
    if (t < SELL_TPR_SMALL && mean_width >= 2 && long_rows_one_wave(rows, SELL_TPR_SMALL, resident_warps))
        t = SELL_TPR_SMALL;
    if (t == SELL_TPR_SMALL && max_width >= SELL_TPR_UNEVEN * mean_width &&
        long_rows_one_wave(rows, 2 * SELL_TPR_SMALL, resident_warps))
        t = 2 * SELL_TPR_SMALL;
    return t;
}

int sell_check_values(int C, int sigma, int tpr, char *why, size_t len)
{
    if (C == SPMVLAB_AUTO) /* 32 or 1: a sigma set by hand must suit 32 */
        C = SELL_WARP;
    if (C < 1 || (SELL_WARP % C != 0 && C % SELL_WARP != 0)) {
        snprintf(why, len,
                 "C = %d must divide the warp size %d (1, 2, 4, 8, 16, 32) or be a multiple of it "
                 "(64, 96, 128, ...)",
                 C, SELL_WARP);
        return -1;
    }
    if (sigma != SPMVLAB_AUTO && sigma != 1 && sigma < SELL_SIGMA_GLOBAL &&
        (sigma < 1 || sigma % C != 0)) {
        int below = sigma / C * C, above = below + C;
        char near[64];
        if (below > 0)
            snprintf(near, sizeof near, "%d or %d", below, above);
        else
            snprintf(near, sizeof near, "%d", above);
        snprintf(why, len,
                 "sigma = %d must be 1 (no sorting) or a multiple of C = %d so that sorting "
                 "windows hold whole slices (e.g. %s), or %d or more for a global sort",
                 sigma, C, near, SELL_SIGMA_GLOBAL);
        return -1;
    }
    if (tpr != SPMVLAB_AUTO && (tpr < 1 || tpr > SELL_WARP || (tpr & (tpr - 1)) != 0)) {
        snprintf(why, len,
                 "threads_per_row = %d must be a power of two from 1 to %d (or auto) so that "
                 "the threads of a row share a warp",
                 tpr, SELL_WARP);
        return -1;
    }
    return 0;
}

static int sell_cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* order[p] = row at sorted position p: rows sorted by len (longest first,
 * ties in row order) within windows of sigma rows; sigma <= 1 keeps the
 * identity. key holds at least min(sigma, rows) entries. Returns 1 when the
 * order is not the identity, 0 when it is. */
static int sell_sort_windows(const int32_t *len, int32_t rows, int32_t sigma, int32_t *order,
                             uint64_t *key)
{
    int changed = 0;
    for (int32_t i = 0; i < rows; i++)
        order[i] = i;
    if (sigma <= 1)
        return 0;
    for (int64_t w0 = 0; w0 < rows; w0 += sigma) {
        int32_t n = (int32_t)(rows - w0 < sigma ? rows - w0 : sigma), j = 1;
        while (j < n && len[w0 + j] <= len[w0 + j - 1])
            j++;
        if (j == n)
            continue; /* already longest first: nothing moves */
        for (j = 0; j < n; j++) {
            int32_t row = (int32_t)w0 + j;
            key[j] = ((uint64_t)(uint32_t)(INT32_MAX - len[row]) << 32) | (uint32_t)row;
        }
        qsort(key, (size_t)n, sizeof *key, sell_cmp_key);
        for (j = 0; j < n; j++) {
            order[w0 + j] = (int32_t)(uint32_t)key[j];
            changed |= order[w0 + j] != (int32_t)w0 + j;
        }
    }
    return changed;
}

/* Slots of the real rows of the slices of C rows in the given order (each
 * as wide as its slice). The rows past the matrix in the last slice are
 * left out: no sort can remove them. */
static int64_t sell_count_slots(const int32_t *len, const int32_t *order, int32_t rows, int32_t C)
{
    int64_t total = 0;
    for (int64_t s0 = 0; s0 < rows; s0 += C) {
        int32_t w = 0;
        int64_t end = s0 + C < rows ? s0 + C : rows;
        for (int64_t p = s0; p < end; p++)
            w = len[order[p]] > w ? len[order[p]] : w;
        total += (int64_t)w * (end - s0);
    }
    return total;
}

/* The window an option value asks for: >= rows or >= 2^30 is one global
 * window; a window of at most one slice cannot narrow a slice and acts as 1. */
static int32_t sell_window(int64_t sigma, int32_t rows, int32_t C)
{
    int64_t w = sigma >= rows || sigma >= SELL_SIGMA_GLOBAL ? rows : sigma;
    return w <= C ? 1 : (int32_t)w;
}

/* sigma = auto: 1 when the unsorted slices pad at most SELL_SIGMA_FILL;
 * otherwise the smallest window of 8C, 32C, 128C that does, else the
 * window of those with the fewest slots. Leaves the chosen order in order.
 * Returns the window, or -1 without host memory. */
static int32_t sell_choose_sigma(const int32_t *len, int32_t rows, int32_t C, int32_t sell_nnz,
                                 int32_t *order, uint64_t *key)
{
    double limit = SELL_SIGMA_FILL * (double)sell_nnz;
    sell_sort_windows(len, rows, 1, order, key);
    if ((double)sell_count_slots(len, order, rows, C) <= limit)
        return 1;
    int32_t best = 1;
    int64_t best_slots = INT64_MAX;
    for (int64_t m = 8; m <= 128; m *= 4) {
        int32_t w = sell_window(m * C, rows, C);
        sell_sort_windows(len, rows, w, order, key);
        int64_t slots = sell_count_slots(len, order, rows, C);
        if (slots < best_slots) {
            best = w;
            best_slots = slots;
        }
        if ((double)slots <= limit || w == rows)
            break;
    }
    sell_sort_windows(len, rows, best, order, key);
    return best;
}

/* The long rows' arrays: rows in ascending order, entries copied, pieces of
 * at most SELL_PIECE entries. */
static spmvlab_status sell_build_long(sell_fmt *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    size_t vs = spmvlab_dtype_size(f->dtype);
    f->long_row = malloc(((size_t)f->nlong + 1) * sizeof(int32_t));
    f->long_ptr = malloc(((size_t)f->nlong + 1) * sizeof(int32_t));
    f->piece_ptr = malloc(((size_t)f->nlong + 1) * sizeof(int32_t));
    f->long_col = malloc((size_t)f->long_nnz * sizeof(int32_t) + 1);
    f->long_val = malloc((size_t)f->long_nnz * vs + 1);
    if (!f->long_row || !f->long_ptr || !f->piece_ptr || !f->long_col || !f->long_val)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %d long rows",
                            f->nlong);
    int32_t j = 0, at = 0, pieces = 0;
    f->long_ptr[0] = f->piece_ptr[0] = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t b = A->row_ptr[i], n = A->row_ptr[i + 1] - b;
        if (n <= f->long_threshold)
            continue;
        memcpy(f->long_col + at, A->col_idx + b, (size_t)n * sizeof(int32_t));
        memcpy((char *)f->long_val + (size_t)at * vs, (const char *)A->val + (size_t)b * vs,
               (size_t)n * vs);
        at += n;
        pieces += (n + SELL_PIECE - 1) / SELL_PIECE;
        f->multi_piece |= n > SELL_PIECE;
        f->long_row[j++] = i;
        f->long_ptr[j] = at;
        f->piece_ptr[j] = pieces;
    }
    f->npieces = pieces;
    f->piece_of = malloc((size_t)pieces * sizeof(int32_t) + 1);
    if (!f->piece_of)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %d pieces", pieces);
    for (j = 0; j < f->nlong; j++)
        for (int32_t p = f->piece_ptr[j]; p < f->piece_ptr[j + 1]; p++)
            f->piece_of[p] = j;
    return SPMVLAB_OK;
}

/* Writes the slices column-major: slot k of slice row r of slice s at
 * slice_ptr[s] + k * C + r; padding gets SELL_PAD_COL and 0. */
static void sell_fill(sell_fmt *f, const spmvlab_matrix *A, const int32_t *len,
                      const int32_t *order)
{
    size_t vs = f->vs.elem; /* values or codes (padding: +0.0 or code 0), none for a pattern */
    char *val = f->val;
    const char *src = f->vs.src;
    for (int32_t s = 0; s < f->nslices; s++) {
        int32_t w = (f->slice_ptr[s + 1] - f->slice_ptr[s]) / f->C;
        for (int32_t r = 0; r < f->C; r++) {
            int64_t p = (int64_t)s * f->C + r;
            int32_t n = p < A->rows ? len[order[p]] : 0;
            int32_t first = p < A->rows ? A->row_ptr[order[p]] : 0;
            for (int32_t k = 0; k < w; k++) {
                int64_t i = f->slice_ptr[s] + (int64_t)k * f->C + r;
                f->col[i] = k < n ? A->col_idx[first + k] : SELL_PAD_COL;
                if (k < n && vs)
                    memcpy(val + i * vs, src + (size_t)(first + k) * vs, vs);
                else if (vs)
                    memset(val + i * vs, 0, vs);
            }
        }
    }
}

/* Slice widths and offsets; refuses more than 2^31 - 1 slots (LIMIT). */
static spmvlab_status sell_layout(sell_fmt *f, const int32_t *len, const int32_t *order,
                                  spmvlab_err *err)
{
    int64_t at = 0;
    for (int32_t s = 0; s < f->nslices; s++) {
        int32_t w = 0;
        for (int64_t p = (int64_t)s * f->C; p < (int64_t)(s + 1) * f->C && p < f->rows; p++)
            w = len[order[p]] > w ? len[order[p]] : w;
        f->slice_ptr[s] = (int32_t)(at < INT32_MAX ? at : INT32_MAX);
        at += (int64_t)w * f->C;
        f->max_width = w > f->max_width ? w : f->max_width;
    }
    if (at > INT32_MAX)
        return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT,
                            "%lld slots (fill %.2f with C = %d, sigma = %d) exceed the 2^31 - 1 "
                            "that 32-bit slice offsets address",
                            (long long)at, f->sell_nnz ? (double)at / f->sell_nnz : 1.0, f->C,
                            f->sigma);
    f->slice_ptr[f->nslices] = (int32_t)at;
    f->stored = (int32_t)at;
    return SPMVLAB_OK;
}

/* Slices for f->C: the sort (sigma), the layout and threads_per_row, into
 * len's rows; order and *key are (re)allocated here. */
static spmvlab_status sell_slices(sell_fmt *f, const spmvlab_matrix *A, const sell_opts *o, const int32_t *len,
                                  int32_t *order, uint64_t **key, int *changed, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    f->nslices = (int32_t)(((int64_t)A->rows + f->C - 1) / f->C);
    f->max_width = 0;
    free(f->slice_ptr);
    f->slice_ptr = malloc(((size_t)f->nslices + 1) * sizeof(int32_t));
    if (!f->slice_ptr)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d slices", f->nslices);
    f->sigma_auto = o->sigma == SPMVLAB_AUTO;
    int32_t want = f->sigma_auto ? sell_window((int64_t)128 * f->C, A->rows, f->C)
                                 : sell_window(o->sigma, A->rows, f->C);
    free(*key);
    *key = malloc(((size_t)want + 1) * sizeof **key);
    if (!*key)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory to sort %d rows", want);
    if (f->sigma_auto) {
        f->sigma = sell_choose_sigma(len, A->rows, f->C, f->sell_nnz, order, *key);
    } else {
        f->sigma = want;
        sell_sort_windows(len, A->rows, want, order, *key);
    }
    *changed = 0;
    for (int32_t i = 0; i < A->rows && !*changed; i++)
        *changed = order[i] != i;
    spmvlab_status st = sell_layout(f, len, order, err);
    if (st != SPMVLAB_OK)
        return st;

    double mean = f->nslices ? (double)f->stored / ((double)f->nslices * f->C) : 0.0;
    const spmvlab_device *dev = ctx->device;
    int64_t warps = dev->present && dev->sm_count > 0
                        ? (int64_t)dev->sm_count * dev->max_threads_per_sm / SELL_WARP
                        : SELL_DEFAULT_WARPS;
    f->tpr_auto = o->threads_per_row == SPMVLAB_AUTO;
    f->threads_per_row = f->tpr_auto ? sell_rule_tpr(mean, f->max_width, A->rows, warps) : o->threads_per_row;
    if (f->tpr_auto && ((long_rows_uneven_wide(A->rows, A->row_ptr) && /* ../common/long_rows.h */
                         long_rows_waves_fit(A->rows, LONG_ROWS_UNEVEN_WAVES, warps)) ||
                        (f->threads_per_row < LONG_ROWS_UNEVEN_TPR &&
                         long_rows_short_chains(f->max_width, mean, A->rows, warps))))
        f->threads_per_row = LONG_ROWS_UNEVEN_TPR;
    return SPMVLAB_OK;
}

spmvlab_status sell_build(sell_fmt *f, const spmvlab_matrix *A, const sell_opts *o,
                          spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    f->long_auto = o->long_row == SPMVLAB_AUTO;
    f->long_threshold = f->long_auto ? sell_rule_long_row(A->rows, A->nnz) : o->long_row;
    int32_t *len = malloc(((size_t)A->rows + 1) * sizeof *len);
    int32_t *order = malloc(((size_t)A->rows + 1) * sizeof *order);
    uint64_t *key = NULL;
    spmvlab_status st = SPMVLAB_OK;
    if (!len || !order) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d rows", A->rows);
        goto out;
    }
    for (int32_t i = 0; i < A->rows; i++) { /* long rows leave the slices as empty rows */
        int32_t n = A->row_ptr[i + 1] - A->row_ptr[i];
        len[i] = n > f->long_threshold ? 0 : n;
        f->nlong += n > f->long_threshold;
        f->long_nnz += n > f->long_threshold ? n : 0;
    }
    f->sell_nnz = A->nnz - f->long_nnz;

    int changed = 0;
    f->C_auto = o->C == SPMVLAB_AUTO;
    f->C = f->C_auto ? SELL_WARP : o->C;
    st = sell_slices(f, A, o, len, order, &key, &changed, err);
    if (st == SPMVLAB_OK && f->C_auto && f->threads_per_row >= SELL_C1_MIN_TPR) {
        f->C = 1; /* T lanes a row then read consecutive slots (README.md, "The rules") */
        st = sell_slices(f, A, o, len, order, &key, &changed, err);
    }
    if (st != SPMVLAB_OK)
        goto out;

    size_t vs = f->vs.elem;
    f->col = malloc((size_t)f->stored * sizeof(int32_t) + 1);
    f->val = malloc((size_t)f->stored * vs + 1);
    if (!f->col || !f->val) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d slots", f->stored);
        goto out;
    }
    sell_fill(f, A, len, order);
    if (changed) {
        f->perm = order; /* the sorted order is the permutation the kernel writes through */
        order = NULL;
    }
    if (f->nlong > 0)
        st = sell_build_long(f, A, err);
out:
    free(len);
    free(order);
    free(key);
    return st;
}

int32_t *sell_device_perm(const sell_fmt *f)
{
    if (f->nlong == 0)
        return NULL;
    int32_t *dp = malloc((size_t)f->rows * sizeof(int32_t) + 1);
    unsigned char *is_long = calloc((size_t)f->rows + 1, 1);
    if (dp && is_long) {
        for (int32_t j = 0; j < f->nlong; j++)
            is_long[f->long_row[j]] = 1;
        for (int32_t p = 0; p < f->rows; p++) {
            const int32_t row = f->perm ? f->perm[p] : p;
            dp[p] = is_long[row] ? ~row : row;
        }
    } else {
        free(dp);
        dp = NULL;
    }
    free(is_long);
    return dp;
}

int sell_rule_loads(int choice, int32_t threads_per_row, double moved_bytes, double l2_bytes)
{
    if (threads_per_row != 1)
        return 0;
    if (choice != SELL_LOADS_AUTO)
        return choice == SELL_LOADS_STREAMING;
    return moved_bytes >= SELL_STREAM_L2_SHARE * l2_bytes;
}
