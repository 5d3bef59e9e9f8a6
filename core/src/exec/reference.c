/*
 * The reference SpMV and the per-row error bound of docs/design.md §5:
 * |y_i - ref_i| <= k·u·Σ_j |a_ij·x_j|, k = 2·(row length + 1), u the unit
 * roundoff of the dtype. The reference sums in double-double (error-free
 * TwoSum/TwoProd), so it is exact to well below any dtype's roundoff.
 */
#include <math.h>
#include <string.h>

#include "spmvlab/core.h"

void spmvlab_poison_host(void *y, size_t n, spmvlab_dtype dtype)
{
    memset(y, 0xff, n * spmvlab_dtype_size(dtype));
}

void spmvlab_reference(const spmvlab_matrix *m, const void *x, double *ref, double *absum)
{
    for (int32_t i = 0; i < m->rows; i++) {
        double hi = 0, lo = 0, a = 0;
        for (int32_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            double av = spmvlab_value_get(m->val, (size_t)k, m->dtype), xv = spmvlab_value_get(x, (size_t)m->col_idx[k], m->dtype);
            double p = av * xv, pe = fma(av, xv, -p); /* TwoProd */
            double s = hi + p, bb = s - hi, se = (hi - (s - bb)) + (p - bb); /* TwoSum */
            hi = s;
            lo += se + pe;
            a += fabs(p);
        }
        ref[i] = hi + lo;
        absum[i] = a;
    }
}

double spmvlab_unit_roundoff(spmvlab_dtype dtype)
{
    return dtype == SPMVLAB_F64 ? 0x1.0p-53 : dtype == SPMVLAB_F32 ? 0x1.0p-24 : 0x1.0p-11;
}

double spmvlab_row_bound(spmvlab_dtype dtype, int32_t len, double absum)
{
    return 2.0 * (len + 1) * spmvlab_unit_roundoff(dtype) * absum;
}

/* Stored values a(1 + d), |d| <= u_s: the exact sum moves by at most
 * u_s·absum, and the computed sum of the rounded products keeps the
 * dtype's bound on a sum whose magnitude grew by at most (1 + u_s). */
double spmvlab_row_bound_stored(spmvlab_dtype dtype, spmvlab_dtype storage, int32_t len, double absum)
{
    if (storage == dtype || spmvlab_unit_roundoff(storage) <= spmvlab_unit_roundoff(dtype))
        return spmvlab_row_bound(dtype, len, absum);
    double us = spmvlab_unit_roundoff(storage);
    return spmvlab_row_bound(dtype, len, absum) * (1 + us) + us * absum;
}

void spmvlab_verify(const spmvlab_matrix *m, const void *y, const double *ref, const double *absum,
                    spmvlab_verdict *v)
{
    spmvlab_verify_stored(m, m->dtype, y, ref, absum, v);
}

void spmvlab_verify_stored(const spmvlab_matrix *m, spmvlab_dtype storage, const void *y, const double *ref,
                           const double *absum, spmvlab_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->worst_row = -1;
    for (int32_t i = 0; i < m->rows; i++) {
        double yi = spmvlab_value_get(y, (size_t)i, m->dtype);
        if (!isfinite(ref[i]) || !isfinite(absum[i])) {
            v->nonfinite_ref++;
            continue; /* the input holds NaN/Inf; reported, never passed */
        }
        double bound = spmvlab_row_bound_stored(m->dtype, storage, m->row_ptr[i + 1] - m->row_ptr[i], absum[i]);
        /* f16 results are rounded once more on the way out, and a row whose
         * exact sum overflows f16 may legitimately give Inf. */
        if (m->dtype == SPMVLAB_F16)
            bound += 0x1.0p-11 * fabs(ref[i]) + 0x1.0p-25;
        double diff = fabs(yi - ref[i]);
        double ratio = diff == 0 ? 0 : bound > 0 ? diff / bound : INFINITY;
        if (!isfinite(yi)) {
            v->nan_rows++;
            ratio = INFINITY;
        }
        if (!(ratio <= 1.0))
            v->bad_rows++;
        if (v->worst_row < 0 || !(ratio <= v->max_ratio)) {
            v->max_ratio = ratio;
            v->worst_row = i;
            v->y_worst = yi;
            v->ref_worst = ref[i];
        }
    }
    v->ok = v->bad_rows == 0 && v->nonfinite_ref == 0;
}
