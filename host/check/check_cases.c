/*
 * The conformance checks themselves (see check_cases.h), each a sequence of
 * trials (spmvlab/trial.h): the same prepare, convert and verify steps as
 * `spmvlab run`. Each check opens its own runtime, so that in --gpu mode
 * CUDA is only ever initialised inside the child process that runs it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_cases.h"
#include "spmvlab/trial.h"

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

/* Runs the instance with a fresh x (seed) on the host or the device and
 * checks y. Returns 0 when within the bound, else -1 with the reason. */
static int run_once(const check_job *j, spmvlab_trial *t, const spmvlab_instance *in, spmvlab_trial_run how,
                    uint64_t seed, const char *which, double *worst, char *why, size_t len)
{
    const char *fn = how == SPMVLAB_TRIAL_HOST ? "spmv_host" : "spmv";
    spmvlab_err err = {{0}};
    spmvlab_trial_check c;
    if (spmvlab_trial_reseed(t, seed, &err) != SPMVLAB_RESULT_OK) {
        snprintf(why, len, "setting up x on the device: %s", err.msg);
        return -1;
    }
    char step[160];
    snprintf(step, sizeof step, "%s%s", fn, which);
    stage(j, step);
    spmvlab_result o = spmvlab_trial_verify(t, in, NULL, how, &c, &err);
    if (c.compared && c.verdict.max_ratio > *worst)
        *worst = c.verdict.max_ratio;
    if (o == SPMVLAB_RESULT_OK)
        return 0;
    if (c.call_failed)
        snprintf(why, len, "%s returned %s: %s", fn, spmvlab_result_name(o), err.msg);
    else
        snprintf(why, len, "%s", err.msg);
    return -1;
}

/* Runs the instance twice on the host and, with --gpu, twice on the device;
 * which ("" or " (second instance)") tells the stages apart. Returns 0 or
 * -1 with the reason; *worst is the largest error ratio. */
static int exercise(const check_job *j, spmvlab_trial *t, const spmvlab_instance *in, uint64_t seed,
                    const char *which, double *worst, char *why, size_t len)
{
    for (int pass = 0; pass < 2 && in->plugin->desc->spmv_host; pass++)
        if (run_once(j, t, in, SPMVLAB_TRIAL_HOST, seed + (uint64_t)pass, which, worst, why, len))
            return -1;
    for (int pass = 0; j->gpu && pass < 2; pass++)
        if (run_once(j, t, in, SPMVLAB_TRIAL_DEVICE, seed + 10 + (uint64_t)pass, which, worst, why, len))
            return -1;
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
    spmvlab_trial t;
    spmvlab_err err = {{0}};
    stage(j, "prepare");
    spmvlab_result o = spmvlab_trial_open(&t, rt, j->mats[0], j->names[0], j->dtype, j->seed, &err);
    if (o == SPMVLAB_RESULT_BAD_INPUT)
        return say(r, CHECK_SKIP, "%s", err.msg);
    if (o != SPMVLAB_RESULT_OK)
        return say(r, CHECK_FAIL, "preparing the matrix: %s", err.msg);
    wrapped w;
    wrap(&w, j->plugin, 0);
    spmvlab_instance in;
    spmvlab_conversion conv;
    char why[SPMVLAB_ERR_LEN + 512] = "";
    stage(j, "convert");
    o = spmvlab_trial_convert(&t, &in, &w.loaded, j->plugin->desc->name, j->opts, &conv, &err);
    if (o != SPMVLAB_RESULT_OK) {
        check_verdict v = judge_refusal(&w, (spmvlab_status)o, &err, why, sizeof why);
        spmvlab_trial_close(&t);
        return say(r, v, "%s", why);
    }
    double worst = 0;
    int bad = !conv.footprint_matches;
    if (bad)
        snprintf(why, sizeof why, "%s", conv.note);
    if (!bad && exercise(j, &t, &in, j->seed, "", &worst, why, sizeof why))
        bad = 1;
    char facts[256];
    stage(j, "describe");
    spmvlab_instance_describe(&in, facts, sizeof facts);
    double ms = in.convert_ms;
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
        say(r, CHECK_PASS, "error %.3g of bound, %zu bytes, convert %.2f ms %s", worst, conv.footprint, ms, facts);
    if (j->verbose) {
        memcpy(in.log, log, sizeof log);
        append_log(r, &in);
    }
    spmvlab_trial_close(&t);
}

/* Converts both instances of a pair through the wrappers wa and wb, which
 * the instances point at while they live; CHECK_PASS when both converted,
 * else the verdict of the refusal (the first instance destroyed again). */
static check_verdict convert_pair(const check_job *j, spmvlab_trial *t, wrapped *wa, wrapped *wb, spmvlab_instance *a,
                                  spmvlab_instance *b, spmvlab_conversion *ca, spmvlab_conversion *cb, char *why,
                                  size_t len)
{
    const char *pname = j->plugin->desc->name;
    char label_a[128], label_b[128];
    snprintf(label_a, sizeof label_a, "%s#1", pname);
    snprintf(label_b, sizeof label_b, "%s#2", pname);
    wrap(wa, j->plugin, 0);
    wrap(wb, j->plugin, 0);
    spmvlab_err err = {{0}};
    stage(j, "convert (first instance)");
    spmvlab_result o = spmvlab_trial_convert(t, a, &wa->loaded, label_a, j->opts, ca, &err);
    if (o != SPMVLAB_RESULT_OK)
        return judge_refusal(wa, (spmvlab_status)o, &err, why, len);
    stage(j, "convert (second instance)");
    o = spmvlab_trial_convert(t, b, &wb->loaded, label_b, j->opts_b, cb, &err);
    if (o == SPMVLAB_RESULT_OK)
        return CHECK_PASS;
    check_verdict v = judge_refusal(wb, (spmvlab_status)o, &err, why, len);
    stage(j, "destroy (first instance)");
    spmvlab_instance_destroy(a);
    return v;
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
    const char *da = text_a[0] ? text_a : "defaults", *db = text_b[0] ? text_b : "defaults";
    for (int k = 0; k < j->nmats; k++) {
        spmvlab_trial t;
        spmvlab_err err = {{0}};
        stage(j, "prepare");
        spmvlab_result o = spmvlab_trial_open(&t, rt, j->mats[k], j->names[k], j->dtype, j->seed + 100, &err);
        if (o == SPMVLAB_RESULT_BAD_INPUT) {
            snprintf(last, sizeof last, "%s", err.msg);
            continue;
        }
        if (o != SPMVLAB_RESULT_OK)
            return say(r, CHECK_FAIL, "preparing %s: %s", j->names[k], err.msg);
        wrapped wa, wb;
        spmvlab_instance a, b;
        spmvlab_conversion ca, cb;
        char why[SPMVLAB_ERR_LEN + 512] = "";
        check_verdict v = convert_pair(j, &t, &wa, &wb, &a, &b, &ca, &cb, why, sizeof why);
        if (v != CHECK_PASS) {
            spmvlab_trial_close(&t);
            if (v == CHECK_FAIL)
                return say(r, CHECK_FAIL, "%s", why);
            snprintf(last, sizeof last, "%s", why);
            continue;
        }
        double wa_ratio = 0, wb_ratio = 0;
        int bad = !ca.footprint_matches || !cb.footprint_matches;
        if (bad)
            snprintf(why, sizeof why, "%s", !ca.footprint_matches ? ca.note : cb.note);
        if (!bad && exercise(j, &t, &a, j->seed + 100, " (first instance)", &wa_ratio, why, sizeof why))
            bad = 1;
        if (!bad && exercise(j, &t, &b, j->seed + 200, " (second instance)", &wb_ratio, why, sizeof why))
            bad = 1;
        stage(j, "destroy (first instance)");
        size_t left_a = spmvlab_instance_destroy(&a);
        if (!bad && exercise(j, &t, &b, j->seed + 300, " (second instance, after the first was destroyed)",
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
        spmvlab_trial_close(&t);
        if (bad)
            return say(r, CHECK_FAIL, "[%s] and [%s] on %s: %s", da, db, j->names[k], why);
        return say(r, CHECK_PASS, "[%s] and [%s] side by side on %s: errors %.3g and %.3g of bound", da, db,
                   j->names[k], wa_ratio, wb_ratio);
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
    spmvlab_trial t;
    stage(j, "prepare");
    if (spmvlab_trial_open(&t, rt, &A, "small_6x5", j->dtype, j->seed, &err) != SPMVLAB_RESULT_OK) {
        spmvlab_csr_free(&A);
        return say(r, CHECK_FAIL, "preparing the probe matrix: %s", err.msg);
    }
    wrapped w;
    wrap(&w, j->plugin, 1);
    spmvlab_instance in;
    spmvlab_conversion conv;
    stage(j, "convert");
    spmvlab_result o = spmvlab_trial_convert(&t, &in, &w.loaded, j->plugin->desc->name, j->opts, &conv, &err);
    if (o == SPMVLAB_RESULT_OK) {
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
        say(r, CHECK_PASS, "refused with %s: %s", spmvlab_result_name(o), err.msg);
    }
    spmvlab_trial_close(&t);
    spmvlab_csr_free(&A);
}

int check_target_is_file(const char *target)
{
    size_t n = strlen(target);
    return n >= 3 && strcmp(target + n - 3, ".so") == 0;
}

const spmvlab_loaded *check_load_target(spmvlab_registry *reg, const char *target, spmvlab_err *err)
{
    return check_target_is_file(target) ? spmvlab_registry_load_file(reg, target, err)
                                        : spmvlab_registry_get(reg, target, err);
}

void check_job_execute(const check_job *j, check_result *r)
{
    memset(r, 0, sizeof *r);
    spmvlab_err err = {{0}};
    if (j->kind == CHECK_LOAD) {
        stage(j, "loading the plugin");
        const spmvlab_loaded *pl = check_load_target(j->reg, j->target, &err);
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
    if (spmvlab_runtime_fault(&rt, j->plugin->desc->name, &err)) {
        say(r, CHECK_FAIL, "device-fault: the plugin left the CUDA context unusable: %s (the remaining cases run "
                           "in a fresh process)", err.msg);
        r->context_lost = 1;
    }
    stage(j, "closing the runtime");
    spmvlab_runtime_close(&rt);
}
