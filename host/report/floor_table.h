/*
 * report --table's third table, "below the floor, by bound": per instance
 * with a matrix below RUN_FLOOR, one line per bound kind of its rows there
 * (bound.h: the limit that binds the cell), with the median share of that
 * bound the instance reached, the baseline's median share of its own bound
 * on the same matrices and the median ratio of their bytes per non-zero.
 * A ratio above 1 at a like share says the format moves more bytes than the
 * baseline (format-bound); a like ratio at a smaller share says it reaches
 * less of the same bound (latency- or kernel-bound).
 */
#ifndef SPMVLAB_HOST_REPORT_FLOOR_TABLE_H
#define SPMVLAB_HOST_REPORT_FLOOR_TABLE_H

#include "row.h"
#include "summary.h"

/* The matrices a line names; the others are counted ("and N more"). */
#define FLOOR_NAMES 8

typedef struct floor_line {
    char group[8];                   /* the comparison group (summary_group_of) */
    const char *instance;            /* owned by the summary the table was built from */
    char bound_kind[8];              /* bound_kind of the instance's rows, "" when they have none (no GPU) */
    int cells;                       /* its matrices below RUN_FLOOR with this bound kind */
    double frac;                     /* median bound_frac of the instance there; NaN when no row has one */
    double base_frac;                /* median bound_frac of the baseline's rows of those matrices; NaN when
                                        none has one */
    double bytes_ratio;              /* median bytes_per_nnz of the instance / the baseline's; NaN when no
                                        matrix has both */
    const char *matrix[FLOOR_NAMES]; /* the first matrices, lowest speedup first; owned by the rows */
} floor_line;

typedef struct floor_table {
    floor_line *v;                   /* in the summary's instance order, bound kinds by name, none last */
    int n;
} floor_table;

/* The lines of every comparison group from the rows s was built from (the
 * rows of its cell table, those the summary counted); the baseline's row of a
 * matrix is the last of its matrix and dtype whose outcome is "baseline".
 * Returns 0, or -1 out of memory. */
int floor_table_build(const run_rows *rows, const run_summary *s, floor_table *out);
void floor_table_free(floor_table *t);

#endif
