/* Orderings of a run's matrices; see run_order.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_order.h"
#include "spmvlab/bound.h"

int run_order_count(const run_settings *s)
{
    return s->norders > 0 ? s->norders : 1;
}

spmvlab_ordering run_order_at(const run_settings *s, int i)
{
    return s->norders > 0 ? s->orders[i] : SPMVLAB_ORDER_NONE;
}

void run_order_label(const char *label, spmvlab_ordering o, char *out, size_t len)
{
    if (o == SPMVLAB_ORDER_NONE)
        snprintf(out, len, "%s", label);
    else
        snprintf(out, len, "%s@%s", label, spmvlab_ordering_name(o));
}

/* Slot of a value size in the sector arrays: f16, f32, f64. */
static int size_slot(size_t value_size)
{
    return value_size == 2 ? 0 : value_size == 4 ? 1 : 2;
}

/* The sectors of M for every dtype of the run; the others stay NaN. */
static void count_sectors(const run_settings *s, const spmvlab_csr *M, double sectors[3])
{
    for (int k = 0; k < 3; k++)
        sectors[k] = NAN;
    for (int d = 0; d < s->ndtypes; d++) {
        size_t vs = spmvlab_dtype_size(s->dtypes[d]);
        double n = spmvlab_gather_sectors(M, vs);
        sectors[size_slot(vs)] = n >= 0 ? n : NAN;
    }
}

int run_order_apply(const run_settings *s, const spmvlab_csr *A, spmvlab_ordering o, spmvlab_csr *B,
                    run_order_facts *facts, spmvlab_err *err)
{
    memset(B, 0, sizeof *B);
    facts->ordering = o;
    facts->reorder_ms = 0;
    facts->bandwidth_before = (double)spmvlab_csr_bandwidth(A);
    count_sectors(s, A, facts->sectors_before);
    if (o == SPMVLAB_ORDER_NONE) {
        facts->bandwidth_after = facts->bandwidth_before;
        memcpy(facts->sectors_after, facts->sectors_before, sizeof facts->sectors_after);
        return 0;
    }
    double t0 = spmvlab_now_ms();
    int32_t *perm = NULL;
    if (spmvlab_order_compute(A, o, &perm, err))
        return -1;
    int rc = spmvlab_csr_permute(A, perm, B, err);
    free(perm);
    if (rc)
        return -1;
    facts->reorder_ms = spmvlab_now_ms() - t0;
    facts->bandwidth_after = (double)spmvlab_csr_bandwidth(B);
    count_sectors(s, B, facts->sectors_after);
    return 0;
}

void run_order_to_row(const run_order_facts *facts, spmvlab_dtype d, run_row *r)
{
    if (!facts)
        return;
    int k = size_slot(spmvlab_dtype_size(d));
    snprintf(r->ordering, sizeof r->ordering, "%s", spmvlab_ordering_name(facts->ordering));
    r->reorder_ms = facts->reorder_ms;
    r->bandwidth_before = facts->bandwidth_before;
    r->bandwidth_after = facts->bandwidth_after;
    r->sectors_before = facts->sectors_before[k];
    r->sectors_after = facts->sectors_after[k];
}
