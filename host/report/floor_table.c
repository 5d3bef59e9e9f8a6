/* report --table's lines below the floor, by bound; see floor_table.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor_table.h"
#include "spmvlab/stats.h"

/* A matrix below the floor: the instance's row and the baseline's (NULL
 * when the matrix has none). */
typedef struct floor_cell {
    const run_row *r, *base;
} floor_cell;

/* The baseline's row of r's matrix and dtype: the last one whose outcome
 * is "baseline" (run's baseline, or report --baseline's); NULL when none. */
static const run_row *find_base(const run_rows *rows, const run_row *r)
{
    for (int j = rows->n - 1; j >= 0; j--) {
        const run_row *b = &rows->v[j];
        if (strcmp(b->outcome, "baseline") == 0 && strcmp(b->matrix, r->matrix) == 0 &&
            strcmp(b->dtype, r->dtype) == 0)
            return b;
    }
    return NULL;
}

/* The matrices where instance k of s is below RUN_FLOOR (the rows the
 * summary counted: its cell table's), with their baseline rows, into c.
 * Returns how many. */
static int collect_cells(const run_rows *rows, const run_summary *s, int k, floor_cell *c)
{
    int n = 0;
    for (int m = 0; m < s->nmat; m++) {
        const int i = s->cell[(size_t)m * s->ninst + k];
        const run_row *r = i >= 0 ? &rows->v[i] : NULL;
        if (r && strcmp(r->status, "ok") == 0 && r->speedup > 0 && r->speedup < RUN_FLOOR)
            c[n++] = (floor_cell){r, find_base(rows, r)};
    }
    return n;
}

/* qsort order of cells: by bound kind (cells without one last), then by
 * speedup, lowest first, then in row order. */
static int by_kind(const void *x, const void *y)
{
    const floor_cell *a = x, *b = y;
    int none_a = !a->r->bound_kind[0], none_b = !b->r->bound_kind[0];
    int c = none_a != none_b ? none_a - none_b : strcmp(a->r->bound_kind, b->r->bound_kind);
    if (!c)
        c = (a->r->speedup > b->r->speedup) - (a->r->speedup < b->r->speedup);
    return c ? c : (a->r > b->r) - (a->r < b->r);
}

/* v when it is a positive finite number, else NaN (which the median leaves
 * out): a missing bound or a zero byte count is no value. */
static double positive_or_nan(double v)
{
    return v > 0 && !isinf(v) ? v : NAN;
}

/* Line l from the n cells c of one instance and bound kind; scratch holds
 * n doubles. */
static void fill_line(floor_line *l, const floor_cell *c, int n, double *scratch)
{
    snprintf(l->bound_kind, sizeof l->bound_kind, "%s", c[0].r->bound_kind);
    l->cells = n;
    for (int i = 0; i < n; i++)
        scratch[i] = positive_or_nan(c[i].r->bound_frac);
    l->frac = spmvlab_median(scratch, n);
    for (int i = 0; i < n; i++)
        scratch[i] = c[i].base ? positive_or_nan(c[i].base->bound_frac) : NAN;
    l->base_frac = spmvlab_median(scratch, n);
    for (int i = 0; i < n; i++)
        scratch[i] = c[i].base ? positive_or_nan(c[i].r->bytes_per_nnz / c[i].base->bytes_per_nnz) : NAN;
    l->bytes_ratio = spmvlab_median(scratch, n);
    for (int i = 0; i < n && i < FLOOR_NAMES; i++)
        l->matrix[i] = c[i].r->matrix;
}

int floor_table_build(const run_rows *rows, const run_summary *s, floor_table *out)
{
    memset(out, 0, sizeof *out);
    size_t n = (size_t)rows->n + 1;
    floor_cell *c = malloc(n * sizeof *c);
    double *scratch = malloc(n * sizeof *scratch);
    out->v = calloc(n, sizeof *out->v);
    int rc = -1;
    if (!c || !scratch || !out->v)
        goto out;
    for (int k = 0; k < s->ninst; k++) {
        const sum_instance *si = &s->inst[k];
        int nc = si->below_floor ? collect_cells(rows, s, k, c) : 0;
        qsort(c, (size_t)nc, sizeof *c, by_kind);
        for (int a = 0, b; a < nc; a = b) {
            for (b = a + 1; b < nc && strcmp(c[b].r->bound_kind, c[a].r->bound_kind) == 0; b++)
                ;
            floor_line *l = &out->v[out->n++];
            snprintf(l->group, sizeof l->group, "%s", si->dtype);
            l->instance = si->instance;
            fill_line(l, c + a, b - a, scratch);
        }
    }
    rc = 0;
out:
    free(c), free(scratch);
    if (rc)
        floor_table_free(out);
    return rc;
}

void floor_table_free(floor_table *t)
{
    free(t->v);
    memset(t, 0, sizeof *t);
}
