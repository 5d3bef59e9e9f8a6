/*
 * The conformance checks themselves (see check_cases.h). Each one opens its
 * own runtime, so that in --gpu mode CUDA is only ever initialised inside the
 * child process that runs the check.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_cases.h"

/* The plugin under test seen through a wrapper descriptor: identical but
 * for convert, which records what the plugin itself answered before the core
 * adds its own words, and (for the undeclared-dtype check) for the dtypes,
 * so the core hands the plugin a dtype it does not declare. */
typedef struct wrapped {
    spmvlab_plugin desc;          /* first member: the core reads this as the descriptor */
    const spmvlab_plugin *real;   /* the plugin's own descriptor */
    spmvlab_loaded loaded;        /* a registry entry pointing at desc */
    spmvlab_status raw;           /* what the plugin's convert returned */
    int said;                     /* 1 when it wrote a sentence */
    size_t left;                  /* tracked bytes still held after a failed convert */
} wrapped;

static spmvlab_status wrapped_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts,
                                      void **fmt, spmvlab_err *err)
{
    spmvlab_instance *in = (spmvlab_instance *)(void *)((char *)ctx - offsetof(spmvlab_instance, ctx));
    wrapped *w = (wrapped *)(void *)in->plugin->desc;
    err->msg[0] = '\0';
    w->raw = w->real->convert(ctx, A, opts, fmt, err);
    w->said = err->msg[0] != '\0';
    w->left = w->raw == SPMVLAB_OK ? 0 : in->cur_bytes;
    return w->raw;
}

static void wrap(wrapped *w, const spmvlab_loaded *pl, int all_dtypes)
{
    memset(w, 0, sizeof *w);
    w->real = pl->desc;
    w->desc = *pl->desc;
    w->desc.convert = wrapped_convert;
    if (all_dtypes)
        w->desc.dtypes = SPMVLAB_DTYPE_BIT(SPMVLAB_F64) | SPMVLAB_DTYPE_BIT(SPMVLAB_F32) | SPMVLAB_DTYPE_BIT(SPMVLAB_F16);
    w->loaded = *pl;
    w->loaded.desc = &w->desc;
}

/* Tells the driver which step runs now; the last one shows when a child dies. */
static void stage(const check_job *j, const char *what)
{
    if (j->sandboxed)
        fprintf(stderr, "stage: %s\n", what);
}

static void say(check_result *r, check_verdict v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void say(check_result *r, check_verdict v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->verdict = v;
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
}

/* Runs y = A·x once (host or device) into NaN-poisoned y and checks it.
 * Returns 0 when within the bound, else -1 with the reason in why. */
static int run_and_verify(const check_job *j, spmvlab_runtime *rt, spmvlab_instance *in, int on_gpu, uint64_t seed,
                          const char *which, double *ratio, char *why, size_t len)
{
    const spmvlab_matrix *m = &in->matrix->view;
    const spmvlab_plugin *p = in->plugin->desc;
    size_t vs = spmvlab_dtype_size(m->dtype);
    void *x = malloc(m->cols ? (size_t)m->cols * vs : 1), *y = malloc(m->rows ? (size_t)m->rows * vs : 1);
    double *ref = malloc(((size_t)m->rows + 1) * sizeof *ref), *absum = malloc(((size_t)m->rows + 1) * sizeof *absum);
    int rc = -1;
    void *dx = NULL, *dy = NULL;
    spmvlab_err err = {{0}};
    const char *fn = on_gpu ? "spmv" : "spmv_host";
    if (!x || !y || !ref || !absum) {
        snprintf(why, len, "out of host memory");
        goto out;
    }
    spmvlab_random_x(x, (size_t)m->cols, m->dtype, seed);
    spmvlab_poison_host(y, (size_t)m->rows, m->dtype);
    spmvlab_reference(m, x, ref, absum);
    spmvlab_status st;
    char step[160];
    snprintf(step, sizeof step, "%s%s", fn, which);
    stage(j, step);
    if (!on_gpu) {
        st = p->spmv_host(in->fmt, x, y, &err);
    } else {
        if (spmvlab_dev_malloc(rt, &dx, (size_t)m->cols * vs, &err) ||
            spmvlab_dev_malloc(rt, &dy, (size_t)m->rows * vs, &err) ||
            spmvlab_dev_upload(rt, dx, x, (size_t)m->cols * vs, &err) ||
            spmvlab_dev_poison(rt, dy, (size_t)m->rows, m->dtype, &err) || spmvlab_dev_sync(rt, &err)) {
            snprintf(why, len, "setting up x and y on the device: %s", err.msg);
            goto out;
        }
        st = p->spmv(in->fmt, dx, dy, rt->stream, &err);
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
        snprintf(why, len, "%s returned %s: %s", fn, spmvlab_status_name(st), err.msg[0] ? err.msg : "(no sentence)");
        goto out;
    }
    spmvlab_verdict v;
    spmvlab_verify_stored(m, in->storage, y, ref, absum, &v);
    *ratio = v.max_ratio;
    if (v.nonfinite_ref) {
        snprintf(why, len, "the input holds NaN or Inf (%d rows have a non-finite reference)", v.nonfinite_ref);
        goto out;
    }
    if (!v.ok) {
        int32_t r = v.worst_row, rl = r >= 0 ? m->row_ptr[r + 1] - m->row_ptr[r] : 0;
        if (v.nan_rows)
            snprintf(why, len, "%s: %d rows not written or NaN (row %d of length %d holds %g, expected %.17g)", fn,
                     v.nan_rows, r, rl, v.y_worst, v.ref_worst);
        else
            snprintf(why, len,
                     "%s: %d rows beyond the error bound; worst row %d (length %d): %.17g, expected %.17g, %.3g x the bound",
                     fn, v.bad_rows, r, rl, v.y_worst, v.ref_worst, v.max_ratio);
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

/* Runs the instance twice on the host and, with --gpu, twice on the device;
 * which ("" or " (second instance)") tells the stages apart. Returns 0 or
 * -1 with the reason; *worst is the largest error ratio. */
static int exercise(const check_job *j, spmvlab_runtime *rt, spmvlab_instance *in, uint64_t seed, const char *which,
                    double *worst, char *why, size_t len)
{
    const spmvlab_plugin *p = in->plugin->desc;
    double ratio = 0;
    for (int pass = 0; pass < 2 && p->spmv_host; pass++) {
        if (run_and_verify(j, rt, in, 0, seed + (uint64_t)pass, which, &ratio, why, len))
            return -1;
        *worst = ratio > *worst ? ratio : *worst;
    }
    for (int pass = 0; j->gpu && pass < 2; pass++) {
        if (run_and_verify(j, rt, in, 1, seed + 10 + (uint64_t)pass, which, &ratio, why, len))
            return -1;
        *worst = ratio > *worst ? ratio : *worst;
    }
    return 0;
}

/* The reason a convert failed, in one line; returns the verdict it earns:
 * a clean refusal (unsupported or limit, with a sentence, nothing left
 * allocated) or a failure. */
static check_verdict judge_refusal(const wrapped *w, spmvlab_status st, const spmvlab_err *err, char *why, size_t len)
{
    if (w->left) {
        snprintf(why, len, "convert returned %s but left %zu bytes allocated (free everything on failure): %s",
                 spmvlab_status_name(st), w->left, err->msg);
        return CHECK_FAIL;
    }
    if (st != w->raw || !w->said) { /* the core refused, or the plugin gave no sentence */
        snprintf(why, len, "convert returned %s%s: %s", spmvlab_status_name(st),
                 st == w->raw ? " without a sentence" : "", err->msg);
        return CHECK_FAIL;
    }
    snprintf(why, len, "%s: %s", spmvlab_status_name(st), err->msg);
    if (st == SPMVLAB_UNSUPPORTED || st == SPMVLAB_LIMIT)
        return CHECK_REFUSED;
    snprintf(why, len, "convert returned %s: %s", spmvlab_status_name(st), err->msg);
    return CHECK_FAIL;
}

/* The plugin's log lines on one line, for -v. */
static void append_log(check_result *r, const spmvlab_instance *in)
{
    if (!in->log[0])
        return;
    size_t used = strlen(r->detail);
    snprintf(r->detail + used, sizeof r->detail - used, "; log: %s", in->log);
    for (char *c = r->detail + used; *c; c++)
        if (*c == '\n')
            *c = c[1] ? '|' : '\0';
}

static void do_case(const check_job *j, spmvlab_runtime *rt, check_result *r)
{
    const char *name = j->names[0];
    spmvlab_prepared pm;
    spmvlab_err err = {{0}};
    stage(j, "prepare");
    int prc = spmvlab_prepare(rt, j->mats[0], name, j->dtype, &pm, &err);
    if (prc == -2)
        return say(r, CHECK_SKIP, "%s", err.msg);
    if (prc)
        return say(r, CHECK_FAIL, "preparing the matrix: %s", err.msg);
    wrapped w;
    wrap(&w, j->plugin, 0);
    spmvlab_instance in;
    char why[SPMVLAB_ERR_LEN + 512] = "";
    stage(j, "convert");
    spmvlab_status st = spmvlab_instance_convert(&in, rt, &w.loaded, j->plugin->desc->name, j->opts, &pm, &err);
    if (st != SPMVLAB_OK) {
        check_verdict v = judge_refusal(&w, st, &err, why, sizeof why);
        spmvlab_prepared_free(&pm);
        return say(r, v, "%s", why);
    }
    double worst = 0;
    int bad = 0;
    stage(j, "footprint");
    size_t fp = spmvlab_instance_footprint(&in);
    if (fp != in.cur_bytes) {
        snprintf(why, sizeof why, "footprint() reports %zu bytes but the instance holds %zu bytes in %ld allocations",
                 fp, in.cur_bytes, in.live_allocs);
        bad = 1;
    }
    if (!bad && exercise(j, rt, &in, j->seed, "", &worst, why, sizeof why))
        bad = 1;
    char facts[256];
    stage(j, "describe");
    spmvlab_instance_describe(&in, facts, sizeof facts);
    double conv = in.convert_ms;
    char log[sizeof in.log];
    memcpy(log, in.log, sizeof log);
    stage(j, "destroy");
    size_t left = spmvlab_instance_destroy(&in);
    if (!bad && left) {
        snprintf(why, sizeof why, "destroy() left %zu bytes allocated", left);
        bad = 1;
    }
    if (bad)
        say(r, CHECK_FAIL, "%s", why);
    else
        say(r, CHECK_PASS, "error %.3g of bound, %zu bytes, convert %.2f ms %s", worst, fp, conv, facts);
    if (j->verbose) {
        memcpy(in.log, log, sizeof log);
        append_log(r, &in);
    }
    spmvlab_prepared_free(&pm);
}

/* Two instances with different options built on one matrix, alive at once:
 * both run and verify, the first is destroyed and the second must still
 * work, then both leave zero bytes. Tries the candidate matrices in order
 * until neither instance refuses. */
static void do_pair(const check_job *j, spmvlab_runtime *rt, check_result *r)
{
    char text_a[256], text_b[256], last[SPMVLAB_ERR_LEN + 512] = "no candidate matrix";
    spmvlab_optset_describe(j->opts, 1, text_a, sizeof text_a);
    spmvlab_optset_describe(j->opts_b, 1, text_b, sizeof text_b);
    const char *pname = j->plugin->desc->name;
    for (int k = 0; k < j->nmats; k++) {
        spmvlab_prepared pm;
        spmvlab_err err = {{0}};
        stage(j, "prepare");
        int prc = spmvlab_prepare(rt, j->mats[k], j->names[k], j->dtype, &pm, &err);
        if (prc == -2) {
            snprintf(last, sizeof last, "%s", err.msg);
            continue;
        }
        if (prc)
            return say(r, CHECK_FAIL, "preparing %s: %s", j->names[k], err.msg);
        wrapped wa, wb;
        wrap(&wa, j->plugin, 0);
        wrap(&wb, j->plugin, 0);
        spmvlab_instance a, b;
        char label_a[128], label_b[128], why[SPMVLAB_ERR_LEN + 512] = "";
        snprintf(label_a, sizeof label_a, "%s#1", pname);
        snprintf(label_b, sizeof label_b, "%s#2", pname);
        stage(j, "convert (first instance)");
        spmvlab_status sa = spmvlab_instance_convert(&a, rt, &wa.loaded, label_a, j->opts, &pm, &err);
        check_verdict va = sa == SPMVLAB_OK ? CHECK_PASS : judge_refusal(&wa, sa, &err, why, sizeof why);
        spmvlab_status sb = SPMVLAB_OK;
        check_verdict vb = CHECK_PASS;
        if (sa == SPMVLAB_OK) {
            stage(j, "convert (second instance)");
            sb = spmvlab_instance_convert(&b, rt, &wb.loaded, label_b, j->opts_b, &pm, &err);
            vb = sb == SPMVLAB_OK ? CHECK_PASS : judge_refusal(&wb, sb, &err, why, sizeof why);
        }
        if (va != CHECK_PASS || vb != CHECK_PASS) {
            if (sa == SPMVLAB_OK) {
                stage(j, "destroy (first instance)");
                spmvlab_instance_destroy(&a);
            }
            spmvlab_prepared_free(&pm);
            if (va == CHECK_FAIL || vb == CHECK_FAIL)
                return say(r, CHECK_FAIL, "%s", why);
            snprintf(last, sizeof last, "%s", why);
            continue;
        }
        double wa_ratio = 0, wb_ratio = 0;
        int bad = 0;
        stage(j, "footprint");
        size_t fa = spmvlab_instance_footprint(&a), fb = spmvlab_instance_footprint(&b);
        if (fa != a.cur_bytes || fb != b.cur_bytes) {
            snprintf(why, sizeof why, "footprints %zu and %zu bytes but the instances hold %zu and %zu bytes", fa, fb,
                     a.cur_bytes, b.cur_bytes);
            bad = 1;
        }
        if (!bad && exercise(j, rt, &a, j->seed + 100, " (first instance)", &wa_ratio, why, sizeof why))
            bad = 1;
        if (!bad && exercise(j, rt, &b, j->seed + 200, " (second instance)", &wb_ratio, why, sizeof why))
            bad = 1;
        stage(j, "destroy (first instance)");
        size_t left_a = spmvlab_instance_destroy(&a);
        if (!bad && exercise(j, rt, &b, j->seed + 300, " (second instance, after the first was destroyed)",
                             &wb_ratio, why, sizeof why)) {
            size_t n = strlen(why);
            snprintf(why + n, sizeof why - n, " (second instance, after the first was destroyed)");
            bad = 1;
        }
        stage(j, "destroy (second instance)");
        size_t left_b = spmvlab_instance_destroy(&b);
        if (!bad && (left_a || left_b)) {
            snprintf(why, sizeof why, "destroy() left %zu and %zu bytes allocated", left_a, left_b);
            bad = 1;
        }
        spmvlab_prepared_free(&pm);
        if (bad)
            return say(r, CHECK_FAIL, "[%s] and [%s] on %s: %s", text_a[0] ? text_a : "defaults",
                       text_b[0] ? text_b : "defaults", j->names[k], why);
        return say(r, CHECK_PASS, "[%s] and [%s] side by side on %s: errors %.3g and %.3g of bound",
                   text_a[0] ? text_a : "defaults", text_b[0] ? text_b : "defaults", j->names[k], wa_ratio, wb_ratio);
    }
    say(r, CHECK_REFUSED, "no candidate matrix took both instances; last: %s", last);
}

/* A dtype the plugin does not declare, handed to its convert directly: it
 * must answer with a status and a sentence and hold nothing afterwards. */
static void do_undeclared(const check_job *j, spmvlab_runtime *rt, check_result *r)
{
    static const int32_t ri[] = {0, 0, 1, 2, 2, 4, 5, 5};
    static const int32_t ci[] = {0, 3, 1, 0, 4, 2, 3, 4};
    static const double v[] = {1.0, -0.5, 2.0, 0.25, -1.5, 0.75, 1.25, -2.0};
    spmvlab_csr A;
    spmvlab_err err = {{0}};
    if (spmvlab_csr_build(&A, 6, 5, sizeof ri / sizeof *ri, ri, ci, v, &err))
        return say(r, CHECK_FAIL, "building the probe matrix: %s", err.msg);
    spmvlab_prepared pm;
    stage(j, "prepare");
    if (spmvlab_prepare(rt, &A, "small_6x5", j->dtype, &pm, &err)) {
        spmvlab_csr_free(&A);
        return say(r, CHECK_FAIL, "preparing the probe matrix: %s", err.msg);
    }
    wrapped w;
    wrap(&w, j->plugin, 1);
    spmvlab_instance in;
    stage(j, "convert");
    spmvlab_status st = spmvlab_instance_convert(&in, rt, &w.loaded, j->plugin->desc->name, j->opts, &pm, &err);
    if (st == SPMVLAB_OK) {
        stage(j, "destroy");
        spmvlab_instance_destroy(&in);
        say(r, CHECK_FAIL, "convert accepted dtype %s, which the plugin does not declare; refuse it with "
                           "SPMVLAB_UNSUPPORTED and a sentence",
            spmvlab_dtype_name(j->dtype));
    } else if (!w.said) {
        say(r, CHECK_FAIL, "convert refused dtype %s with status %s but without a sentence",
            spmvlab_dtype_name(j->dtype), spmvlab_status_name(w.raw));
    } else if (w.left) {
        say(r, CHECK_FAIL, "convert refused dtype %s but left %zu bytes allocated", spmvlab_dtype_name(j->dtype),
            w.left);
    } else {
        say(r, CHECK_PASS, "refused with %s: %s", spmvlab_status_name(st), err.msg);
    }
    spmvlab_prepared_free(&pm);
    spmvlab_csr_free(&A);
}

void check_job_execute(const check_job *j, check_result *r)
{
    memset(r, 0, sizeof *r);
    spmvlab_err err = {{0}};
    if (j->kind == CHECK_LOAD) {
        stage(j, "loading the plugin");
        const spmvlab_loaded *pl = strchr(j->target, '/') || strstr(j->target, ".so")
                                       ? spmvlab_registry_load_file(j->reg, j->target, &err)
                                       : spmvlab_registry_get(j->reg, j->target, &err);
        if (!pl)
            return say(r, CHECK_FAIL, "%s", err.msg);
        return say(r, CHECK_PASS, "%s", pl->path);
    }
    spmvlab_runtime rt;
    stage(j, "opening the runtime");
    int orc = spmvlab_runtime_open(&rt, j->gpu ? 2 : 0, 0, &err);
    if (j->kind == CHECK_DEVICE) {
        if (orc == 0)
            say(r, CHECK_PASS, "%s (compute capability %d.%d, %d SMs)", rt.device.name, rt.device.cc_major,
                rt.device.cc_minor, rt.device.sm_count);
        else
            say(r, orc == 1 ? CHECK_SKIP : CHECK_FAIL, "%s", err.msg);
        if (orc == 0)
            spmvlab_runtime_close(&rt);
        return;
    }
    if (orc)
        return say(r, CHECK_FAIL, "opening the runtime: %s", err.msg);
    if (j->kind == CHECK_CASE)
        do_case(j, &rt, r);
    else if (j->kind == CHECK_PAIR)
        do_pair(j, &rt, r);
    else
        do_undeclared(j, &rt, r);
    stage(j, "closing the runtime");
    spmvlab_runtime_close(&rt);
}
