/*
 * One result row (matrix × instance × dtype) and the column table that
 * defines the CSV schema: every column's name, type and one-line meaning.
 * The same table writes CSV, parses it back (resume, report, the isolated
 * child's answer) and writes JSON, so the three never disagree.
 */
#ifndef SPMVLAB_HOST_RUN_ROW_H
#define SPMVLAB_HOST_RUN_ROW_H

#include <stdio.h>

#include "spmvlab/core.h"

/* Numbers are doubles; NaN is an empty field (not measured, not
 * applicable). Integers are stored exactly up to 2^53. */
typedef struct run_row {
    /* what was run */
    char matrix[256];        /* matrix label (file name without .mtx[.gz]) */
    char source[1024];       /* the file it was read from */
    double rows, cols, nnz;
    char instance[128];      /* instance label (sweeps: "label[key=value,...]") */
    char plugin[64];
    char options[512];       /* every option of the instance, "key=value ..." */
    char dtype[8];
    char value_storage[8];   /* the format's value type (declare_storage), else dtype */
    char status[16];         /* ok, wrong, unsupported, limit, oom, invalid-option,
                                cuda-error, internal, crash, timeout */
    /* time per SpMV in ms: the primary timing, then both kinds */
    double ms, ms_p10, ms_p90;
    double single_ms, single_p10, single_p90;
    double batch_ms, batch_p10, batch_p90, batch_launches;
    char batch_method[8];    /* graph or stream */
    double reps;             /* rounds measured (samples per kind) */
    double gflops, gbs, peak_frac;
    char baseline[128];
    double speedup, speedup_lo, speedup_hi;
    char outcome[12];        /* win, loss, tie, baseline, or empty */
    double min_bytes, device_bytes, bytes_per_nnz, csr_bytes, rel_csr;
    double convert_ms, convert_spmvs, convert_peak_bytes;
    double tune_ms, tune_spmvs, tune_peak_bytes, tune_best;
    double error_ratio, fits_l2;
    char describe[512];      /* the plugin's describe() facts */
    char message[1024];      /* why a status is not ok; notes */
    /* the run's settings and machine */
    char timing[8];          /* batch, single, or none (no GPU) */
    double flush_l2, warmup;
    char seed[24];
    double noise;
    double peak_gbs, l2_bytes;
    char device[128], cc[8], driver[48], cuda_runtime[16], commit[48], version[16], date[32];
    char command[2048];
    /* which plugin build ran (a --plugin-dir one is told apart from the in-tree one) */
    char plugin_file[1024], plugin_version[32], plugin_hash[20];
    /* how close to the limit (bound.h); empty without a GPU or a time */
    double bound_us;         /* the least time the cell's bytes, gathers and launch allow, us */
    char bound_kind[8];      /* dram, l2, gather or launch: the limit that binds */
    double bound_frac;       /* bound_us / time: 1 at the bound */
    /* --reorder (host/run/run_order.h); empty without it */
    char ordering[16];       /* none, rcm or degree: how the matrix was permuted before the instances */
    double reorder_ms;       /* host time to compute and apply the ordering, ms */
    double bandwidth_before, bandwidth_after;   /* largest |row - column|, file order / ordered */
    double sectors_before, sectors_after;       /* x-gather sectors (bound.h) for this dtype */
    char part[8];            /* the corpus part of the matrix: tune or heldout (spmvlab_split_part) */
    /* the matrix's structure as select compares it (spmvlab/features.h); empty when not computed */
    double row_mean, row_cv, row_max, empty_share, feat_bandwidth, locality, block_fill;

    /* Not in the CSV: the samples behind the medians (ms), one per round. */
    double *single_samples, *batch_samples;
    int nsamples;
    double wall_ms;          /* host time spent on this cell (tune's search time); NaN when unknown */
} run_row;

typedef enum run_col_type {
    RUN_COL_STR = 0,  /* text */
    RUN_COL_NUM = 1,  /* real, written with 6 significant digits */
    RUN_COL_INT = 2   /* whole number, written in full */
} run_col_type;

typedef struct run_column {
    const char *name;   /* CSV header name */
    run_col_type type;
    size_t offset;      /* of the member in run_row */
    size_t size;        /* bytes of a STR member */
    const char *doc;    /* one line: what the number means */
} run_column;

int run_column_count(void);
const run_column *run_column_at(int i);
/* Index of the column called name, or -1. */
int run_column_find(const char *name);

/* A row with every number empty (NaN) and every text "". */
void run_row_init(run_row *r);
/* Frees the samples. */
void run_row_clear(run_row *r);
/* Deep copy (samples included). Returns 0, or -1 out of memory. */
int run_row_copy(run_row *dst, const run_row *src);

/* Field text of column c of r into buf ("" when empty). */
void run_row_field(const run_row *r, int c, char *buf, size_t len);
/* Sets column c from text; "" empties it. Returns 0, or -1 when a number
 * does not parse. */
int run_row_set(run_row *r, int c, const char *text);

/* Writes the header line / one row as CSV (RFC 4180 quoting). */
void run_csv_header(FILE *f);
void run_csv_row(FILE *f, const run_row *r);

/* A growable list of rows. */
typedef struct run_rows {
    run_row *v;
    int n, cap;
} run_rows;

/* Appends a deep copy of r. Returns 0, or -1 out of memory. */
int run_rows_push(run_rows *rows, const run_row *r);
void run_rows_free(run_rows *rows);

/* Reads a results CSV written by run or tune. Columns are matched by name
 * (unknown ones ignored); matrix, instance, dtype and status are required.
 * header_same (may be NULL) is set to 1 when the header equals this
 * version's exactly. Returns 0, or -1 with "FILE:LINE: cause". */
int run_rows_read(const char *path, run_rows *out, int *header_same, spmvlab_err *err);

/* ---- CSV records (shared with the child protocol) --------------------- */

/* Reads one CSV record from f into fields (malloc'd strings, *n of them).
 * Returns 1 for a record, 0 at end of file, -1 for a malformed record
 * (an unterminated quote). Lines counts physical lines read. */
int csv_read_record(FILE *f, char ***fields, int *n, int *lines);
void csv_free_record(char **fields, int n);
/* Writes s as one CSV field. */
void csv_write_field(FILE *f, const char *s);
/* Writes s between two q, each q inside doubled (the rule of CSV and of
 * gnuplot's single quotes). */
void write_quoted(FILE *f, const char *s, char q);

#endif
