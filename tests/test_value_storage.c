/*
 * The lossless value storage of every adopting plugin: values = indexed,
 * pattern and auto give y equal bit for bit to values = native (the same
 * sums in the same order) on edge cases, generated and bundled matrices,
 * their few-valued and pattern variants, and the shared folder's real
 * matrices when present; the footprint counts the codes and the table, and
 * more than 65,536 values are refused with the count (auto keeps native).
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/value_table.h"
#include "testlib.h"

/* An adopting plugin and the options of one of its layouts. */
typedef struct adopter {
    const char *plugin;
    const char *sets[4]; /* NULL-ended */
} adopter;

static const adopter plugins[] = {
    {"dia", {NULL}},                                   /* 4-bit codes for tables of at most 16 values */
    {"dia", {"code_bits=8", NULL}},                    /* whole bytes */
    {"bcsr", {"r=3", "c=3", NULL}},                    /* slice kernel where it pays */
    {"bcsr", {"r=3", "c=3", "code_bits=4", NULL}},     /* 4-bit codes where the table fits, else refused */
    {"bcsr", {"r=2", "c=2", "kernel=warp", NULL}},     /* warp per block row, padded blocks */
    {"sell", {NULL}},
    {"sell", {"threads_per_row=4", "long_row=16", NULL}}, /* lanes share rows; long rows native */
    {"csrdu", {NULL}},
    {"csrdu", {"kernel=vector", "delta_bits=8", NULL}},
    {"csrdu", {"kernel=tiles", "piece=512", NULL}},
    {"ell", {"max_fill=1000", NULL}},
    {"csr", {NULL}},
    {"csr", {"kernel=adaptive", "block_rows=8", NULL}},     /* row blocks and split long rows */
    {"csr", {"kernel=vector", "width=4", NULL}},
    {"vbr", {"remainder=vector", NULL}},
    {"vbr", {"remainder=merge", "max_bytes_ratio=4", NULL}},
};
static const char *const modes[] = {"values=indexed", "values=pattern", "values=auto"};
static int compared, refused_native;

/* One runtime and registry for the whole program; one prepared matrix per
 * matrix and dtype, shared by every instance on it as in a run (so the
 * value table is built once for all of them). */
static spmvlab_runtime rt;
static spmvlab_registry *reg;

/* A converted instance and its options. */
typedef struct conv {
    spmvlab_optset opts;
    spmvlab_instance in;
    int converted;
} conv;

/* Destroys c's format and frees c (NULL is fine). */
static void conv_free(conv *c)
{
    if (!c)
        return;
    if (c->converted)
        TEST_CHECK(spmvlab_instance_destroy(&c->in) == 0);
    spmvlab_optset_free(&c->opts);
    free(c);
}

/* The describe() text of c. */
static const char *describe(const conv *c)
{
    static char buf[512];
    spmvlab_instance_describe(&c->in, buf, sizeof buf);
    return buf;
}

/* spmv_host of c with x into y (both of the matrix's dtype). */
static int run_host(const conv *c, const void *x, void *y)
{
    spmvlab_err err = {{0}};
    return c->in.plugin->desc->spmv_host(c->in.fmt, x, y, &err) == SPMVLAB_OK ? 0 : -1;
}

/* Converts the layout p on pm with `set` added (NULL: native); NULL when it
 * refuses (the status in *st, the sentence in *err). */
static conv *convert_said(const adopter *p, const spmvlab_prepared *pm, const char *set, spmvlab_status *st,
                          spmvlab_err *err)
{
    conv *c = calloc(1, sizeof *c);
    const spmvlab_loaded *pl = spmvlab_registry_get(reg, p->plugin, err);
    *st = SPMVLAB_INVALID_OPTION;
    const char *sets[6];
    int n = 0;
    while (p->sets[n])
        sets[n] = p->sets[n], n++;
    if (set)
        sets[n++] = set;
    int bad = !pl || spmvlab_optset_init(&c->opts, pl->desc, err) != 0;
    for (int i = 0; i < n && !bad; i++) {
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(sets[i], "="), sets[i]);
        bad = spmvlab_optset_set(&c->opts, p->plugin, key, sets[i] + strlen(key) + 1, err) != 0;
    }
    if (!bad && pl->desc->check_options)
        bad = pl->desc->check_options(&c->opts.opts, err) != SPMVLAB_OK;
    if (!bad)
        *st = spmvlab_instance_convert(&c->in, &rt, pl, p->plugin, &c->opts, pm, err);
    c->converted = *st == SPMVLAB_OK;
    if (c->converted)
        return c;
    if (*st != SPMVLAB_LIMIT && *st != SPMVLAB_UNSUPPORTED)
        fprintf(stderr, "%s %s: %s\n", p->plugin, set ? set : "native", err->msg), test_failures++;
    conv_free(c);
    return NULL;
}

/* convert_said without the sentence. */
static conv *convert_with(const adopter *p, const spmvlab_prepared *pm, const char *set, spmvlab_status *st)
{
    spmvlab_err err = {{0}};
    return convert_said(p, pm, set, st, &err);
}

/* The number after " key=" (or at the start) in describe's text; -1 when absent. */
static double fact(const conv *t, const char *key)
{
    const char *d = describe(t);
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *at = strncmp(d, pat + 1, strlen(pat + 1)) == 0 ? d - 1 : strstr(d, pat);
    return at ? atof(at + strlen(pat)) : -1;
}

/* The stored entries of t's layout that hold a value (padding included):
 * the diagonals' (with codes, their whole chunks), the blocks' slots and the remainder, the slices' and
 * ell's slots, every non-zero of csrdu and csr. */
static double stored_entries(const adopter *p, const conv *t, int32_t nnz)
{
    if (strcmp(p->plugin, "dia") == 0 && fact(t, "slots") >= 0) /* codes: whole chunks of rows */
        return fact(t, "slots");
    if (strcmp(p->plugin, "dia") == 0 || strcmp(p->plugin, "sell") == 0)
        return fact(t, "stored");
    if (strcmp(p->plugin, "csrdu") == 0 || strcmp(p->plugin, "csr") == 0)
        return nnz;
    if (strcmp(p->plugin, "ell") == 0)
        return fact(t, "slots");
    if (strcmp(p->plugin, "vbr") == 0) /* the block values; the remainder keeps native values */
        return nnz - fact(t, "rem_nnz");
    const char *shape = strstr(describe(t), "shape=");
    int r = shape ? shape[6] - '0' : 0, c = shape ? shape[8] - '0' : 0;
    double slots = fact(t, "slots") >= 0 ? fact(t, "slots") : fact(t, "blocks");
    return slots * r * c + fact(t, "rem_nnz");
}

/* The bytes of t's codes of cb bytes each (0.5: 4-bit codes, two a byte,
 * each array rounded up to whole bytes: bcsr's blocks and remainder). */
static double code_bytes(const adopter *p, const conv *t, int32_t nnz, double cb)
{
    double n = stored_entries(p, t, nnz);
    if (cb != 0.5)
        return n * cb;
    double rest = strcmp(p->plugin, "bcsr") == 0 ? fact(t, "rem_nnz") : 0;
    return ceil((n - rest) / 2) + ceil(rest / 2);
}

/* The footprint with codes: native's, less its stored values, plus the
 * codes of the coded layout's entries (dia's whole chunks: more than
 * native's; half a byte each for 4-bit codes) and the table (README.md's
 * formulas). */
static void expect_coded_footprint(const adopter *p, const conv *native, const conv *t, int32_t nnz,
                                   spmvlab_dtype dtype)
{
    const char *d = describe(t);
    double vs = (double)spmvlab_dtype_size(dtype),
           cb = strstr(d, "indexed4") ? 0.5 : strstr(d, "indexed8") ? 1 : 2; /* 4-bit codes: two a byte */
    double want = (double)spmvlab_instance_footprint(&native->in) - stored_entries(p, native, nnz) * vs +
                  code_bytes(p, t, nnz, cb) + vs * (double)t->in.matrix->values->table.count;
    double got = (double)spmvlab_instance_footprint(&t->in);
    if (got != want)
        fprintf(stderr, "%s: footprint %.0f with codes, %.0f by the formula\n", p->plugin, got, want);
    TEST_CHECK(got == want);
}

/* Every mode of plugin against native on pm: y equal in every bit, the
 * footprint the tracked bytes and, with codes, the formula. */
static void compare_modes(const adopter *plugin, const spmvlab_prepared *pm, const char *what)
{
    const spmvlab_matrix *A = &pm->view;
    spmvlab_status st;
    conv *native = convert_with(plugin, pm, NULL, &st);
    if (!native) {
        refused_native++;
        return;
    }
    size_t vs = spmvlab_dtype_size(A->dtype), ny = (size_t)A->rows * vs + 1;
    void *x = malloc((size_t)A->cols * vs + 1), *y0 = malloc(ny), *y1 = malloc(ny);
    spmvlab_random_x(x, (size_t)A->cols, A->dtype, 7);
    TEST_CHECK(run_host(native, x, y0) == 0);
    for (int m = 0; m < SPMVLAB_COUNT(modes); m++) {
        conv *t = convert_with(plugin, pm, modes[m], &st);
        if (!t)
            continue; /* pattern on distinct values, or too many values for codes */
        spmvlab_poison_host(y1, (size_t)A->rows, A->dtype);
        TEST_CHECK(run_host(t, x, y1) == 0);
        int same = memcmp(y0, y1, (size_t)A->rows * vs) == 0;
        if (!same)
            fprintf(stderr, "%s %s on %s (%s): y differs from native\n", plugin->plugin, modes[m], what,
                    A->dtype == SPMVLAB_F64 ? "f64" : "f32");
        TEST_CHECK(same);
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == t->in.cur_bytes);
        if (strstr(describe(t), "values=indexed"))
            expect_coded_footprint(plugin, native, t, A->nnz, A->dtype);
        compared++;
        conv_free(t);
    }
    conv_free(native);
    free(x);
    free(y0);
    free(y1);
}

/* A's values replaced: k distinct values by position (k 0: all 1.0). */
static void set_few_values(spmvlab_csr *A, int k)
{
    static const double few[] = {4.0, -1.0, -1.0, 0.5, -0.25, 3.0, 2.5, -7.0, 1.0 / 3.0};
    for (int32_t e = 0; e < A->nnz; e++)
        A->val[e] = k ? few[(e * 7 + e / 3) % k] : 1.0;
}

/* Every layout on A prepared in dtype (one table for all of them). */
static void compare_prepared(const spmvlab_csr *A, spmvlab_dtype dtype, const char *what)
{
    spmvlab_prepared pm;
    spmvlab_err err = {{0}};
    if (spmvlab_prepare(&rt, A, what, dtype, &pm, &err) != SPMVLAB_RESULT_OK) {
        fprintf(stderr, "%s: %s\n", what, err.msg);
        test_failures++;
        return;
    }
    for (int p = 0; p < SPMVLAB_COUNT(plugins); p++)
        compare_modes(&plugins[p], &pm, what);
    spmvlab_prepared_free(&pm);
}

/* A as it is, with 5 values and as a pattern, through every layout in f64
 * and (all_dtypes) f32. */
static void compare_each(spmvlab_csr *A, const char *what, int all_dtypes)
{
    double *keep = malloc((size_t)A->nnz * sizeof *keep + 1);
    memcpy(keep, A->val, (size_t)A->nnz * sizeof *keep);
    for (int variant = 0; variant < 3; variant++) {
        if (variant)
            set_few_values(A, variant == 1 ? 5 : 0);
        compare_prepared(A, SPMVLAB_F64, what);
        if (all_dtypes)
            compare_prepared(A, SPMVLAB_F32, what);
    }
    memcpy(A->val, keep, (size_t)A->nnz * sizeof *keep);
    free(keep);
}

/* compare_each in f64 and f32. */
static void compare_all(spmvlab_csr *A, const char *what)
{
    compare_each(A, what, 1);
}

/* Generates kind with params and compares it; frees it. */
static void compare_generated(const char *kind, const char *params)
{
    spmvlab_csr A;
    if (test_gen(kind, params, &A) != 0)
        return;
    compare_all(&A, kind);
    spmvlab_csr_free(&A);
}

/* Edge cases: empty rows, 1 x 1, all zero, no entries, one distinct value. */
static void test_edge_cases(void)
{
    const int32_t lengths[] = {3, 0, 0, 5, 1, 0, 2, 4};
    spmvlab_csr A;
    test_need_rows(&A, 8, 8, lengths, 3);
    compare_all(&A, "empty rows");
    for (int32_t e = 0; e < A.nnz; e++)
        A.val[e] = 0.0;
    compare_all(&A, "all zero");
    spmvlab_csr_free(&A);
    spmvlab_triplet *one = malloc(sizeof *one);
    one[0] = (spmvlab_triplet){0, 0, -2.5};
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(&A, 1, 1, one, 1, &err) == 0);
    compare_all(&A, "1x1");
    spmvlab_csr_free(&A);
    TEST_CHECK(spmvlab_csr_from_triplets(&A, 5, 4, malloc(sizeof *one), 0, &err) == 0);
    compare_all(&A, "no entries");
    spmvlab_csr_free(&A);
}

static void test_generated(void)
{
    compare_generated("stencil2d5", "n=61");
    compare_generated("banded", "n=3001 bandwidth=7");
    compare_generated("stencil3d27", "n=13");
    compare_generated("uniform", "n=500 cols=700 k=9");
}

/* Every matrix of a folder up to max_nnz non-zeros. */
static void compare_folder(const char *dir, int32_t max_nnz)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".mtx"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        spmvlab_csr A;
        spmvlab_err err;
        if (spmvlab_mtx_read(path, &A, &err) != 0)
            continue;
        if (A.nnz <= max_nnz)
            compare_each(&A, e->d_name, 0); /* f32 runs: the edge cases and generated matrices */
        spmvlab_csr_free(&A);
    }
    closedir(d);
}

/* A band of 70,000 distinct values: indexed refuses with the count, auto
 * keeps native values. */
static void test_too_many_values(void)
{
    spmvlab_csr A;
    if (test_gen("banded", "n=30000 bandwidth=3", &A) != 0)
        return;
    for (int32_t e = 0; e < A.nnz; e++)
        A.val[e] = 1.0 + (double)(e % 70000) / 1024.0;
    spmvlab_prepared pm;
    spmvlab_err err = {{0}};
    TEST_CHECK(spmvlab_prepare(&rt, &A, "distinct", SPMVLAB_F64, &pm, &err) == SPMVLAB_RESULT_OK);
    for (int p = 0; p < SPMVLAB_COUNT(plugins); p++) {
        spmvlab_status st;
        conv *t = convert_said(&plugins[p], &pm, "values=indexed", &st, &err);
        TEST_CHECK(t == NULL && st == SPMVLAB_LIMIT);
        TEST_CONTAINS(err.msg, "the matrix has 70000 distinct values, more than the 65536 a 2-byte code names");
        conv_free(t);
        t = convert_with(&plugins[p], &pm, "values=auto", &st);
        TEST_CHECK(t != NULL);
        if (t) /* native: f64, native or no values= fact at all, never codes */
            TEST_CHECK(!strstr(describe(t), "values=indexed") && !strstr(describe(t), "values=pattern"));
        conv_free(t);
    }
    spmvlab_prepared_free(&pm);
    spmvlab_csr_free(&A);
}

/* The first adopter of plugin name. */
static const adopter *adopter_of(const char *name)
{
    for (int p = 0; p < SPMVLAB_COUNT(plugins); p++)
        if (!strcmp(plugins[p].plugin, name))
            return &plugins[p];
    return NULL;
}

/* 5,000 distinct values: indexed takes 2-byte codes, auto keeps native
 * (a table beyond SPMVLAB_VALUES_AUTO_TABLE_MAX); 300 take 2-byte codes
 * under auto too (sell, whose auto takes codes at any size). */
static void test_auto_table_limit(void)
{
    spmvlab_csr A;
    if (test_gen("banded", "n=4000 bandwidth=3", &A) != 0)
        return;
    const int counts[] = {5000, 300};
    for (int i = 0; i < 2; i++) {
        for (int32_t e = 0; e < A.nnz; e++)
            A.val[e] = 1.0 + (double)(e % counts[i]) / 1024.0;
        spmvlab_prepared pm;
        spmvlab_err err = {{0}};
        TEST_CHECK(spmvlab_prepare(&rt, &A, "distinct", SPMVLAB_F64, &pm, &err) == SPMVLAB_RESULT_OK);
        spmvlab_status st;
        conv *t = convert_with(adopter_of("sell"), &pm, "values=indexed", &st);
        TEST_CHECK(t && strstr(describe(t), "values=indexed16"));
        conv_free(t);
        t = convert_with(adopter_of("sell"), &pm, "values=auto", &st);
        TEST_CHECK(t && strstr(describe(t), i == 0 ? "values=native" : "values=indexed16"));
        conv_free(t);
        spmvlab_prepared_free(&pm);
    }
    spmvlab_csr_free(&A);
}

/* 1 when p's options hold set. */
static int sets_hold(const adopter *p, const char *set)
{
    for (int i = 0; p->sets[i]; i++)
        if (!strcmp(p->sets[i], set))
            return 1;
    return 0;
}

/* auto per kernel on a band of 5 values: bcsr, sell, ell and vbr take
 * 1-byte codes (bcsr with code_bits = 4: 4-bit ones); csr and csrdu, whose kernels run codes slower than native
 * values, keep native, and so does dia on these 4,000 rows (it takes codes
 * from 2^19); with all values equal csr, csrdu and dia take the pattern,
 * the others the pattern or, where they store padding, codes. */
static void test_auto_per_kernel(void)
{
    spmvlab_csr A;
    if (test_gen("banded", "n=4000 bandwidth=3", &A) != 0)
        return;
    for (int variant = 0; variant < 2; variant++) {
        set_few_values(&A, variant == 0 ? 5 : 0);
        spmvlab_prepared pm;
        spmvlab_err err = {{0}};
        TEST_CHECK(spmvlab_prepare(&rt, &A, "few", SPMVLAB_F64, &pm, &err) == SPMVLAB_RESULT_OK);
        for (int p = 0; p < SPMVLAB_COUNT(plugins); p++) {
            spmvlab_status st;
            conv *t = convert_with(&plugins[p], &pm, "values=auto", &st);
            if (!t)
                continue; /* the layout refuses the band natively too */
            int no_codes = !strcmp(plugins[p].plugin, "csr") || !strcmp(plugins[p].plugin, "csrdu") ||
                           !strcmp(plugins[p].plugin, "dia");
            const char *d = describe(t);
            const char *want = sets_hold(&plugins[p], "code_bits=4") ? "values=indexed4" : "values=indexed8";
            int coded = strstr(d, want) != NULL, pattern = strstr(d, "values=pattern") != NULL;
            /* csr, csrdu and dia: the pattern, else native; the others: the
             * pattern where they store no padding, else codes of the width above */
            int ok = no_codes ? (variant == 1 ? pattern : !coded && !pattern) : (variant == 1 ? pattern || coded : coded);
            if (!ok)
                fprintf(stderr, "%s auto on %s: %s\n", plugins[p].plugin, variant ? "all ones" : "5 values", d);
            TEST_CHECK(ok);
            conv_free(t);
        }
        spmvlab_prepared_free(&pm);
    }
    spmvlab_csr_free(&A);
}

int main(void)
{
    spmvlab_err err = {{0}};
    reg = spmvlab_registry_new();
    if (!reg || spmvlab_runtime_open(&rt, 0, 0, &err) != 0) {
        fprintf(stderr, "no runtime: %s\n", err.msg);
        return 1;
    }
    test_edge_cases();
    test_generated();
    test_too_many_values();
    test_auto_table_limit();
    test_auto_per_kernel();
    compare_folder(getenv("SPMVLAB_DATA_DIR"), 2000000);
    compare_folder(getenv("SPMVLAB_SHARED_MATRICES"), 100000);
    printf("%d storages compared with native, %d native conversions refused\n", compared, refused_native);
    TEST_CHECK(compared > 0);
    spmvlab_runtime_close(&rt);
    spmvlab_registry_free(reg);
    return test_done("test_value_storage");
}
