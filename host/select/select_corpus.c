/* The selector's corpus: members and instances from the rows of a results
 * CSV, and the members' features, read from a features file or computed
 * from the matrices the rows were measured on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spmvlab/cache.h"
#include "select.h"

static int by_matrix(const void *a, const void *b)
{
    return strcmp(((const select_member *)a)->matrix, ((const select_member *)b)->matrix);
}

static int by_instance(const void *a, const void *b)
{
    return strcmp(((const select_instance *)a)->instance, ((const select_instance *)b)->instance);
}

static int row_counts(const run_row *r, const char *dtype, int only_part)
{
    return strcmp(r->dtype, dtype) == 0 &&
           (only_part < 0 || (int)spmvlab_split_part(r->matrix) == only_part);
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
        c->member[m].speedup = malloc(((size_t)c->instances + 1) * sizeof(double));
        if (!c->member[m].speedup)
            goto oom;
        for (int j = 0; j < c->instances; j++)
            c->member[m].speedup[j] = NAN;
    }
    int measured = 0;
    for (int i = 0; i < rows->n; i++) {
        const run_row *r = &rows->v[i];
        if (!row_counts(r, dtype, only_part) || strcmp(r->status, "ok") != 0 || !(r->speedup > 0))
            continue;
        select_instance key;
        snprintf(key.instance, sizeof key.instance, "%s", r->instance);
        const select_instance *in =
            bsearch(&key, c->instance, (size_t)c->instances, sizeof key, by_instance);
        c->member[find_member(c, r->matrix)].speedup[in - c->instance] = r->speedup;
        if (!c->baseline[0])
            snprintf(c->baseline, sizeof c->baseline, "%s", r->baseline);
        measured++;
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

static int write_features(const select_corpus *c, const char *path, spmvlab_err *err)
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
        spmvlab_features_to_array(&c->member[m].features, v);
        fprintf(f, "%s", c->member[m].matrix);
        for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++)
            fprintf(f, ",%.17g", v[d]);
        fprintf(f, "\n");
    }
    return fclose(f) ? (spmvlab_errf(err, "cannot write the features file %s", path), -1) : 0;
}

/* Loads a member's matrix: its source as written, else beside the results. */
static int load_member(const select_member *m, const char *results_path, spmvlab_csr *A,
                       spmvlab_err *err)
{
    const char *slash = strrchr(results_path, '/');
    char beside[SPMVLAB_PATH_LEN];
    if (m->source[0] != '/' && access(m->source, R_OK) != 0 && slash) {
        int n = snprintf(beside, sizeof beside, "%.*s/%s", (int)(slash - results_path),
                         results_path, m->source);
        if (n > 0 && (size_t)n < sizeof beside)
            return spmvlab_matrix_load(beside, A, err);
    }
    return spmvlab_matrix_load(m->source, A, err);
}

int select_corpus_features(select_corpus *c, const char *results_path, const char *features_csv,
                           spmvlab_err *err)
{
    unsigned char *known = calloc((size_t)c->members + 1, 1);
    if (!known)
        return spmvlab_errf(err, "select: out of host memory"), -1;
    read_features(c, features_csv, known);
    int computed = 0, rc = 0;
    for (int m = 0; m < c->members && rc == 0; m++) {
        if (known[m])
            continue;
        spmvlab_csr A;
        spmvlab_err why;
        if (load_member(&c->member[m], results_path, &A, &why)) {
            spmvlab_errf(err, "corpus matrix %s: %s", c->member[m].matrix, why.msg);
            rc = -1;
        } else {
            rc = spmvlab_features_of(&A, &c->member[m].features, err);
            spmvlab_csr_free(&A);
            computed++;
        }
    }
    free(known);
    c->computed = computed;
    if (rc == 0 && computed > 0 && features_csv)
        rc = write_features(c, features_csv, err);
    if (rc == 0)
        select_corpus_normalise(c);
    return rc;
}

int select_corpus_open(const char *results_path, const char *features_csv, const char *dtype,
                       int only_part, select_corpus *c, spmvlab_err *err)
{
    run_rows rows = {0};
    memset(c, 0, sizeof *c);
    int rc = run_rows_read(results_path, &rows, NULL, err);
    if (rc == 0)
        rc = select_corpus_from_rows(&rows, dtype, only_part, c, err);
    run_rows_free(&rows);
    if (rc == 0 && select_corpus_features(c, results_path, features_csv, err)) {
        select_corpus_free(c);
        rc = -1;
    }
    return rc;
}
