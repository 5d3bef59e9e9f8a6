/* CSR assembly from unordered entries, row statistics and matrix labels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/core.h"

void spmvlab_csr_free(spmvlab_csr *A)
{
    if (!A)
        return;
    free(A->row_ptr);
    free(A->col_idx);
    free(A->val);
    memset(A, 0, sizeof *A);
}

/* Sorts one row's (col, val) pairs by column: insertion sort for the short
 * rows that dominate real matrices, heap-free merge via qsort otherwise. */
typedef struct colval {
    int32_t col;
    double val;
} colval;

static int colval_cmp(const void *a, const void *b)
{
    int32_t x = ((const colval *)a)->col, y = ((const colval *)b)->col;
    return (x > y) - (x < y);
}

static void sort_row(colval *r, int32_t n)
{
    if (n > 32) {
        qsort(r, (size_t)n, sizeof *r, colval_cmp);
        return;
    }
    for (int32_t i = 1; i < n; i++) {
        colval t = r[i];
        int32_t j = i - 1;
        while (j >= 0 && r[j].col > t.col) {
            r[j + 1] = r[j];
            j--;
        }
        r[j + 1] = t;
    }
}

int spmvlab_csr_build(spmvlab_csr *A, int32_t rows, int32_t cols, size_t n, const int32_t *ri,
                      const int32_t *ci, const double *v, spmvlab_err *err)
{
    memset(A, 0, sizeof *A);
    if (n > (size_t)INT32_MAX)
        return spmvlab_errf(err, "%zu entries exceed the 32-bit index limit of %d", n, INT32_MAX), -1;
    A->rows = rows;
    A->cols = cols;
    size_t offsets = ((size_t)rows + 1) * sizeof *A->row_ptr;
    A->row_ptr = calloc((size_t)rows + 1, sizeof *A->row_ptr);
    if (!A->row_ptr) {
        spmvlab_csr_free(A);
        return spmvlab_errf(err, "out of host memory for the row offsets of a %d x %d matrix (%zu bytes)", rows,
                            cols, offsets), -1;
    }
    colval *cv = malloc((n ? n : 1) * sizeof *cv);
    if (!cv) {
        spmvlab_csr_free(A);
        return spmvlab_errf(err, "out of host memory for the %zu entries of a %d x %d matrix (%zu bytes)", n, rows,
                            cols, n * sizeof *cv), -1;
    }
    /* Counts, then each row's start; the starts serve as the fill cursors
     * (no second array of rows + 1), each ending at the next row's start. */
    for (size_t k = 0; k < n; k++)
        A->row_ptr[ri[k] + 1]++;
    for (int32_t i = 0; i < rows; i++)
        A->row_ptr[i + 1] += A->row_ptr[i];
    for (size_t k = 0; k < n; k++) {
        colval *slot = &cv[A->row_ptr[ri[k]]++];
        slot->col = ci[k];
        slot->val = v[k];
    }
    memmove(A->row_ptr + 1, A->row_ptr, (size_t)rows * sizeof *A->row_ptr);
    A->row_ptr[0] = 0;
    /* Sort each row, sum duplicates, compact in place. */
    int32_t out = 0;
    for (int32_t i = 0; i < rows; i++) {
        int32_t b = A->row_ptr[i], e = A->row_ptr[i + 1];
        sort_row(cv + b, e - b);
        A->row_ptr[i] = out;
        for (int32_t k = b; k < e; k++) {
            if (out > A->row_ptr[i] && cv[out - 1].col == cv[k].col)
                cv[out - 1].val += cv[k].val;
            else
                cv[out++] = cv[k];
        }
    }
    A->row_ptr[rows] = out;
    A->nnz = out;
    A->col_idx = malloc((out ? (size_t)out : 1) * sizeof *A->col_idx);
    A->val = malloc((out ? (size_t)out : 1) * sizeof *A->val);
    if (!A->col_idx || !A->val) {
        free(cv);
        spmvlab_csr_free(A);
        return spmvlab_errf(err, "out of host memory for the %d non-zeros of a %d x %d matrix", out, rows, cols), -1;
    }
    for (int32_t k = 0; k < out; k++) {
        A->col_idx[k] = cv[k].col;
        A->val[k] = cv[k].val;
    }
    free(cv);
    strcpy(A->symmetry, "general");
    strcpy(A->field, "real");
    return 0;
}

int spmvlab_csr_from_triplets(spmvlab_csr *A, int32_t rows, int32_t cols, spmvlab_triplet *t,
                              size_t n, spmvlab_err *err)
{
    int32_t *ri = malloc((n ? n : 1) * sizeof *ri), *ci = malloc((n ? n : 1) * sizeof *ci);
    double *v = malloc((n ? n : 1) * sizeof *v);
    int rc = -1;
    if (!ri || !ci || !v) {
        spmvlab_errf(err, "out of host memory for %zu entries", n);
        memset(A, 0, sizeof *A);
    } else {
        for (size_t k = 0; k < n; k++) {
            if (t[k].row < 0 || t[k].row >= rows || t[k].col < 0 || t[k].col >= cols) {
                spmvlab_errf(err, "entry %zu at (%d, %d) lies outside the %d x %d matrix", k,
                             t[k].row, t[k].col, rows, cols);
                goto done;
            }
            ri[k] = t[k].row;
            ci[k] = t[k].col;
            v[k] = t[k].val;
        }
        rc = spmvlab_csr_build(A, rows, cols, n, ri, ci, v, err);
    }
done:
    free(ri);
    free(ci);
    free(v);
    free(t);
    return rc;
}

void spmvlab_row_stats_of(const spmvlab_csr *A, spmvlab_row_stats *s)
{
    memset(s, 0, sizeof *s);
    if (A->rows == 0)
        return;
    double sum = 0, sq = 0;
    s->min = INT32_MAX;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        s->min = len < s->min ? len : s->min;
        s->max = len > s->max ? len : s->max;
        s->empty += len == 0;
        sum += len;
        sq += (double)len * len;
    }
    s->mean = sum / A->rows;
    double var = sq / A->rows - s->mean * s->mean;
    s->stddev = var > 0 ? sqrt(var) : 0;
}

void spmvlab_matrix_label(const char *path, char *out, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    static const char *const suffixes[] = {".mtx.gz", ".mtx", ".tar.gz", ".tgz", ".tar", ".gz", ".gen"};
    for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++) {
        size_t m = strlen(suffixes[k]);
        if (n > m && strcmp(base + n - m, suffixes[k]) == 0) {
            n -= m;
            break;
        }
    }
    if (n >= len)
        n = len - 1;
    memcpy(out, base, n);
    out[n] = '\0';
}
