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

run_order_spec run_order_at(const run_settings *s, int i)
{
    run_order_spec none = {SPMVLAB_ORDER_NONE, 0};
    return s->norders > 0 ? s->orders[i] : none;
}

void run_order_name(run_order_spec o, char *out, size_t len)
{
    snprintf(out, len, "%s%s", spmvlab_ordering_name(o.ordering), o.per_call ? "+call" : "");
}

void run_order_label(const char *label, run_order_spec o, char *out, size_t len)
{
    char name[32];
    run_order_name(o, name, sizeof name);
    if (o.ordering == SPMVLAB_ORDER_NONE)
        snprintf(out, len, "%s", label);
    else
        snprintf(out, len, "%s@%s", label, name);
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

int run_order_apply(const run_settings *s, const spmvlab_csr *A, run_order_spec o, spmvlab_csr *B, int32_t **perm,
                    run_order_facts *facts, spmvlab_err *err)
{
    memset(B, 0, sizeof *B);
    if (perm)
        *perm = NULL;
    facts->ordering = o;
    facts->reorder_ms = 0;
    facts->bandwidth_before = (double)spmvlab_csr_bandwidth(A);
    count_sectors(s, A, facts->sectors_before);
    if (o.ordering == SPMVLAB_ORDER_NONE) {
        facts->bandwidth_after = facts->bandwidth_before;
        memcpy(facts->sectors_after, facts->sectors_before, sizeof facts->sectors_after);
        return 0;
    }
    double t0 = spmvlab_now_ms();
    int32_t *p = NULL;
    if (spmvlab_order_compute(A, o.ordering, &p, err))
        return -1;
    int rc = spmvlab_csr_permute(A, p, B, err);
    if (rc || !perm)
        free(p);
    else
        *perm = p;
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
    run_order_name(facts->ordering, r->ordering, sizeof r->ordering);
    r->reorder_ms = facts->reorder_ms;
    r->bandwidth_before = facts->bandwidth_before;
    r->bandwidth_after = facts->bandwidth_after;
    r->sectors_before = facts->sectors_before[k];
    r->sectors_after = facts->sectors_after[k];
}
