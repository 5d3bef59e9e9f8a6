/* The conformance suite: one case = one plugin instance on one matrix and dtype. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suite.h"
#include "commands.h"
#include "host_util.h"
#include "spmvlab/edge.h"

typedef struct tally {
    int passed, refused, failed;
    int verbose;
} tally;

static void report(tally *t, const char *verdict, spmvlab_dtype d, const char *matrix, const char *fmt, ...)
{
    char detail[SPMVLAB_ERR_LEN + 128] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    int fail = strcmp(verdict, "FAIL") == 0;
    if (fail)
        t->failed++;
    else if (strcmp(verdict, "REFUSED") == 0)
        t->refused++;
    else
        t->passed++;
    if (fail || t->verbose || strcmp(verdict, "REFUSED") == 0)
        printf("%-7s %-4s %-28s %s\n", verdict, spmvlab_dtype_name(d), matrix, detail);
}

/* Runs y = A·x once (host or device) into NaN-poisoned y and checks it.
 * Returns 0 when within the bound, else -1 with the reason in why. */
static int run_and_verify(spmvlab_runtime *rt, spmvlab_instance *in, int on_gpu, uint64_t seed, double *ratio,
                          char *why, size_t len)
{
    const spmvlab_matrix *m = &in->matrix->view;
    size_t vs = spmvlab_dtype_size(m->dtype);
    void *x = malloc(m->cols ? (size_t)m->cols * vs : 1), *y = malloc(m->rows ? (size_t)m->rows * vs : 1);
    double *ref = malloc(((size_t)m->rows + 1) * sizeof *ref), *absum = malloc(((size_t)m->rows + 1) * sizeof *absum);
    int rc = -1;
    void *dx = NULL, *dy = NULL;
    spmvlab_err err = {{0}};
    if (!x || !y || !ref || !absum) {
        snprintf(why, len, "out of host memory");
        goto out;
    }
    spmvlab_random_x(x, (size_t)m->cols, m->dtype, seed);
    spmvlab_poison_host(y, (size_t)m->rows, m->dtype);
    spmvlab_reference(m, x, ref, absum);
    spmvlab_status st;
    if (!on_gpu) {
        st = in->plugin->desc->spmv_host(in->fmt, x, y, &err);
    } else {
        if (spmvlab_dev_malloc(rt, &dx, (size_t)m->cols * vs, &err) ||
            spmvlab_dev_malloc(rt, &dy, (size_t)m->rows * vs, &err) ||
            spmvlab_dev_upload(rt, dx, x, (size_t)m->cols * vs, &err) ||
            spmvlab_dev_poison(rt, dy, (size_t)m->rows, m->dtype, &err) || spmvlab_dev_sync(rt, &err)) {
            snprintf(why, len, "setting up x and y on the device: %s", err.msg);
            goto out;
        }
        st = in->plugin->desc->spmv(in->fmt, dx, dy, rt->stream, &err);
        spmvlab_err sync;
        if (st == SPMVLAB_OK && spmvlab_dev_sync(rt, &sync)) {
            st = SPMVLAB_CUDA_ERROR;
            snprintf(err.msg, sizeof err.msg, "%s", sync.msg);
        }
        if (st == SPMVLAB_OK && spmvlab_dev_download(rt, y, dy, (size_t)m->rows * vs, &sync)) {
            st = SPMVLAB_CUDA_ERROR;
            snprintf(err.msg, sizeof err.msg, "%s", sync.msg);
        }
    }
    if (st != SPMVLAB_OK) {
        snprintf(why, len, "%s returned %s: %s", on_gpu ? "spmv" : "spmv_host", spmvlab_status_name(st),
                 err.msg[0] ? err.msg : "(no sentence)");
        goto out;
    }
    spmvlab_verdict v;
    spmvlab_verify(m, y, ref, absum, &v);
    *ratio = v.max_ratio;
    if (v.nonfinite_ref) {
        snprintf(why, len, "the input holds NaN or Inf (%d rows have a non-finite reference)", v.nonfinite_ref);
        goto out;
    }
    if (!v.ok) {
        int32_t r = v.worst_row, rl = r >= 0 ? m->row_ptr[r + 1] - m->row_ptr[r] : 0;
        if (v.nan_rows)
            snprintf(why, len, "%s: %d rows not written or NaN (row %d of length %d holds %g, expected %.17g)",
                     on_gpu ? "spmv" : "spmv_host", v.nan_rows, r, rl, v.y_worst, v.ref_worst);
        else
            snprintf(why, len, "%s: %d rows beyond the error bound; worst row %d (length %d): %.17g, expected %.17g, %.3g x the bound",
                     on_gpu ? "spmv" : "spmv_host", v.bad_rows, r, rl, v.y_worst, v.ref_worst, v.max_ratio);
        goto out;
    }
    rc = 0;
out:
    spmvlab_dev_free(rt, dx);
    spmvlab_dev_free(rt, dy);
    free(x);
    free(y);
    free(ref);
    free(absum);
    return rc;
}

static void check_case(tally *t, spmvlab_runtime *rt, const spmvlab_loaded *pl, const spmvlab_optset *opts,
                       const spmvlab_csr *A, const char *name, spmvlab_dtype d, const check_options *o)
{
    spmvlab_prepared pm;
    spmvlab_err err;
    int prc = spmvlab_prepare(rt, A, name, d, &pm, &err);
    if (prc == -2) {
        printf("skip    %-4s %-28s %s\n", spmvlab_dtype_name(d), name, err.msg);
        return;
    }
    if (prc) {
        report(t, "FAIL", d, name, "preparing the matrix: %s", err.msg);
        return;
    }
    spmvlab_instance in;
    spmvlab_status st = spmvlab_instance_convert(&in, rt, pl, pl->desc->name, opts, &pm, &err);
    if (st != SPMVLAB_OK) {
        if ((st == SPMVLAB_UNSUPPORTED || st == SPMVLAB_LIMIT) && err.msg[0])
            report(t, "REFUSED", d, name, "%s: %s", spmvlab_status_name(st), err.msg);
        else
            report(t, "FAIL", d, name, "convert returned %s: %s", spmvlab_status_name(st), err.msg);
        spmvlab_prepared_free(&pm);
        return;
    }
    char why[SPMVLAB_ERR_LEN + 256] = "";
    double worst = 0, ratio = 0;
    int bad = 0;
    size_t fp = spmvlab_instance_footprint(&in);
    if (fp != in.cur_bytes) {
        snprintf(why, sizeof why, "footprint() reports %zu bytes but the instance holds %zu bytes in %ld allocations",
                 fp, in.cur_bytes, in.live_allocs);
        bad = 1;
    }
    for (int pass = 0; pass < 2 && !bad; pass++) {
        if (run_and_verify(rt, &in, 0, o->seed + (uint64_t)pass, &ratio, why, sizeof why))
            bad = 1;
        worst = ratio > worst ? ratio : worst;
    }
    for (int pass = 0; o->gpu && pass < 2 && !bad; pass++) {
        if (run_and_verify(rt, &in, 1, o->seed + 10 + (uint64_t)pass, &ratio, why, sizeof why))
            bad = 1;
        worst = ratio > worst ? ratio : worst;
    }
    char facts[256];
    spmvlab_instance_describe(&in, facts, sizeof facts);
    double conv = in.convert_ms;
    size_t left = spmvlab_instance_destroy(&in);
    if (!bad && left) {
        snprintf(why, sizeof why, "destroy() left %zu bytes allocated", left);
        bad = 1;
    }
    if (bad)
        report(t, "FAIL", d, name, "%s", why);
    else
        report(t, "PASS", d, name, "error %.3g of bound, %zu bytes, convert %.2f ms %s", worst, fp, conv, facts);
    spmvlab_prepared_free(&pm);
}

int check_run(spmvlab_registry *reg, const char *target, const check_options *o)
{
    spmvlab_err err;
    const spmvlab_loaded *pl = strchr(target, '/') || strstr(target, ".so")
                                   ? spmvlab_registry_load_file(reg, target, &err)
                                   : spmvlab_registry_get(reg, target, &err);
    if (!pl) {
        printf("FAIL    load: %s\n", err.msg);
        return EXIT_FAILED;
    }
    const spmvlab_plugin *p = pl->desc;
    printf("checking %s %s (ABI %u.%u) from %s\n", p->name, p->version, p->abi_major, p->abi_minor, pl->path);
    if (!p->spmv_host) {
        printf("FAIL    the plugin has no spmv_host: the CPU execution of the format is required\n");
        return EXIT_FAILED;
    }
    spmvlab_optset opts;
    if (spmvlab_optset_init(&opts, p, &err)) {
        printf("FAIL    options: %s\n", err.msg);
        return EXIT_FAILED;
    }
    for (int i = 0; i < o->nsets; i++) {
        char kv[256];
        snprintf(kv, sizeof kv, "%s", o->sets[i]);
        char *eq = strchr(kv, '=');
        if (!eq) {
            fprintf(stderr, "spmvlab check: --set %s is not of the form KEY=VALUE.\n", o->sets[i]);
            spmvlab_optset_free(&opts);
            return EXIT_USAGE;
        }
        *eq = '\0';
        if (spmvlab_optset_set(&opts, p->name, kv, eq + 1, &err)) {
            fprintf(stderr, "spmvlab check: %s.\n", err.msg);
            spmvlab_optset_free(&opts);
            return EXIT_USAGE;
        }
    }
    if (p->check_options && p->check_options(&opts.opts, &err) != SPMVLAB_OK) {
        fprintf(stderr, "spmvlab check: %s.\n", err.msg);
        spmvlab_optset_free(&opts);
        return EXIT_USAGE;
    }
    spmvlab_runtime rt;
    int orc = spmvlab_runtime_open(&rt, o->gpu ? 2 : 0, 0, &err);
    if (orc == 1) {
        printf("skipped: --gpu asked for the GPU path but %s\n", err.msg);
        spmvlab_optset_free(&opts);
        return EXIT_SKIPPED;
    }
    if (orc) {
        fprintf(stderr, "spmvlab check: %s.\n", err.msg);
        spmvlab_optset_free(&opts);
        return EXIT_FAILED;
    }
    char text[512];
    spmvlab_optset_describe(&opts, 0, text, sizeof text);
    printf("options: %s\nmode: %s\n", text[0] ? text : "(none)",
           rt.device.present ? rt.device.name : "CPU (spmv_host; device memory emulated on the host)");
    tally t = {0, 0, 0, o->verbose};
    uint32_t mask = o->dtype_mask ? o->dtype_mask : p->dtypes;
    for (int d = 0; d < 3; d++) {
        if (!(mask & SPMVLAB_DTYPE_BIT(d)))
            continue;
        if (!(p->dtypes & SPMVLAB_DTYPE_BIT(d))) {
            printf("skip    %-4s the plugin does not declare this dtype\n", spmvlab_dtype_name((spmvlab_dtype)d));
            continue;
        }
        for (int e = 0; o->edge_cases && e < spmvlab_edge_count(); e++) {
            spmvlab_csr A;
            if (spmvlab_edge_build(e, &A, &err)) {
                report(&t, "FAIL", (spmvlab_dtype)d, spmvlab_edge_name(e), "%s", err.msg);
                continue;
            }
            check_case(&t, &rt, pl, &opts, &A, spmvlab_edge_name(e), (spmvlab_dtype)d, o);
            spmvlab_csr_free(&A);
        }
        for (int f = 0; f < o->npaths; f++) {
            char label[128];
            spmvlab_matrix_label(o->paths[f], label, sizeof label);
            spmvlab_csr A;
            int lrc = load_matrix(o->paths[f], &A, &err);
            if (lrc == -2) {
                printf("skip    %-4s %-28s %s\n", spmvlab_dtype_name((spmvlab_dtype)d), label, err.msg);
                continue;
            }
            if (lrc) {
                report(&t, "FAIL", (spmvlab_dtype)d, label, "%s", err.msg);
                continue;
            }
            if (o->max_nnz && A.nnz > o->max_nnz) {
                if (o->verbose)
                    printf("skip    %-4s %-28s %d non-zeros > --max-nnz\n", spmvlab_dtype_name((spmvlab_dtype)d), label, A.nnz);
            } else
                check_case(&t, &rt, pl, &opts, &A, label, (spmvlab_dtype)d, o);
            spmvlab_csr_free(&A);
        }
    }
    printf("%s: %d passed, %d refused cleanly, %d failed\n", t.failed ? "FAILED" : "PASSED", t.passed, t.refused,
           t.failed);
    spmvlab_runtime_close(&rt);
    spmvlab_optset_free(&opts);
    return t.failed ? EXIT_FAILED : EXIT_OK;
}
