/*
 * Plugin unit-test scaffolding over test_convert / test_verify_host: one
 * place for the convert-verify-free sequence and the loops over dtypes.
 */
#include "testlib_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

test_instance *test_convert_ok(const char *plugin, const spmvlab_csr *A, spmvlab_dtype dtype,
                               const char *const *sets, uint64_t seed)
{
    test_instance *t;
    spmvlab_err err = {{0}};
    if (test_convert(plugin, A, dtype, sets, &t, &err) != SPMVLAB_OK) {
        fprintf(stderr, "%s convert failed: %s\n", plugin, err.msg);
        test_failures++;
        test_instance_free(t);
        return NULL;
    }
    TEST_CHECK(test_verify_host(t, seed) <= 1.0);
    return t;
}

void test_each_dtype(const char *plugin, const spmvlab_csr *A, const char *const *sets, uint64_t seed,
                     test_instance_fn fn, void *ctx)
{
    const spmvlab_dtype dtypes[] = {SPMVLAB_F64, SPMVLAB_F32};
    for (int d = 0; d < 2; d++) {
        test_instance *t = test_convert_ok(plugin, A, dtypes[d], sets, seed);
        if (t && fn)
            fn(t, dtypes[d], ctx);
        test_instance_free(t);
    }
}

/* What test_convert_both keeps of the f64 instance. */
typedef struct both_ctx {
    char *desc;
    size_t len;
    size_t bytes;
} both_ctx;

static void both_check(test_instance *t, spmvlab_dtype dtype, void *ctx)
{
    both_ctx *b = ctx;
    TEST_CHECK(spmvlab_instance_footprint(&t->in) == t->in.cur_bytes);
    if (dtype == SPMVLAB_F64) {
        snprintf(b->desc, b->len, "%s", test_describe(t));
        b->bytes = spmvlab_instance_footprint(&t->in);
    }
}

size_t test_convert_both(const char *plugin, const spmvlab_csr *A, const char *const *sets, uint64_t seed,
                         char *desc, size_t len)
{
    both_ctx b = {desc, len, 0};
    test_each_dtype(plugin, A, sets, seed, both_check, &b);
    return b.bytes;
}

size_t test_convert_says_all(const char *plugin, const spmvlab_csr *A, const char *const *sets, uint64_t seed,
                             const char *const *needles)
{
    char desc[512] = "";
    size_t bytes = test_convert_both(plugin, A, sets, seed, desc, sizeof desc);
    for (; *needles; needles++)
        TEST_CONTAINS(desc, *needles);
    return bytes;
}

size_t test_convert_says(const char *plugin, const spmvlab_csr *A, const char *const *sets, uint64_t seed,
                         const char *needle)
{
    return test_convert_says_all(plugin, A, sets, seed, (const char *const[]){needle, NULL});
}

size_t test_convert_empty(const char *plugin, uint64_t seed, char *desc, size_t len)
{
    spmvlab_csr A;
    const int32_t lengths[] = {0, 0, 0, 0, 0};
    if (test_gen_rows(&A, 5, 4, lengths, 1) != 0) {
        test_failures++;
        return 0;
    }
    size_t bytes = test_convert_both(plugin, &A, NULL, seed, desc, len);
    spmvlab_csr_free(&A);
    return bytes;
}

size_t test_convert_empty_says(const char *plugin, uint64_t seed, const char *needle)
{
    char desc[512] = "";
    size_t bytes = test_convert_empty(plugin, seed, desc, sizeof desc);
    TEST_CONTAINS(desc, needle);
    return bytes;
}

int test_refuses(const char *plugin, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets,
                 spmvlab_status want, spmvlab_err *err)
{
    test_instance *t;
    spmvlab_status st = test_convert(plugin, A, dtype, sets, &t, err);
    if (st != want) {
        fprintf(stderr, "%s: status %d, want %d: %s\n", plugin, (int)st, (int)want, err->msg);
        test_failures++;
    }
    int clean = t->in.peak_bytes == 0 && t->in.live_allocs == 0;
    test_instance_free(t);
    return clean;
}

int test_refuses_saying(const char *plugin, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets,
                        spmvlab_status want, const char *needle)
{
    spmvlab_err err = {{0}};
    int clean = test_refuses(plugin, A, dtype, sets, want, &err);
    TEST_CONTAINS(err.msg, needle);
    return clean;
}

/* Where the value of key starts in a copy of describe() with a leading
 * space (so the first key matches too); NULL when absent. */
static const char *describe_find(test_instance *t, const char *key, char *text, size_t len)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    snprintf(text, len, " %s", test_describe(t));
    const char *at = strstr(text, pat);
    return at ? at + strlen(pat) : NULL;
}

double test_describe_value(test_instance *t, const char *key)
{
    char text[1024];
    const char *at = describe_find(t, key, text, sizeof text);
    return at ? atof(at) : -1.0;
}

const char *test_describe_text(test_instance *t, const char *key, char *out, size_t len)
{
    char text[1024];
    const char *at = describe_find(t, key, text, sizeof text);
    out[0] = 0;
    if (at) {
        size_t n = strcspn(at, " ");
        n = n < len - 1 ? n : len - 1;
        memcpy(out, at, n);
        out[n] = 0;
    }
    return out;
}

void test_describe_says(test_instance *t, const char *const *facts)
{
    for (int k = 0; facts[k]; k++) {
        char key[48], got[128];
        size_t n = strcspn(facts[k], "=");
        snprintf(key, sizeof key, "%.*s", (int)n, facts[k]);
        test_describe_text(t, key, got, sizeof got);
        if (facts[k][n] != '=' || strcmp(got, facts[k] + n + 1) != 0) {
            fprintf(stderr, "%s: %s=%s, want %s\n", test_describe(t), key, got, facts[k]);
            test_failures++;
        }
    }
}

void test_expect_facts(const char *plugin, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets,
                       uint64_t seed, const char *const *facts)
{
    test_instance *t = test_convert_ok(plugin, A, dtype, sets, seed);
    if (t)
        test_describe_says(t, facts);
    test_instance_free(t);
}
