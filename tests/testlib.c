/* Test helpers; see testlib.h. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/gen.h"
#include "testlib.h"

int test_failures;

void test_contains(const char *file, int line, const char *haystack, const char *needle)
{
    if (!haystack || !strstr(haystack, needle)) {
        fprintf(stderr, "%s:%d: expected \"%s\" in \"%s\"\n", file, line, needle, haystack ? haystack : "(null)");
        test_failures++;
    }
}

int test_done(const char *name)
{
    if (test_failures)
        fprintf(stderr, "%s: %d checks failed\n", name, test_failures);
    else
        printf("%s: all checks passed\n", name);
    return test_failures ? 1 : 0;
}

void test_for_each_file(const char *sub, void (*fn)(const char *path))
{
    const char *tests = getenv("SPMVLAB_TESTS_DIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", tests ? tests : "tests", sub);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        fn(path);
        files++;
    }
    closedir(d);
    printf("read %d files of %s\n", files, sub);
}

int test_load_csr(const char *file, spmvlab_csr *A)
{
    const char *dir = getenv("SPMVLAB_DATA_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "data", file ? file : "bcspwr10.mtx.gz");
    spmvlab_err err;
    if (spmvlab_mtx_read(path, A, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int test_gen_rows(spmvlab_csr *A, int32_t rows, int32_t cols, const int32_t *lengths, uint64_t seed)
{
    size_t n = 0;
    for (int32_t i = 0; i < rows; i++)
        n += (size_t)(lengths[i] < cols ? lengths[i] : cols);
    int32_t *ri = malloc((n ? n : 1) * sizeof *ri), *ci = malloc((n ? n : 1) * sizeof *ci);
    double *v = malloc((n ? n : 1) * sizeof *v);
    uint64_t s = seed;
    size_t k = 0;
    for (int32_t i = 0; i < rows; i++) {
        int32_t len = lengths[i] < cols ? lengths[i] : cols;
        if (len == 0)
            continue;
        int32_t stride = cols / len, start = (int32_t)(mix(&s) % (uint64_t)stride);
        for (int32_t j = 0; j < len; j++, k++) {
            ri[k] = i;
            ci[k] = start + j * stride;
            double m = 0.25 + 0.75 * (double)(mix(&s) >> 11) * 0x1.0p-53;
            v[k] = (mix(&s) & 1) ? -m : m;
        }
    }
    spmvlab_err err;
    int rc = spmvlab_csr_build(A, rows, cols, n, ri, ci, v, &err);
    free(ri);
    free(ci);
    free(v);
    return rc;
}

int test_gen_uniform(spmvlab_csr *A, int32_t rows, int32_t cols, int32_t len, uint64_t seed)
{
    int32_t *lengths = malloc(((size_t)rows + 1) * sizeof *lengths);
    for (int32_t i = 0; i < rows; i++)
        lengths[i] = len;
    int rc = test_gen_rows(A, rows, cols, lengths, seed);
    free(lengths);
    return rc;
}

spmvlab_csr test_uniform(int32_t rows, int32_t cols, int32_t len, uint64_t seed)
{
    spmvlab_csr A;
    memset(&A, 0, sizeof A);
    TEST_CHECK(test_gen_uniform(&A, rows, cols, len, seed) == 0);
    return A;
}

void test_need_rows(spmvlab_csr *A, int32_t rows, int32_t cols, const int32_t *lengths, uint64_t seed)
{
    if (test_gen_rows(A, rows, cols, lengths, seed) != 0) {
        fprintf(stderr, "cannot build the test matrix\n");
        exit(1);
    }
}

spmvlab_status test_convert(const char *plugin_name, const spmvlab_csr *A, spmvlab_dtype dtype,
                            const char *const *sets, test_instance **out, spmvlab_err *err)
{
    test_instance *t = calloc(1, sizeof *t);
    *out = t;
    t->reg = spmvlab_registry_new();
    spmvlab_runtime_open(&t->rt, 0, 0, err);
    const spmvlab_loaded *pl = spmvlab_registry_get(t->reg, plugin_name, err);
    if (!pl)
        return SPMVLAB_INTERNAL;
    if (spmvlab_optset_init(&t->opts, pl->desc, err))
        return SPMVLAB_INVALID_OPTION;
    for (int i = 0; sets && sets[i]; i++) {
        char kv[256];
        snprintf(kv, sizeof kv, "%s", sets[i]);
        char *eq = strchr(kv, '=');
        if (!eq)
            return spmvlab_errf(err, "bad set '%s'", sets[i]), SPMVLAB_INVALID_OPTION;
        *eq = '\0';
        if (spmvlab_optset_set(&t->opts, pl->desc->name, kv, eq + 1, err))
            return SPMVLAB_INVALID_OPTION;
    }
    if (pl->desc->check_options) {
        spmvlab_status st = pl->desc->check_options(&t->opts.opts, err);
        if (st != SPMVLAB_OK)
            return st;
    }
    if (spmvlab_prepare(&t->rt, A, "test", dtype, &t->pm, err))
        return SPMVLAB_NOMEM;
    spmvlab_status st = spmvlab_instance_convert(&t->in, &t->rt, pl, pl->desc->name, &t->opts, &t->pm, err);
    t->converted = st == SPMVLAB_OK;
    return st;
}

double test_verify_host(test_instance *t, uint64_t seed)
{
    if (!t->converted)
        return INFINITY;
    spmvlab_trial trial;
    spmvlab_trial_check c;
    spmvlab_err err = {{0}};
    double ratio = INFINITY;
    if (spmvlab_trial_open_prepared(&trial, &t->rt, &t->pm, seed, &err) != SPMVLAB_RESULT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return ratio;
    }
    spmvlab_result o = spmvlab_trial_verify(&trial, &t->in, NULL, SPMVLAB_TRIAL_HOST, &c, &err);
    if (o == SPMVLAB_RESULT_OK)
        ratio = c.verdict.max_ratio;
    else if (c.call_failed)
        fprintf(stderr, "spmv_host failed: %s\n", err.msg);
    spmvlab_trial_close(&trial);
    return ratio;
}

const char *test_describe(test_instance *t)
{
    static char buf[512];
    spmvlab_instance_describe(&t->in, buf, sizeof buf);
    return buf;
}

void test_instance_free(test_instance *t)
{
    if (!t)
        return;
    if (t->converted)
        spmvlab_instance_destroy(&t->in);
    spmvlab_prepared_free(&t->pm);
    spmvlab_optset_free(&t->opts);
    spmvlab_runtime_close(&t->rt);
    spmvlab_registry_free(t->reg);
    free(t);
}

/* Generates kind with "k=v ..." into A; checks it is a valid CSR. */
int test_gen(const char *kind, const char *params, spmvlab_csr *A)
{
    spmvlab_gen_params p;
    spmvlab_err err;
    memset(&p, 0, sizeof p);
    if (spmvlab_gen_params_parse(&p, params, &err) || spmvlab_gen(kind, &p, A, &err)) {
        fprintf(stderr, "%s %s: %s\n", kind, params, err.msg);
        test_failures++;
        memset(A, 0, sizeof *A);
        return -1;
    }
    int ok = A->row_ptr[0] == 0 && A->row_ptr[A->rows] == A->nnz;
    for (int32_t i = 0; i < A->rows && ok; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1] && ok; k++)
            ok = A->col_idx[k] >= 0 && A->col_idx[k] < A->cols &&
                 (k == A->row_ptr[i] || A->col_idx[k] > A->col_idx[k - 1]);
    if (!ok)
        fprintf(stderr, "%s %s: not a valid CSR\n", kind, params);
    TEST_CHECK(ok);
    return ok ? 0 : -1;
}

