/*
 * Helpers for the C test programs: assertions that count instead of abort,
 * small generated matrices, and one-call convert / verify of a plugin on the
 * CPU (spmv_host against the reference with random x and poisoned y).
 */
#ifndef SPMVLAB_TESTLIB_H
#define SPMVLAB_TESTLIB_H

#include <stdio.h>

#include "spmvlab/config.h"
#include "spmvlab/core.h"
#include "spmvlab/trial.h"

extern int test_failures;

#define TEST_CHECK(cond)                                                             \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            test_failures++;                                                         \
        }                                                                            \
    } while (0)

/* Checks that haystack contains needle, printing both when not. */
#define TEST_CONTAINS(haystack, needle) test_contains(__FILE__, __LINE__, (haystack), (needle))
void test_contains(const char *file, int line, const char *haystack, const char *needle);

/* Ends main: prints a summary, returns the exit code. */
int test_done(const char *name);

/* Calls fn(path) for every file of tests/<sub> (SPMVLAB_TESTS_DIR or
 * ./tests), skipping dot files, and prints how many it read; a missing
 * folder reads none. */
void test_for_each_file(const char *sub, void (*fn)(const char *path));

/* A matrix of data/ by file name ("bcspwr01.mtx.gz"); NULL path gives the
 * first bundled matrix. Returns 0 or -1 (then the test should skip). */
int test_load_csr(const char *file, spmvlab_csr *A);
/* rows x cols with the given row lengths (distinct random columns), seeded. */
int test_gen_rows(spmvlab_csr *A, int32_t rows, int32_t cols, const int32_t *lengths, uint64_t seed);
/* rows x cols, every row of length len. */
int test_gen_uniform(spmvlab_csr *A, int32_t rows, int32_t cols, int32_t len, uint64_t seed);
/* test_gen_uniform as a value; counts a failure (and gives an empty
 * matrix) when it cannot be built. */
spmvlab_csr test_uniform(int32_t rows, int32_t cols, int32_t len, uint64_t seed);
/* test_gen_rows for the matrix a whole test program needs: ends the
 * program (exit 1, a sentence on stderr) when it cannot be built. */
void test_need_rows(spmvlab_csr *A, int32_t rows, int32_t cols, const int32_t *lengths, uint64_t seed);

/* A converted instance and everything it owns (CPU mode). */
typedef struct test_instance {
    spmvlab_runtime rt;
    spmvlab_registry *reg;
    spmvlab_optset opts;
    spmvlab_prepared pm;
    spmvlab_instance in;
    int converted;
} test_instance;

/* Loads plugin_name, applies sets ("key=value", NULL-ended; may be NULL),
 * prepares A in dtype and converts. Returns the status; *out is set even on
 * failure (free it with test_instance_free). */
spmvlab_status test_convert(const char *plugin_name, const spmvlab_csr *A, spmvlab_dtype dtype,
                            const char *const *sets, test_instance **out, spmvlab_err *err);
/* spmv_host with random x (seed) into NaN-poisoned y, through the trial
 * engine; returns the max error ratio (<= 1 passes; INFINITY for a result
 * beyond the bound, unwritten rows or a failed call). */
double test_verify_host(test_instance *t, uint64_t seed);
/* The plugin's describe() text. */
const char *test_describe(test_instance *t);
void test_instance_free(test_instance *t);

/* Generates kind with "k=v ..." into A and checks it is a valid CSR
 * (sorted distinct columns in range). Returns 0, or -1 counted as a failure. */
int test_gen(const char *kind, const char *params, spmvlab_csr *A);

#endif
