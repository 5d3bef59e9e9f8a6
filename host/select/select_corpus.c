/* The selector's corpus: members and instances from the rows of a results
 * CSV, and the members' features, read from a features file or computed
 * from the matrices the rows were measured on. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "origin.h"
#include "status.h"
#include "select.h"
#include "spmvlab/cache.h"

static int by_matrix(const void *a, const void *b)
{
    return strcmp(((const select_member *)a)->matrix, ((const select_member *)b)->matrix);
}

static int by_instance(const void *a, const void *b)
{
    return strcmp(((const select_instance *)a)->instance, ((const select_instance *)b)->instance);
}

/* The part of a row's matrix: its part column when it has one, else the
 * split of its label. */
static int part_of_row(const run_row *r)
{
    spmvlab_part part;
    spmvlab_err err;
    if (r->part[0] && spmvlab_part_parse(r->part, &part, &err) == 0)
        return (int)part;
    return (int)spmvlab_split_part(r->matrix);
}

/* A row is evidence when it is of the dtype and part, measured an
 * instance (not an input no instance ran on) and is not a selector's own
 * (whose options change from matrix to matrix). */
static int row_counts(const run_row *r, const char *dtype, int only_part)
{
    run_class k = run_status_class(r->status);
    return strcmp(r->dtype, dtype) == 0 && r->instance[0] && k != RUN_CLASS_SKIPPED &&
           k != RUN_CLASS_UNREADABLE && strncmp(r->message, ORIGIN_SELECTED, strlen(ORIGIN_SELECTED)) != 0 &&
           (only_part < 0 || part_of_row(r) == only_part);
}

static select_state state_of(const run_row *r)
{
    switch (run_status_class(r->status)) {
    case RUN_CLASS_OK: return r->speedup > 0 ? SELECT_OK : SELECT_NOT_RUN;
    case RUN_CLASS_REFUSED: return SELECT_REFUSED;
    default: return SELECT_FAILED;
    }
}

/* Distinct members and instances of the rows that count, sorted. */
static int collect_names(const run_rows *rows, const char *dtype, int only_part, select_corpus *c)
{
    c->member = calloc((size_t)rows->n + 1, sizeof *c->member);
    c->instance = calloc((size_t)rows->n + 1, sizeof *c->instance);
    if (!c->member || !c->instance)
        return -1;
    for (int i = 0; i < rows->n; i++) {
        const run_row *r = &rows->v[i];
        if (!row_counts(r, dtype, only_part))
            continue;
        int m = 0, j = 0;
        while (m < c->members && strcmp(c->member[m].matrix, r->matrix) != 0)
            m++;
        if (m == c->members) {
            snprintf(c->member[m].matrix, sizeof c->member[m].matrix, "%s", r->matrix);
            snprintf(c->member[m].source, sizeof c->member[m].source, "%s", r->source);
            select_family_of(r->matrix, c->member[m].family, sizeof c->member[m].family);
            c->member[m].part = part_of_row(r);
            c->members++;
        }
        while (j < c->instances && strcmp(c->instance[j].instance, r->instance) != 0)
            j++;
        if (j == c->instances) {
            select_instance *in = &c->instance[j];
            snprintf(in->instance, sizeof in->instance, "%s", r->instance);
            snprintf(in->plugin, sizeof in->plugin, "%s", r->plugin);
            snprintf(in->options, sizeof in->options, "%s", r->options);
            c->instances++;
        }
    }
    qsort(c->member, (size_t)c->members, sizeof *c->member, by_matrix);
    qsort(c->instance, (size_t)c->instances, sizeof *c->instance, by_instance);
    return 0;
}

static int find_member(const select_corpus *c, const char *matrix)
{
    select_member key;
    snprintf(key.matrix, sizeof key.matrix, "%s", matrix);
    const select_member *m = bsearch(&key, c->member, (size_t)c->members, sizeof key, by_matrix);
    return m ? (int)(m - c->member) : -1;
}

int select_corpus_from_rows(const run_rows *rows, const char *dtype, int only_part,
                            select_corpus *c, spmvlab_err *err)
{
    memset(c, 0, sizeof *c);
    snprintf(c->dtype, sizeof c->dtype, "%s", dtype);
    if (collect_names(rows, dtype, only_part, c))
        goto oom;
    for (int m = 0; m < c->members; m++) {
        select_member *mb = &c->member[m];
        mb->speedup = malloc(((size_t)c->instances + 1) * sizeof(double));
        mb->ms = malloc(((size_t)c->instances + 1) * sizeof(double));
        mb->state = calloc((size_t)c->instances + 1, 1);
        if (!mb->speedup || !mb->ms || !mb->state)
            goto oom;
        for (int j = 0; j < c->instances; j++)
            mb->speedup[j] = mb->ms[j] = NAN;
    }
    int measured = 0;
    for (int i = 0; i < rows->n; i++) { /* a later row of a cell replaces an earlier one */
        const run_row *r = &rows->v[i];
        if (!row_counts(r, dtype, only_part))
            continue;
        select_instance key;
        snprintf(key.instance, sizeof key.instance, "%s", r->instance);
        const select_instance *in =
            bsearch(&key, c->instance, (size_t)c->instances, sizeof key, by_instance);
        select_member *mb = &c->member[find_member(c, r->matrix)];
        int j = (int)(in - c->instance);
        mb->state[j] = (unsigned char)state_of(r);
        mb->speedup[j] = mb->state[j] == SELECT_OK ? r->speedup : NAN;
        mb->ms[j] = mb->state[j] == SELECT_OK && r->ms > 0 ? r->ms : NAN;
        if (!c->baseline[0] && r->baseline[0])
            snprintf(c->baseline, sizeof c->baseline, "%s", r->baseline);
    }
    for (int m = 0; m < c->members; m++) {
        select_member *mb = &c->member[m];
        mb->best = NAN;
        for (int j = 0; j < c->instances; j++)
            if (mb->state[j] == SELECT_OK && !(mb->speedup[j] <= mb->best)) {
                mb->best = mb->speedup[j];
                measured++;
            }
    }
    if (measured == 0) {
        select_corpus_free(c);
        return spmvlab_errf(err, "no ok row of dtype %s%s has a speedup over a baseline", dtype,
                            only_part < 0 ? "" : " in the chosen part"), -1;
    }
    return 0;
oom:
    select_corpus_free(c);
    return spmvlab_errf(err, "select: out of host memory for %d result rows", rows->n), -1;
}

/* Reads "matrix,f0,...,f9" lines into the members they name. */
static void read_features(select_corpus *c, const char *path, unsigned char *known)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    char line[2048];
    while (f && fgets(line, sizeof line, f)) {
        char *save = NULL, *name = strtok_r(line, ",\n", &save);
        double v[SPMVLAB_FEATURE_COUNT];
        int d = 0;
        for (char *t; d < SPMVLAB_FEATURE_COUNT && (t = strtok_r(NULL, ",\n", &save)); d++)
            v[d] = strtod(t, NULL);
        int m = name && d == SPMVLAB_FEATURE_COUNT ? find_member(c, name) : -1;
        if (m >= 0) {
            spmvlab_features_from_array(v, &c->member[m].features);
            known[m] = 1;
        }
    }
    if (f)
        fclose(f);
}

static int write_features(const select_corpus *c, const char *path, const unsigned char *known, spmvlab_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return spmvlab_errf(err, "cannot write the features file %s", path), -1;
    fprintf(f, "matrix");
    for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++)
        fprintf(f, ",%s", spmvlab_feature_name(d));
    fprintf(f, "\n");
    for (int m = 0; m < c->members; m++) {
        double v[SPMVLAB_FEATURE_COUNT];
        if (!known[m])
            continue;
        spmvlab_features_to_array(&c->member[m].features, v);
        fprintf(f, "%s", c->member[m].matrix);
        for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++)
            fprintf(f, ",%.17g", v[d]);
        fprintf(f, "\n");
    }
    return fclose(f) ? (spmvlab_errf(err, "cannot write the features file %s", path), -1) : 0;
}

/* Loads a member's matrix: its source as written, else in the cache folder
 * (a generated member's source is its recipe there, gen/HASH/NAME.gen),
 * else beside the results. */
static int load_member(const select_member *m, const char *results_path, spmvlab_csr *A,
                       spmvlab_err *err)
{
    const char *slash = strrchr(results_path, '/');
    char beside[SPMVLAB_PATH_LEN], dir[SPMVLAB_PATH_LEN];
    spmvlab_err why;
    if (m->source[0] == '/' || access(m->source, R_OK) == 0)
        return spmvlab_matrix_load(m->source, A, err);
    int n = spmvlab_cache_dir(dir, sizeof dir, 0, &why) == 0
                ? snprintf(beside, sizeof beside, "%s/%s", dir, m->source) : -1;
    if (n > 0 && (size_t)n < sizeof beside && access(beside, R_OK) == 0)
        return spmvlab_matrix_load(beside, A, err);
    n = slash ? snprintf(beside, sizeof beside, "%.*s/%s", (int)(slash - results_path), results_path, m->source) : -1;
    if (n > 0 && (size_t)n < sizeof beside && access(beside, R_OK) == 0)
        return spmvlab_matrix_load(beside, A, err);
    return spmvlab_matrix_load(m->source, A, err);
}

/* Drops the members not marked in keep, keeping the order; frees their tables. */
static void drop_members(select_corpus *c, const unsigned char *keep)
{
    int n = 0;
    for (int m = 0; m < c->members; m++) {
        if (keep[m]) {
            c->member[n++] = c->member[m];
            continue;
        }
        free(c->member[m].speedup);
        free(c->member[m].ms);
        free(c->member[m].state);
    }
    c->left_out += c->members - n;
    c->members = n;
}

int select_corpus_features(select_corpus *c, const char *results_path, const char *features_csv,
                           spmvlab_err *err)
{
    unsigned char *known = calloc((size_t)c->members + 1, 1);
    if (!known)
        return spmvlab_errf(err, "select: out of host memory"), -1;
    read_features(c, features_csv, known);
    int computed = 0, rc = 0, missing = 0;
    char first[400] = "";
    for (int m = 0; m < c->members && rc == 0; m++) {
        if (known[m])
            continue;
        spmvlab_csr A;
        spmvlab_err why;
        if (load_member(&c->member[m], results_path, &A, &why)) {
            /* one member that cannot be read (complex, missing) is no reason to stop */
            if (!missing++)
                snprintf(first, sizeof first, "%.120s: %.270s", c->member[m].matrix, why.msg);
            continue;
        }
        rc = spmvlab_features_of(&A, &c->member[m].features, err);
        spmvlab_csr_free(&A);
        known[m] = rc == 0;
        computed++;
    }
    if (rc == 0 && computed > 0 && features_csv)
        rc = write_features(c, features_csv, known, err);
    if (rc == 0 && missing) {
        drop_members(c, known);
        snprintf(c->left_out_note, sizeof c->left_out_note,
                 "%d corpus member%s left out, no matrix to compute features from (%s%s)", missing,
                 missing == 1 ? "" : "s", first, missing > 1 ? ", ..." : "");
    }
    if (rc == 0 && c->members == 0) {
        spmvlab_errf(err, "no corpus member has features: %s", c->left_out_note);
        rc = -1;
    }
    free(known);
    c->computed = computed;
    if (rc == 0)
        select_corpus_normalise(c);
    return rc;
}

int select_corpus_families(select_corpus *c, const char *set_name, spmvlab_err *err)
{
    spmvlab_set set;
    spmvlab_err why;
    if (spmvlab_set_load(set_name, &set, &why))
        return spmvlab_errf(err, "matrix set %s: %s", set_name, why.msg), -1;
    for (int e = 0; e < set.count; e++) {
        int m = set.entries[e].family[0] ? find_member(c, set.entries[e].name) : -1;
        if (m >= 0)
            snprintf(c->member[m].family, sizeof c->member[m].family, "%s", set.entries[e].family);
    }
    spmvlab_set_free(&set);
    return 0;
}

int select_features_cache_path(const char *results_path, char *out, size_t len)
{
    char dir[SPMVLAB_PATH_LEN], abs[SPMVLAB_PATH_LEN];
    spmvlab_err err;
    const char *off = getenv("SPMVLAB_NO_CACHE"); /* the cache turned off: nothing kept */
    if ((off && *off && strcmp(off, "0") != 0) || spmvlab_cache_dir(dir, sizeof dir, 1, &err))
        return -1;
    const char *key = realpath(results_path, abs) ? abs : results_path;
    int n = snprintf(out, len, "%s/select-%016llx.feat", dir,
                     (unsigned long long)spmvlab_hash64(key, strlen(key), 0));
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int select_corpus_open(const char *results_path, const char *features_csv, const char *dtype,
                       int only_part, select_corpus *c, spmvlab_err *err)
{
    return select_corpus_open_many(&results_path, 1, features_csv, dtype, only_part, c, err);
}

/* The rows of every file, in order, into all. Returns 0, or -1 with a sentence. */
static int read_all(const char *const *paths, int n, run_rows *all, spmvlab_err *err)
{
    memset(all, 0, sizeof *all);
    for (int f = 0; f < n; f++) {
        run_rows rows = {0};
        if (run_rows_read(paths[f], &rows, NULL, err))
            return -1;
        for (int i = 0; i < rows.n; i++)
            if (run_rows_push(all, &rows.v[i])) { /* a copy */
                run_rows_free(&rows);
                return spmvlab_errf(err, "select: out of host memory for the rows of %s", paths[f]), -1;
            }
        run_rows_free(&rows);
    }
    return 0;
}

int select_corpus_open_many(const char *const *results_paths, int nfiles, const char *features_csv, const char *dtype,
                            int only_part, select_corpus *c, spmvlab_err *err)
{
    run_rows rows = {0};
    char cached[SPMVLAB_PATH_LEN];
    const char *results_path = results_paths[0];
    memset(c, 0, sizeof *c);
    int rc = read_all(results_paths, nfiles, &rows, err);
    if (rc == 0)
        rc = select_corpus_from_rows(&rows, dtype, only_part, c, err);
    int inputs = 0;
    for (int i = 0; rc == 0 && i < rows.n; i++) {
        run_class k = run_status_class(rows.v[i].status);
        inputs += (k == RUN_CLASS_SKIPPED || k == RUN_CLASS_UNREADABLE) && strcmp(rows.v[i].dtype, dtype) == 0 &&
                  find_member(c, rows.v[i].matrix) < 0;
    }
    run_rows_free(&rows);
    if (rc == 0 && !features_csv && select_features_cache_path(results_path, cached, sizeof cached) == 0)
        features_csv = cached;
    if (rc == 0 && select_corpus_features(c, results_path, features_csv, err)) {
        select_corpus_free(c);
        rc = -1;
    }
    if (rc == 0 && inputs) { /* the rows of inputs no instance ran on: one note for them too */
        size_t n = strlen(c->left_out_note);
        snprintf(c->left_out_note + n, sizeof c->left_out_note - n, "%s%d input row%s no instance ran on (skipped or "
                 "unreadable) left out", n ? "; " : "", inputs, inputs == 1 ? "" : "s");
        c->left_out += inputs;
    }
    return rc;
}
