/*
 * The scaffolding every plugin unit test repeats: convert a plugin on a
 * matrix and check spmv_host against the bound, in one dtype or in f64 and
 * f32; read a fact back from describe(); expect a refusal.
 */
#ifndef SPMVLAB_TESTLIB_PLUGIN_H
#define SPMVLAB_TESTLIB_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "testlib.h"

/* Converts A with sets and checks that spmv_host (x from seed) meets the
 * bound; returns the instance (free it with test_instance_free), or NULL
 * after counting a failure and printing the conversion's sentence. */
test_instance *test_convert_ok(const char *plugin, const spmvlab_csr *A, spmvlab_dtype dtype,
                               const char *const *sets, uint64_t seed);

/* Called for every dtype an instance converted in; ctx is the caller's. */
typedef void (*test_instance_fn)(test_instance *t, spmvlab_dtype dtype, void *ctx);

/* test_convert_ok in f64, then f32, calling fn (may be NULL) on each
 * instance before freeing it. */
void test_each_dtype(const char *plugin, const spmvlab_csr *A, const char *const *sets, uint64_t seed,
                     test_instance_fn fn, void *ctx);

/* test_each_dtype that also checks the reported footprint equals the
 * core's count of live device bytes; copies the f64 describe() text into
 * desc (len bytes) and returns the f64 footprint (0 when it failed). */
size_t test_convert_both(const char *plugin, const spmvlab_csr *A, const char *const *sets, uint64_t seed,
                         char *desc, size_t len);

/* test_convert_both that also checks the f64 describe() text contains
 * needle; returns the f64 footprint. */
size_t test_convert_says(const char *plugin, const spmvlab_csr *A, const char *const *sets, uint64_t seed,
                         const char *needle);

/* test_convert_says with every needle of the NULL-terminated list, from
 * one conversion; returns the f64 footprint. */
size_t test_convert_says_all(const char *plugin, const spmvlab_csr *A, const char *const *sets, uint64_t seed,
                             const char *const *needles);

/* test_convert_both on a 5 x 4 matrix without entries (no sets): every row
 * of y must be written as 0. */
size_t test_convert_empty(const char *plugin, uint64_t seed, char *desc, size_t len);
/* test_convert_empty that also checks the f64 describe() text contains
 * needle; returns the f64 footprint. */
size_t test_convert_empty_says(const char *plugin, uint64_t seed, const char *needle);

/* Converts A with sets in dtype and counts a failure unless the status is
 * want; err holds the sentence. Returns 1 when the plugin allocated no
 * device memory on the way (peak and live allocations both 0), else 0. */
int test_refuses(const char *plugin, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets,
                 spmvlab_status want, spmvlab_err *err);

/* test_refuses that also checks the sentence contains needle. */
int test_refuses_saying(const char *plugin, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets,
                        spmvlab_status want, const char *needle);

/* Counts a failure for every "key=value" of facts (NULL-ended) that
 * describe() does not give exactly (the text after key= up to a space). */
void test_describe_says(test_instance *t, const char *const *facts);

/* test_convert_ok of A with sets in dtype, then test_describe_says. */
void test_expect_facts(const char *plugin, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets,
                       uint64_t seed, const char *const *facts);

/* The number after " key=" in describe(); -1 when absent. */
double test_describe_value(test_instance *t, const char *key);
/* The text after " key=" in describe() up to a space, into out (len
 * bytes; "" when absent); returns out. */
const char *test_describe_text(test_instance *t, const char *key, char *out, size_t len);

#endif
