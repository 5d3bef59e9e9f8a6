/*
 * The A/B summary, computed from result rows (so `run` and `report` share
 * it): per dtype and instance the geometric-mean speedup over the baseline
 * with a bootstrap 95% interval over matrices, wins / losses / ties (a win
 * or loss only where the matrix's own interval excludes 1), the matrices
 * where it was fastest and its performance profile; per matrix the best
 * instance.
 */
#ifndef SPMVLAB_HOST_RUN_SUMMARY_H
#define SPMVLAB_HOST_RUN_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include "row.h"
#include "spmvlab/stats.h"

#define RUN_NTAU 5
extern const double run_taus[RUN_NTAU]; /* 1, 1.1, 1.25, 1.5, 2 */
/* The floor a default should keep on every matrix (docs/corpus.md): each
 * instance counts the matrices where its speedup is below it. */
#define RUN_FLOOR 0.8

typedef struct sum_instance {
    char dtype[8];              /* the comparison group: summary_group_of */
    char instance[128];
    int cells;                  /* matrices it ran on */
    int matrices;               /* matrices of its dtype in the rows: more than cells where it has no row
                                   (merged parts of other instance lists) */
    int ok, wrong, refused, failed; /* classes of run_status_class */
    int compared;               /* matrices with a speedup */
    spmvlab_ci geo;             /* geometric-mean speedup and its interval */
    int wins, losses, ties;
    int best;                   /* matrices where it was the fastest */
    double profile[RUN_NTAU];   /* fraction of matrices within run_taus[t] of the fastest */
    double bound_frac;          /* median over its ok rows of bound_frac (how close to the bound); NaN when
                                   none has one (no GPU) */
    spmvlab_ci vendor;          /* geometric-mean speedup over the vendor-best time (VENDOR_BEST), NaN when
                                   no matrix has both */
    int vendor_compared;        /* matrices with both */
    double worst;               /* the lowest speedup over the baseline, NaN when none */
    char worst_matrix[256];     /* its matrix */
    int below_floor;            /* matrices with a speedup below RUN_FLOOR */
} sum_instance;

typedef struct sum_matrix {
    char dtype[8];
    char matrix[256];
    double nnz;
    int ok;                     /* instances with status ok */
    char best[128];             /* fastest ok instance, "" when none is timed */
    double best_ms, best_gflops, best_speedup;
    char vendor[128];           /* the fastest ok instance of the vendor's plugin, "" when none is timed */
    double vendor_ms;
} sum_matrix;

/* Inputs of one dtype that no instance ran on (rows of status skipped or
 * unreadable, one per matrix; a matrix measured later is not counted). */
typedef struct sum_inputs {
    char dtype[8];
    int skipped, unreadable;
} sum_inputs;

/* The vendor-best baseline: per matrix, the fastest of the instances of
 * the vendor's plugin that ran there (a selector's rows left out). It is a
 * baseline name of report --baseline too. */
#define VENDOR_BEST "vendor-best"
#define VENDOR_PLUGIN "cusparse"

/* 1 when the row is a vendor-best candidate: an instance of VENDOR_PLUGIN,
 * not a selector's row. */
int summary_is_vendor_row(const run_row *r);

typedef struct run_summary {
    char baseline[128];
    double noise;               /* the rows' outcome threshold */
    int timed;                  /* some row holds a time */
    int vendor;                 /* some matrix has a vendor-best time */
    sum_instance *inst;
    int ninst;
    sum_matrix *mat;
    int nmat;
    sum_inputs *inputs;         /* one per dtype with such rows */
    int ninputs;
    int *cell;                  /* nmat x ninst: the index in the rows of each matrix x instance's last row
                                   (the one counted), -1 where it has none */
} run_summary;

/* The comparison group of a row: its dtype, or DTYPE/STORAGE ("f64/f32")
 * when its format stores values in another type. Instances are compared,
 * profiled and named best only within one group (docs/methodology.md). */
void summary_group_of(const run_row *r, char out[8]);

/* Builds the summary of rows; a later row of the same matrix, instance and
 * dtype replaces an earlier one. baseline "" takes the rows' own. Returns 0,
 * or -1 out of memory. */
int summary_build(const run_rows *rows, const char *baseline, uint64_t seed, run_summary *out);
void summary_free(run_summary *s);

void summary_print(FILE *f, const run_summary *s);
/* OUT.csv -> OUT-summary.csv */
void summary_path(const char *csv, char *out, size_t len);
/* One row per dtype x instance. Returns 0, or -1 with a sentence. */
int summary_write_csv(const char *path, const run_summary *s, spmvlab_err *err);
void summary_write_json(FILE *f, const run_summary *s);

#endif
