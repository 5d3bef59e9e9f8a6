/*
 * dasp unit tests: one case converted and checked, shared by
 * test_dasp_stream.c, test_dasp_empty.c and test_dasp_irr.c.
 */
#ifndef SPMVLAB_TEST_DASP_CHECK_H
#define SPMVLAB_TEST_DASP_CHECK_H

#include <string.h>

#include "testlib.h"

/* Converts A in dtype with sets, expects every "key=value" of want (may be
 * NULL) in describe() and checks spmv_host against the reference bound
 * with seeds 1 .. seeds. */
static void dasp_check_case(const char *what, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets,
                            const char *const *want, int seeds)
{
    test_instance *t;
    spmvlab_err err = {{0}};
    spmvlab_status st = test_convert("dasp", A, dtype, sets, &t, &err);
    TEST_CHECK(st == SPMVLAB_OK);
    if (st != SPMVLAB_OK) {
        fprintf(stderr, "%s (%s): %s\n", what, spmvlab_dtype_name(dtype), err.msg);
        test_instance_free(t);
        return;
    }
    char text[620];
    snprintf(text, sizeof text, " %s ", test_describe(t));
    for (int i = 0; want && want[i]; i++) {
        char key[96];
        snprintf(key, sizeof key, " %s ", want[i]);
        if (!strstr(text, key))
            fprintf(stderr, "%s: ", what);
        TEST_CONTAINS(text, key);
    }
    for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
        double r = test_verify_host(t, seed);
        if (!(r <= 1.0))
            fprintf(stderr, "%s (%s): error ratio %g\n", what, spmvlab_dtype_name(dtype), r);
        TEST_CHECK(r <= 1.0);
    }
    test_instance_free(t);
}

#endif /* SPMVLAB_TEST_DASP_CHECK_H */
