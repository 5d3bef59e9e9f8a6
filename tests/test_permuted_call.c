/*
 * The permutation kept inside every call (--reorder ORDER+call,
 * spmvlab/permuted_call.h):
 *
 * - gather and scatter move values as bits, so the round trip is exact for
 *   2-, 4- and 8-byte values, on the host and through the device helpers
 *   (the CUDA kernels when a GPU is present, else their host stand-ins);
 * - an instance converted from P A P^T (or P A) and called through the
 *   permutation verifies against A's own reference, and its y is exactly
 *   P^T of what the plain instance on the permuted matrix gives for P x;
 * - a wrong permutation inside the call fails the check, so the round
 *   trip is what gets verified.
 */
#include <stdlib.h>
#include <string.h>

#include "spmvlab/permuted_call.h"
#include "spmvlab/reorder.h"
#include "testlib.h"

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static int32_t *random_perm(int32_t n, uint64_t seed)
{
    int32_t *p = malloc((size_t)(n ? n : 1) * sizeof *p);
    for (int32_t i = 0; i < n; i++)
        p[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)(next(&seed) % (uint64_t)(i + 1)), t = p[i];
        p[i] = p[j], p[j] = t;
    }
    return p;
}

/* n values of vs bytes of arbitrary bits (NaN payloads, -0, denormals). */
static unsigned char *random_bytes(size_t bytes, uint64_t seed)
{
    unsigned char *b = malloc(bytes ? bytes : 1);
    for (size_t i = 0; i < bytes; i++)
        b[i] = (unsigned char)next(&seed);
    return b;
}

static void round_trip_is_exact_on_the_host(void)
{
    const int32_t n = 1001;
    int32_t *perm = random_perm(n, 7);
    for (size_t vs = 2; vs <= 8; vs *= 2) {
        unsigned char *v = random_bytes(n * vs, vs), *g = malloc(n * vs), *back = malloc(n * vs);
        spmvlab_gather_values(g, v, perm, n, vs);
        for (int32_t i = 0; i < n; i++)
            TEST_CHECK(memcmp(g + i * vs, v + (size_t)perm[i] * vs, vs) == 0);
        spmvlab_scatter_values(back, g, perm, n, vs);
        TEST_CHECK(memcmp(back, v, n * vs) == 0);
        spmvlab_scatter_values(g, v, perm, n, vs);
        spmvlab_gather_values(back, g, perm, n, vs);
        TEST_CHECK(memcmp(back, v, n * vs) == 0);
        free(v), free(g), free(back);
    }
    free(perm);
}

/* The device helpers give the host functions' bits; without a GPU they
 * run on the host stand-ins, with one they launch the kernels. */
static void device_helpers_match_the_host(void)
{
    spmvlab_runtime rt;
    spmvlab_err err = {{0}};
    if (spmvlab_runtime_open(&rt, 1, 0, &err) < 0) {
        fprintf(stderr, "no runtime: %s\n", err.msg);
        test_failures++;
        return;
    }
    printf("device helpers on %s\n", rt.device.present ? "the GPU" : "the host stand-ins");
    const int32_t n = 100003;
    int32_t *perm = random_perm(n, 11);
    void *dperm = NULL, *din = NULL, *dout = NULL;
    TEST_CHECK(spmvlab_dev_malloc(&rt, &dperm, n * sizeof *perm, &err) == SPMVLAB_OK);
    TEST_CHECK(spmvlab_dev_malloc(&rt, &din, n * 8, &err) == SPMVLAB_OK);
    TEST_CHECK(spmvlab_dev_malloc(&rt, &dout, n * 8, &err) == SPMVLAB_OK);
    if (!dperm || !din || !dout)
        goto out;
    TEST_CHECK(spmvlab_dev_upload(&rt, dperm, perm, n * sizeof *perm, &err) == SPMVLAB_OK);
    for (size_t vs = 2; vs <= 8; vs *= 2) {
        unsigned char *v = random_bytes(n * vs, 3 * vs), *want = malloc(n * vs), *got = malloc(n * vs);
        spmvlab_gather_values(want, v, perm, n, vs);
        TEST_CHECK(spmvlab_dev_upload(&rt, din, v, n * vs, &err) == SPMVLAB_OK);
        TEST_CHECK(spmvlab_dev_gather(&rt, dout, din, dperm, n, vs, &err) == SPMVLAB_OK);
        TEST_CHECK(spmvlab_dev_sync(&rt, &err) == SPMVLAB_OK);
        TEST_CHECK(spmvlab_dev_download(&rt, got, dout, n * vs, &err) == SPMVLAB_OK);
        TEST_CHECK(memcmp(got, want, n * vs) == 0);
        TEST_CHECK(spmvlab_dev_scatter(&rt, din, dout, dperm, n, vs, &err) == SPMVLAB_OK);
        TEST_CHECK(spmvlab_dev_sync(&rt, &err) == SPMVLAB_OK);
        TEST_CHECK(spmvlab_dev_download(&rt, got, din, n * vs, &err) == SPMVLAB_OK);
        TEST_CHECK(memcmp(got, v, n * vs) == 0);
        free(v), free(want), free(got);
    }
    TEST_CHECK(spmvlab_dev_gather(&rt, dout, din, dperm, 0, 8, &err) == SPMVLAB_OK); /* nothing to launch */
    TEST_CHECK(spmvlab_dev_scatter(&rt, dout, din, dperm, n, 3, &err) == SPMVLAB_INTERNAL);
    TEST_CONTAINS(err.msg, "values of 3 bytes");
out:
    spmvlab_dev_free(&rt, dperm);
    spmvlab_dev_free(&rt, din);
    spmvlab_dev_free(&rt, dout);
    spmvlab_runtime_close(&rt);
    free(perm);
}

/* csr on A through ordering o kept inside the call, on the CPU. */
static void per_call_instance_checks_the_round_trip(const spmvlab_csr *A, spmvlab_ordering o, spmvlab_dtype d)
{
    spmvlab_err err = {{0}};
    spmvlab_runtime rt;
    spmvlab_runtime_open(&rt, 0, 0, &err);
    spmvlab_registry *reg = spmvlab_registry_new();
    const spmvlab_loaded *pl = spmvlab_registry_get(reg, "csr", &err);
    spmvlab_optset opts;
    int32_t *perm = NULL;
    spmvlab_csr B = {0};
    spmvlab_trial t = {0}, plain = {0};
    spmvlab_instance in = {0}, on_b = {0};
    spmvlab_conversion conv;
    spmvlab_trial_check c;
    if (!pl || spmvlab_optset_init(&opts, pl->desc, &err)) {
        fprintf(stderr, "csr: %s\n", err.msg);
        test_failures++;
        spmvlab_registry_free(reg);
        return;
    }
    TEST_CHECK(spmvlab_order_compute(A, o, &perm, &err) == 0);
    TEST_CHECK(perm && spmvlab_csr_permute(A, perm, &B, &err) == 0);
    TEST_CHECK(spmvlab_trial_open_permuted(&t, &rt, A, &B, perm, "A", d, 5, &err) == SPMVLAB_RESULT_OK);
    TEST_CHECK(t.call.permute_x == (A->rows == A->cols));
    TEST_CHECK(spmvlab_trial_convert(&t, &in, pl, "csr", &opts, &conv, &err) == SPMVLAB_RESULT_OK);
    TEST_CHECK(in.call == &t.call && in.matrix == &t.permuted);
    TEST_CHECK(conv.footprint_matches); /* the scratch is the trial's, not the format's */
    TEST_CHECK(spmvlab_trial_verify(&t, &in, NULL, SPMVLAB_TRIAL_HOST, &c, &err) == SPMVLAB_RESULT_OK);
    TEST_CHECK(c.compared && c.verdict.max_ratio <= 1);

    /* y is exactly P^T of the plain instance on B called with P x */
    size_t vs = spmvlab_dtype_size(d);
    TEST_CHECK(spmvlab_trial_open(&plain, &rt, &B, "B", d, 5, &err) == SPMVLAB_RESULT_OK);
    TEST_CHECK(spmvlab_trial_convert(&plain, &on_b, pl, "csr", &opts, &conv, &err) == SPMVLAB_RESULT_OK);
    TEST_CHECK(on_b.call == NULL);
    if (A->rows == A->cols)
        spmvlab_gather_values(plain.x, t.x, perm, A->cols, vs);
    else
        memcpy(plain.x, t.x, (size_t)A->cols * vs);
    void *back = malloc((size_t)A->rows * vs + 1);
    TEST_CHECK(spmvlab_instance_spmv_host(&on_b, plain.x, plain.y, &err) == SPMVLAB_OK);
    spmvlab_scatter_values(back, plain.y, perm, A->rows, vs);
    TEST_CHECK(memcmp(back, t.y, (size_t)A->rows * vs) == 0);
    free(back);

    /* a permutation the matrix was not converted with fails the check */
    int32_t a = t.call.perm[0], b = t.call.perm[A->rows / 2];
    t.call.perm[0] = b, t.call.perm[A->rows / 2] = a;
    TEST_CHECK(spmvlab_trial_verify(&t, &in, NULL, SPMVLAB_TRIAL_HOST, &c, &err) == SPMVLAB_RESULT_WRONG);
    t.call.perm[0] = a, t.call.perm[A->rows / 2] = b;

    TEST_CHECK(spmvlab_instance_destroy(&in) == 0);
    TEST_CHECK(spmvlab_instance_destroy(&on_b) == 0);
    spmvlab_trial_close(&plain);
    spmvlab_trial_close(&t);
    TEST_CHECK(t.per_call == 0 && t.call.perm == NULL);
    spmvlab_csr_free(&B);
    free(perm);
    spmvlab_optset_free(&opts);
    spmvlab_registry_free(reg);
    spmvlab_runtime_close(&rt);
}

/* A wrong-sized permuted matrix is refused and the trial holds nothing; a
 * non-permutation never gets that far: spmvlab_csr_permute refuses it. */
static void bad_inputs_are_refused(const spmvlab_csr *A)
{
    spmvlab_err err = {{0}};
    spmvlab_runtime rt;
    spmvlab_runtime_open(&rt, 0, 0, &err);
    spmvlab_trial t;
    int32_t *twice = calloc((size_t)A->rows, sizeof *twice);
    spmvlab_csr B;
    TEST_CHECK(spmvlab_csr_permute(A, twice, &B, &err) == -1);
    TEST_CONTAINS(err.msg, "not a permutation");
    spmvlab_csr other = test_uniform(A->rows + 1, A->cols, 2, 1);
    int32_t *ident = calloc((size_t)other.rows, sizeof *ident);
    for (int32_t i = 0; ident && i < other.rows; i++)
        ident[i] = i;
    err.msg[0] = '\0';
    TEST_CHECK(spmvlab_trial_open_permuted(&t, &rt, A, &other, ident, "A", SPMVLAB_F64, 1, &err) ==
               SPMVLAB_RESULT_INTERNAL);
    TEST_CONTAINS(err.msg, "is not");
    TEST_CHECK(t.per_call == 0 && t.x == NULL && t.pm == NULL && t.own.host_val == NULL);
    spmvlab_csr_free(&other);
    free(ident);
    free(twice);
    spmvlab_runtime_close(&rt);
}

int main(void)
{
    round_trip_is_exact_on_the_host();
    device_helpers_match_the_host();
    spmvlab_csr square = test_uniform(300, 300, 7, 21), rect = test_uniform(120, 200, 5, 22);
    spmvlab_dtype dtypes[] = {SPMVLAB_F64, SPMVLAB_F32};
    for (int k = 0; k < 2; k++) {
        per_call_instance_checks_the_round_trip(&square, SPMVLAB_ORDER_RCM, dtypes[k]);
        per_call_instance_checks_the_round_trip(&square, SPMVLAB_ORDER_DEGREE, dtypes[k]);
        per_call_instance_checks_the_round_trip(&rect, SPMVLAB_ORDER_DEGREE, dtypes[k]); /* rows only */
    }
    bad_inputs_are_refused(&square);
    spmvlab_csr_free(&square);
    spmvlab_csr_free(&rect);
    return test_done("test_permuted_call");
}
