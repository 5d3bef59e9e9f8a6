/* The bound columns of a row; see run_bound.h. */
#include <math.h>
#include <stdio.h>

#include "run_bound.h"
#include "spmvlab/bound.h"

void run_row_bound(run_row *r, const spmvlab_csr *A, size_t value_size, const spmvlab_ceilings *c, int single)
{
    r->bound_us = r->bound_frac = NAN;
    r->bound_kind[0] = '\0';
    if (!(r->ms > 0) || !(r->device_bytes >= 0))
        return;
    /* counted per row rather than kept per matrix: one pass over the
     * columns, small beside the timing rounds of the same cell */
    double sectors = spmvlab_gather_sectors(A, value_size);
    if (sectors < 0)
        return;
    double vs = (double)value_size;
    spmvlab_bound_work w = {r->device_bytes + (A->cols + (double)A->rows) * vs, A->cols * vs, sectors, single};
    spmvlab_bound b;
    if (spmvlab_bound_of(c, &w, &b))
        return;
    r->bound_us = b.us;
    snprintf(r->bound_kind, sizeof r->bound_kind, "%s", spmvlab_bound_kind_name(b.kind));
    r->bound_frac = b.us / (r->ms * 1e3);
}
