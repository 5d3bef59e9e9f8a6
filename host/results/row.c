/* The result row, its column table and CSV reading and writing; see row.h. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "row.h"

#define S(n, m, d) {n, RUN_COL_STR, offsetof(run_row, m), sizeof(((run_row *)0)->m), d}
#define N(n, m, d) {n, RUN_COL_NUM, offsetof(run_row, m), 0, d}
#define I(n, m, d) {n, RUN_COL_INT, offsetof(run_row, m), 0, d}

static const run_column columns[] = {
    S("matrix", matrix, "matrix label: the file name without .mtx / .mtx.gz"),
    S("source", source, "the matrix file read"),
    I("rows", rows, "rows of the matrix"),
    I("cols", cols, "columns of the matrix"),
    I("nnz", nnz, "stored non-zeros (after symmetric expansion and summing duplicates)"),
    S("instance", instance, "instance label; sweeps append [key=value,...]"),
    S("plugin", plugin, "plugin (format) of the instance"),
    S("options", options, "every option of the instance as key=value"),
    S("dtype", dtype, "value type of the matrix, x and y: f64, f32 or f16"),
    S("value_storage", value_storage, "type the format stores values in; differs from dtype for narrow storage (f32 values in an f64 SpMV), checked against the bound with storage rounding"),
    S("status", status, "ok, wrong, unsupported, limit, oom, invalid-option, cuda-error, internal, crash or timeout"),
    N("ms", ms, "time per SpMV in ms, median over rounds, of the primary timing (column timing)"),
    N("ms_p10", ms_p10, "10th percentile of the primary timing, ms"),
    N("ms_p90", ms_p90, "90th percentile of the primary timing, ms"),
    N("single_ms", single_ms, "single launches: one spmv between its own event pair, host launch cost included; median ms"),
    N("single_p10", single_p10, "single launches: 10th percentile, ms"),
    N("single_p90", single_p90, "single launches: 90th percentile, ms"),
    N("batch_ms", batch_ms, "back-to-back launches: batch_launches spmv calls between one event pair, divided; median ms"),
    N("batch_p10", batch_p10, "back-to-back launches: 10th percentile, ms"),
    N("batch_p90", batch_p90, "back-to-back launches: 90th percentile, ms"),
    I("batch_launches", batch_launches, "spmv calls per back-to-back sample (chosen so a sample lasts about 1 ms)"),
    S("batch_method", batch_method, "graph: the calls were captured once as a CUDA graph and replayed; stream: issued one by one"),
    I("reps", reps, "rounds measured; each round gives one single and one back-to-back sample"),
    N("gflops", gflops, "2 x nnz / ms, GFLOP/s"),
    N("gbs", gbs, "min_bytes / ms, effective GB/s (1e9 bytes/s)"),
    N("peak_frac", peak_frac, "gbs / peak_gbs: effective bandwidth by CSR bytes over the triad rate; ignores the format's own bytes and exceeds 1 when data sit in L2 (bound_frac says how close to the limit)"),
    S("baseline", baseline, "instance the speedup is relative to"),
    N("speedup", speedup, "median baseline time / median time (> 1: faster than the baseline)"),
    N("speedup_lo", speedup_lo, "lower bound of the 95% bootstrap interval of speedup (rounds resampled)"),
    N("speedup_hi", speedup_hi, "upper bound of the 95% bootstrap interval of speedup"),
    S("outcome", outcome, "win (interval above 1), loss (below 1), tie (contains 1) or baseline"),
    I("min_bytes", min_bytes, "least bytes an SpMV must move: values, column indices, row pointers, x once, y once"),
    I("device_bytes", device_bytes, "device bytes the format keeps (footprint)"),
    N("bytes_per_nnz", bytes_per_nnz, "device_bytes / nnz"),
    I("csr_bytes", csr_bytes, "bytes of plain CSR: (rows + 1) x 4 + nnz x (4 + value size)"),
    N("rel_csr", rel_csr, "device_bytes / csr_bytes"),
    N("convert_ms", convert_ms, "wall time of convert, device synchronised, ms"),
    N("convert_spmvs", convert_spmvs, "convert_ms / ms: conversion cost in SpMVs"),
    I("convert_peak_bytes", convert_peak_bytes, "peak device bytes the instance held (tracked allocator), conversion included"),
    N("tune_ms", tune_ms, "tune: wall time of the whole search on this matrix (every combination converted, checked, timed)"),
    N("tune_spmvs", tune_spmvs, "tune: tune_ms in SpMVs of the best combination"),
    I("tune_peak_bytes", tune_peak_bytes, "tune: the largest peak device bytes of one combination (what a one-at-a-time search needs)"),
    I("tune_best", tune_best, "tune: 1 on the fastest combination of the matrix, else 0"),
    N("error_ratio", error_ratio, "largest |y - ref| / bound over rows (<= 1 passes; docs/design.md §5)"),
    I("fits_l2", fits_l2, "1 when min_bytes fits in the device L2 cache: times then reflect cache, not memory, speed"),
    S("describe", describe, "the plugin's own facts about the converted format"),
    S("message", message, "why the status is not ok, or notes"),
    S("timing", timing, "primary timing: batch (back-to-back) or single; none without a GPU"),
    I("flush_l2", flush_l2, "1 when L2 was flushed before every sample"),
    I("warmup", warmup, "untimed launches per instance before measuring"),
    S("seed", seed, "seed of the random x"),
    N("noise", noise, "outcome threshold: a win or loss also needs the speedup beyond 1 +- noise"),
    N("peak_gbs", peak_gbs, "device bandwidth measured by the triad at the start of the run, GB/s"),
    I("l2_bytes", l2_bytes, "L2 cache size of the device, bytes"),
    S("device", device, "device name, or cpu"),
    S("cc", cc, "compute capability"),
    S("driver", driver, "NVIDIA driver version and the CUDA version it supports"),
    S("cuda_runtime", cuda_runtime, "CUDA runtime version spmvlab was built with"),
    S("commit", commit, "the commit this spmvlab was built from (-dirty: with local changes); $SPMVLAB_COMMIT overrides"),
    S("version", version, "spmvlab version"),
    S("date", date, "start of the run, UTC"),
    S("command", command, "the command line"),
    S("plugin_file", plugin_file, "the plugin's shared object that ran"),
    S("plugin_version", plugin_version, "the plugin's own version (its descriptor's version field)"),
    S("plugin_hash", plugin_hash, "FNV-1a 64 of the plugin's shared object, 16 hex digits: tells two builds apart"),
    N("bound_us", bound_us, "least time per SpMV the device ceilings allow: the largest of the format's bytes plus x and y over the DRAM (or L2) rate, the x-gather sectors over the gather rate, and the launch floor, us; empty without a GPU"),
    S("bound_kind", bound_kind, "the limit that binds: dram, l2 (every byte fits in L2), gather or launch; empty without a GPU"),
    N("bound_frac", bound_frac, "bound_us / time of the primary timing: 1 at the bound, lower is further from it; empty without a GPU"),
    S("ordering", ordering, "--reorder: none, rcm or degree, the permutation applied to the matrix before every instance (rows of NAME@ORDER); rcm+call, degree+call: the same matrix, x and y permuted inside every call (NAME@ORDER+call); empty without --reorder"),
    N("reorder_ms", reorder_ms, "--reorder: host time to compute the ordering and permute the matrix, ms (0 for none)"),
    I("bandwidth_before", bandwidth_before, "--reorder: largest |row - column| of the matrix in the file's order"),
    I("bandwidth_after", bandwidth_after, "--reorder: largest |row - column| after the ordering"),
    I("sectors_before", sectors_before, "--reorder: x-gather sectors of the file's order for this dtype (32-byte sectors per 32-row group, as in bound_us)"),
    I("sectors_after", sectors_after, "--reorder: x-gather sectors after the ordering for this dtype"),
    S("part", part, "the part of the corpus split the matrix label falls in: tune or heldout (docs/corpus.md); no rule is fitted on heldout"),
    N("row_mean", row_mean, "structure (as select compares it): entries per row"),
    N("row_cv", row_cv, "structure: standard deviation / mean of the row lengths (0 when empty)"),
    I("row_max", row_max, "structure: entries of the longest row"),
    N("empty_share", empty_share, "structure: share of rows without entries, 0 to 1"),
    N("bandwidth", feat_bandwidth, "structure: mean distance of an entry from the diagonal (row x cols / rows), / cols, 0 to 1 (bandwidth_before is the largest one, unscaled)"),
    N("locality", locality, "structure: share of entries within 8 columns past the previous entry of their row, of those with one"),
    N("block_fill", block_fill, "structure: entries / (16 x non-empty aligned 4 x 4 blocks), 0 to 1"),
};

int run_column_count(void) { return (int)(sizeof columns / sizeof *columns); }
const run_column *run_column_at(int i) { return i >= 0 && i < run_column_count() ? &columns[i] : NULL; }

int run_column_find(const char *name)
{
    for (int i = 0; i < run_column_count(); i++)
        if (strcmp(columns[i].name, name) == 0)
            return i;
    return -1;
}

static double *num_at(run_row *r, int c) { return (double *)((char *)r + columns[c].offset); }
static const double *num_at_c(const run_row *r, int c) { return (const double *)((const char *)r + columns[c].offset); }

void run_row_init(run_row *r)
{
    memset(r, 0, sizeof *r);
    for (int c = 0; c < run_column_count(); c++)
        if (columns[c].type != RUN_COL_STR)
            *num_at(r, c) = NAN;
    r->wall_ms = NAN;
}

void run_row_clear(run_row *r)
{
    free(r->single_samples);
    free(r->batch_samples);
    r->single_samples = r->batch_samples = NULL;
    r->nsamples = 0;
}

static double *dup_samples(const double *s, int n)
{
    if (!s || n <= 0)
        return NULL;
    double *d = malloc((size_t)n * sizeof *d);
    if (d)
        memcpy(d, s, (size_t)n * sizeof *d);
    return d;
}

int run_row_copy(run_row *dst, const run_row *src)
{
    *dst = *src;
    dst->single_samples = dup_samples(src->single_samples, src->nsamples);
    dst->batch_samples = dup_samples(src->batch_samples, src->nsamples);
    if (src->nsamples > 0 && ((src->single_samples && !dst->single_samples) ||
                              (src->batch_samples && !dst->batch_samples))) {
        run_row_clear(dst);
        return -1;
    }
    return 0;
}

void run_row_field(const run_row *r, int c, char *buf, size_t len)
{
    const run_column *col = &columns[c];
    if (col->type == RUN_COL_STR) {
        snprintf(buf, len, "%s", (const char *)r + col->offset);
        return;
    }
    double v = *num_at_c(r, c);
    if (isnan(v))
        buf[0] = '\0';
    else if (isinf(v))
        snprintf(buf, len, "%s", v > 0 ? "inf" : "-inf");
    else if (col->type == RUN_COL_INT)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.6g", v);
}

int run_row_set(run_row *r, int c, const char *text)
{
    const run_column *col = &columns[c];
    if (col->type == RUN_COL_STR) {
        snprintf((char *)r + col->offset, col->size, "%s", text);
        return 0;
    }
    double *v = num_at(r, c);
    if (!text[0]) {
        *v = NAN;
        return 0;
    }
    char *end;
    errno = 0;
    double d = strtod(text, &end);
    while (*end == ' ')
        end++;
    if (end == text || *end || errno == ERANGE)
        return -1;
    *v = d;
    return 0;
}

void write_quoted(FILE *f, const char *s, char q)
{
    fputc(q, f);
    for (; *s; s++) {
        if (*s == q)
            fputc(q, f);
        fputc(*s, f);
    }
    fputc(q, f);
}

/* ---- CSV ---------------------------------------------------------------- */

void csv_write_field(FILE *f, const char *s)
{
    int quote = s[0] == ' ' || (s[0] && s[strlen(s) - 1] == ' ') || strpbrk(s, ",\"\r\n") != NULL;
    if (!quote) {
        fputs(s, f);
        return;
    }
    write_quoted(f, s, '"');
}

void run_csv_header(FILE *f)
{
    for (int c = 0; c < run_column_count(); c++) {
        if (c)
            fputc(',', f);
        fputs(columns[c].name, f);
    }
    fputc('\n', f);
}

void run_csv_row(FILE *f, const run_row *r)
{
    char buf[4096];
    for (int c = 0; c < run_column_count(); c++) {
        if (c)
            fputc(',', f);
        run_row_field(r, c, buf, sizeof buf);
        csv_write_field(f, buf);
    }
    fputc('\n', f);
}

typedef struct text_buf {
    char *s;
    size_t n, cap;
} text_buf;

static int tb_put(text_buf *b, char ch)
{
    if (b->n + 2 > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        char *g = realloc(b->s, cap);
        if (!g)
            return -1;
        b->s = g;
        b->cap = cap;
    }
    b->s[b->n++] = ch;
    b->s[b->n] = '\0';
    return 0;
}

static int push_field(char ***fields, int *n, text_buf *b)
{
    char **g = realloc(*fields, (size_t)(*n + 1) * sizeof *g);
    if (!g)
        return -1;
    *fields = g;
    g[*n] = b->s ? b->s : strdup("");
    if (!g[*n])
        return -1;
    (*n)++;
    b->s = NULL;
    b->n = b->cap = 0;
    return 0;
}

int csv_read_record(FILE *f, char ***fields, int *n, int *lines)
{
    *fields = NULL;
    *n = 0;
    text_buf b = {0};
    int ch = fgetc(f), in_quotes = 0, any = 0;
    if (ch == EOF)
        return 0;
    for (;; ch = fgetc(f)) {
        if (ch == EOF) {
            if (in_quotes)
                goto bad;
            break;
        }
        any = 1;
        if (in_quotes) {
            if (ch == '"') {
                int next = fgetc(f);
                if (next == '"') {
                    if (tb_put(&b, '"'))
                        goto bad;
                    continue;
                }
                in_quotes = 0;
                ungetc(next, f);
                continue;
            }
            if (ch == '\n')
                (*lines)++;
            if (tb_put(&b, (char)ch))
                goto bad;
            continue;
        }
        if (ch == '"') {
            in_quotes = 1;
            continue;
        }
        if (ch == ',') {
            if (push_field(fields, n, &b))
                goto bad;
            continue;
        }
        if (ch == '\r')
            continue;
        if (ch == '\n') {
            (*lines)++;
            break;
        }
        if (tb_put(&b, (char)ch))
            goto bad;
    }
    if (!any && ch == EOF)
        return 0;
    if (push_field(fields, n, &b))
        goto bad;
    return 1;
bad:
    free(b.s);
    csv_free_record(*fields, *n);
    *fields = NULL;
    *n = 0;
    return -1;
}

void csv_free_record(char **fields, int n)
{
    for (int i = 0; i < n; i++)
        free(fields[i]);
    free(fields);
}

int run_rows_push(run_rows *rows, const run_row *r)
{
    if (rows->n == rows->cap) {
        int cap = rows->cap ? 2 * rows->cap : 64;
        run_row *g = realloc(rows->v, (size_t)cap * sizeof *g);
        if (!g)
            return -1;
        rows->v = g;
        rows->cap = cap;
    }
    if (run_row_copy(&rows->v[rows->n], r))
        return -1;
    rows->n++;
    return 0;
}

void run_rows_free(run_rows *rows)
{
    for (int i = 0; i < rows->n; i++)
        run_row_clear(&rows->v[i]);
    free(rows->v);
    memset(rows, 0, sizeof *rows);
}

int run_rows_read(const char *path, run_rows *out, int *header_same, spmvlab_err *err)
{
    memset(out, 0, sizeof *out);
    if (header_same)
        *header_same = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return spmvlab_errf(err, "cannot open %s: %s", path, strerror(errno)), -1;
    char **h = NULL, **v = NULL;
    int nh = 0, nv = 0, lines = 0, rc = -1;
    int *map = NULL;
    int got = csv_read_record(f, &h, &nh, &lines);
    if (got <= 0) {
        spmvlab_errf(err, "%s:1: %s", path, got == 0 ? "the file is empty: no CSV header" : "malformed CSV header");
        goto out;
    }
    map = malloc((size_t)nh * sizeof *map);
    if (!map) {
        spmvlab_errf(err, "out of host memory");
        goto out;
    }
    int same = nh == run_column_count();
    for (int i = 0; i < nh; i++) {
        map[i] = run_column_find(h[i]);
        if (map[i] != i)
            same = 0;
    }
    static const char *required[] = {"matrix", "instance", "dtype", "status"};
    for (size_t k = 0; k < sizeof required / sizeof *required; k++) {
        int found = 0;
        for (int i = 0; i < nh; i++)
            found |= strcmp(h[i], required[k]) == 0;
        if (!found) {
            spmvlab_errf(err, "%s:1: the header has no column '%s': not a spmvlab results file", path,
                         required[k]);
            goto out;
        }
    }
    if (header_same)
        *header_same = same;
    for (;;) {
        int line = lines + 1;
        got = csv_read_record(f, &v, &nv, &lines);
        if (got == 0)
            break;
        if (got < 0) {
            spmvlab_errf(err, "%s:%d: malformed CSV record (a quote is not closed)", path, line);
            goto out;
        }
        if (nv == 1 && !v[0][0]) { /* blank line */
            csv_free_record(v, nv);
            v = NULL;
            continue;
        }
        if (nv != nh) {
            spmvlab_errf(err, "%s:%d: %d fields where the header has %d", path, line, nv, nh);
            goto out;
        }
        run_row r;
        run_row_init(&r);
        for (int i = 0; i < nv; i++)
            if (map[i] >= 0 && run_row_set(&r, map[i], v[i])) {
                spmvlab_errf(err, "%s:%d: column %s holds '%s', not a number", path, line, h[i], v[i]);
                goto out;
            }
        if (run_rows_push(out, &r)) {
            spmvlab_errf(err, "out of host memory");
            goto out;
        }
        csv_free_record(v, nv);
        v = NULL;
    }
    rc = 0;
out:
    csv_free_record(h, nh);
    csv_free_record(v, nv);
    free(map);
    fclose(f);
    if (rc)
        run_rows_free(out);
    return rc;
}
