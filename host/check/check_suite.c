/*
 * The conformance driver: plans the checks (one case = the plugin on one
 * matrix in one dtype; plus two instances side by side and the refusal of
 * undeclared dtypes), runs each in a child process with a time limit so a
 * crash or a hang costs one line, and prints the pass/fail list.
 *
 * CUDA does not survive fork(): in --gpu mode this process never touches
 * the device; each child opens it (check_cases.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spmvlab/cache.h"
#include "check_cases.h"
#include "check_child.h"
#include "check_suite.h"
#include "check_variant.h"
#include "exit_codes.h"
#include "spmvlab/edge.h"
#include "spmvlab/gen.h"
#include "spmvlab/sandbox.h"

#define CHECK_LISTED_FAILURES 8 /* named in the summary line; the rest counted */

typedef struct tally {
    int passed, refused, skipped, failed;
    char failures[CHECK_LISTED_FAILURES * 80]; /* "f64 no_nonzeros_37x41, ..." for the summary */
} tally;

/* One line of the list: verdict, dtype, what was checked, detail. */
static void report(tally *t, const check_result *r, const char *dtype, const char *what)
{
    static const char *const names[] = {"PASS", "REFUSED", "FAIL", "skip"};
    if (r->verdict == CHECK_PASS)
        t->passed++;
    else if (r->verdict == CHECK_REFUSED)
        t->refused++;
    else if (r->verdict == CHECK_SKIP)
        t->skipped++;
    else {
        size_t used = strlen(t->failures);
        if (t->failed < CHECK_LISTED_FAILURES)
            snprintf(t->failures + used, sizeof t->failures - used, "%s%s %.60s", used ? ", " : "", dtype, what);
        t->failed++;
    }
    printf("%-7s %-4s %-28s %s\n", names[r->verdict], dtype, what, r->detail);
}

static uint32_t case_dtypes(const spmvlab_plugin *p, const check_settings *o);
static void check_matrix(tally *t, const check_settings *o, check_job *base, const spmvlab_csr *A, const char *name);

/* ---- batches: many cases in one child ------------------------------------
 * A child per case costs a CUDA context per case on the GPU (a quarter of a
 * second each). So cases are queued and a child works through the queue,
 * writing one result after each case, with the time limit restarting at
 * every result. When a child dies, the results it wrote stand, the case it
 * was on is reported as the failure, and a fresh child takes the rest; so
 * does a child that reported a device fault, whose CUDA context is lost. */

#define BATCH_MAX_JOBS 128
#define CHECK_CHILD_FAULTED 75  /* a child's exit after a device fault: a fresh child takes the rest */
#define BATCH_MAX_NNZ 16000000L /* matrices a child inherits, in non-zeros */

typedef struct queued {
    check_job job;
    spmvlab_csr A;              /* owned */
    const spmvlab_csr *mat;     /* &A, for job.mats */
    char name[128];
    const char *name_ptr;       /* name, for job.names */
} queued;

typedef struct batch {
    queued *q[BATCH_MAX_JOBS];
    int n;
    long nnz;
    const check_settings *o;
    tally *t;
    int from;                   /* first job the next child runs */
} batch;

static int batch_main(void *arg, int out_fd)
{
    batch *b = arg;
    dup2(STDERR_FILENO, STDOUT_FILENO);
    for (int i = b->from; i < b->n; i++) {
        check_result r;
        check_job_execute(&b->q[i]->job, &r);
        if (check_write_result(out_fd, &r))
            return 3;
        if (r.context_lost)
            return CHECK_CHILD_FAULTED;
    }
    return 0;
}

static void batch_report(batch *b, int i, const check_result *r)
{
    report(b->t, r, spmvlab_dtype_name(b->q[i]->job.dtype), b->q[i]->name);
}

/* Runs every queued case, in children, and reports them in order. */
static void batch_flush(batch *b)
{
    b->from = 0;
    while (b->from < b->n) {
        spmvlab_sandbox_result sr;
        spmvlab_err err = {{0}};
        for (int i = b->from; i < b->n; i++)
            b->q[i]->job.sandboxed = 1;
        if (spmvlab_sandbox_run_ex(batch_main, b, b->o->timeout_s, 1, &sr, &err)) {
            check_result fail = {CHECK_FAIL, "", 0};
            snprintf(fail.detail, sizeof fail.detail, "%s", err.msg);
            for (int i = b->from; i < b->n; i++)
                batch_report(b, i, &fail);
            break;
        }
        int done = (int)(sr.output_len / sizeof(check_result));
        for (int k = 0; k < done && b->from + k < b->n; k++) {
            check_result r;
            memcpy(&r, sr.output + (size_t)k * sizeof r, sizeof r);
            batch_report(b, b->from + k, &r);
        }
        b->from += done;
        int faulted = sr.end == SPMVLAB_SANDBOX_EXITED && sr.exit_code == CHECK_CHILD_FAULTED && done > 0;
        if (b->from < b->n && !faulted) { /* the child ended during case b->from */
            check_result r;
            check_child_failure(&sr, b->o->timeout_s, &r);
            batch_report(b, b->from, &r);
            b->from++;
        }
        free(sr.output);
    }
    for (int i = 0; i < b->n; i++) {
        spmvlab_csr_free(&b->q[i]->A);
        free(b->q[i]);
    }
    b->n = 0;
    b->nnz = 0;
}

/* Queues one case per dtype on A (taking A over), running the queue first
 * when it is full. With --no-fork the cases run here at once. */
static void batch_add(batch *b, check_job *base, spmvlab_csr *A, const char *name)
{
    const check_settings *o = b->o;
    int ndt = 0;
    for (int d = 0; d < 3; d++)
        ndt += (case_dtypes(base->plugin->desc, o) & SPMVLAB_DTYPE_BIT(d)) != 0;
    if (o->no_fork || ndt == 0) {
        check_matrix(b->t, o, base, A, name);
        spmvlab_csr_free(A);
        return;
    }
    if (b->n + ndt > BATCH_MAX_JOBS || (b->n && b->nnz + (long)A->nnz * ndt > BATCH_MAX_NNZ))
        batch_flush(b);
    int first = 1;
    for (int d = 0; d < 3; d++) {
        if (!(case_dtypes(base->plugin->desc, o) & SPMVLAB_DTYPE_BIT(d)))
            continue;
        queued *q = calloc(1, sizeof *q);
        if (!q) {
            check_result fail = {CHECK_FAIL, "out of host memory", 0};
            report(b->t, &fail, spmvlab_dtype_name((spmvlab_dtype)d), name);
            continue;
        }
        if (first)
            q->A = *A; /* the first job owns the matrix; the others share it */
        q->mat = first ? &q->A : b->q[b->n - 1]->mat;
        snprintf(q->name, sizeof q->name, "%s", name);
        q->name_ptr = q->name;
        q->job = *base;
        q->job.kind = CHECK_CASE;
        q->job.mats = &q->mat;
        q->job.names = &q->name_ptr;
        q->job.nmats = 1;
        q->job.dtype = (spmvlab_dtype)d;
        b->q[b->n++] = q;
        b->nnz += A->nnz;
        first = 0;
    }
    memset(A, 0, sizeof *A);
}

/* Applies --option to opts; returns 0 or the exit code after a message. */
static int apply_sets(const spmvlab_plugin *p, spmvlab_optset *opts, const check_settings *o)
{
    spmvlab_err err;
    for (int i = 0; i < o->nsets; i++) {
        char kv[256];
        snprintf(kv, sizeof kv, "%s", o->sets[i]);
        char *eq = strchr(kv, '=');
        if (!eq) {
            fprintf(stderr, "spmvlab check: --option %s is not of the form KEY=VALUE.\n", o->sets[i]);
            return EXIT_USAGE;
        }
        *eq = '\0';
        if (spmvlab_optset_set(opts, p->name, kv, eq + 1, &err)) {
            fprintf(stderr, "spmvlab check: %s.\n", err.msg);
            return EXIT_USAGE;
        }
    }
    if (p->check_options && p->check_options(&opts->opts, &err) != SPMVLAB_OK) {
        fprintf(stderr, "spmvlab check: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    return 0;
}

/* The dtypes to run cases in (declared and asked for). */
static uint32_t case_dtypes(const spmvlab_plugin *p, const check_settings *o)
{
    return p->dtypes & (o->dtype_mask ? o->dtype_mask : 7u);
}

/* One case per dtype on matrix A. */
static void check_matrix(tally *t, const check_settings *o, check_job *base, const spmvlab_csr *A, const char *name)
{
    for (int d = 0; d < 3; d++) {
        if (!(case_dtypes(base->plugin->desc, o) & SPMVLAB_DTYPE_BIT(d)))
            continue;
        check_job j = *base;
        j.kind = CHECK_CASE;
        j.mats = &A;
        j.names = &name;
        j.nmats = 1;
        j.dtype = (spmvlab_dtype)d;
        check_result r;
        check_run_job(o, &j, &r);
        report(t, &r, spmvlab_dtype_name(j.dtype), name);
    }
}

/* Two instances side by side (per dtype) on the first of these matrices
 * that the plugin takes (edge cases by name; a stencil for banded formats);
 * then the refusal of every undeclared dtype. */
static void check_extras(tally *t, const check_settings *o, check_job *base, const spmvlab_optset *opts)
{
    static const char *const wanted[] = {"power_law", "uniform", "stencil2d5_40", "diagonal"};
    enum { NWANT = sizeof wanted / sizeof *wanted };
    const spmvlab_plugin *p = base->plugin->desc;
    spmvlab_csr mats[NWANT];
    const spmvlab_csr *mp[NWANT];
    const char *names[NWANT];
    int n = 0;
    spmvlab_err err;
    for (int w = 0; w < NWANT; w++) {
        if (strcmp(wanted[w], "stencil2d5_40") == 0) {
            spmvlab_gen_params gp = {0};
            if (spmvlab_gen_params_parse(&gp, "n=40", &err) == 0 && spmvlab_gen("stencil2d5", &gp, &mats[n], &err) == 0) {
                mp[n] = &mats[n];
                names[n++] = wanted[w];
            }
            continue;
        }
        for (int e = 0; e < spmvlab_edge_count(); e++)
            if (strncmp(spmvlab_edge_name(e), wanted[w], strlen(wanted[w])) == 0 &&
                spmvlab_edge_build(e, &mats[n], &err) == 0) {
                mp[n] = &mats[n];
                names[n++] = spmvlab_edge_name(e);
                break;
            }
    }
    /* The pair: the --option options against the defaults, or the defaults
     * against a variant that changes one option. */
    spmvlab_optset other;
    int have_other = 0;
    if (o->nsets && spmvlab_optset_init(&other, p, &err) == 0) {
        have_other = 1;
        if (!check_options_differ(opts, &other)) {
            spmvlab_optset_free(&other);
            check_make_variant(p, opts, &other);
        }
    } else if (spmvlab_optset_copy(&other, opts, &err) == 0) {
        have_other = 1;
        spmvlab_optset_free(&other);
        check_make_variant(p, opts, &other);
    }
    for (int d = 0; have_other && n && d < 3; d++) {
        if (!(case_dtypes(p, o) & SPMVLAB_DTYPE_BIT(d)))
            continue;
        check_job j = *base;
        j.kind = CHECK_PAIR;
        j.opts_b = &other;
        j.mats = mp;
        j.names = names;
        j.nmats = n;
        j.dtype = (spmvlab_dtype)d;
        check_result r;
        check_run_job(o, &j, &r);
        report(t, &r, spmvlab_dtype_name(j.dtype), "two_instances");
    }
    if (have_other)
        spmvlab_optset_free(&other);
    for (int k = 0; k < n; k++)
        spmvlab_csr_free(&mats[k]);
    for (int d = 0; d < 3; d++) {
        if ((p->dtypes & SPMVLAB_DTYPE_BIT(d)) || (o->dtype_mask && !(o->dtype_mask & SPMVLAB_DTYPE_BIT(d))))
            continue;
        check_job j = *base;
        j.kind = CHECK_UNDECLARED;
        j.dtype = (spmvlab_dtype)d;
        check_result r;
        check_run_job(o, &j, &r);
        report(t, &r, spmvlab_dtype_name(j.dtype), "undeclared_dtype");
    }
}

int check_run(spmvlab_registry *reg, const char *target, const check_settings *o)
{
    check_job base;
    memset(&base, 0, sizeof base);
    base.gpu = o->gpu;
    base.verbose = o->verbose;
    base.seed = o->seed;
    base.reg = reg;
    base.target = target;
    check_result r;
    /* Load once in a child first, so a plugin that crashes while loading is
     * reported, then here. */
    base.kind = CHECK_LOAD;
    if (!o->no_fork) {
        check_run_job(o, &base, &r);
        if (r.verdict != CHECK_PASS) {
            printf("FAIL    load: %s\n", r.detail);
            return EXIT_FAILED;
        }
    }
    spmvlab_err err;
    const spmvlab_loaded *pl = check_load_target(reg, target, &err);
    if (!pl) {
        printf("FAIL    load: %s\n", err.msg);
        return EXIT_FAILED;
    }
    const spmvlab_plugin *p = pl->desc;
    base.plugin = pl;
    printf("checking %s %s (ABI %u.%u) from %s\n", p->name, p->version, p->abi_major, p->abi_minor, pl->path);
    if (!p->spmv_host && !o->gpu) {
        printf("FAIL    the plugin has no spmv_host: the CPU execution of the format is required\n");
        return EXIT_FAILED;
    }
    spmvlab_optset opts;
    if (spmvlab_optset_init(&opts, p, &err)) {
        printf("FAIL    options: %s\n", err.msg);
        return EXIT_FAILED;
    }
    int rc = apply_sets(p, &opts, o);
    if (rc) {
        spmvlab_optset_free(&opts);
        return rc;
    }
    base.opts = &opts;
    char mode[sizeof r.detail] = "CPU (spmv_host; device memory emulated on the host)";
    if (o->gpu) {
        base.kind = CHECK_DEVICE;
        check_run_job(o, &base, &r);
        if (r.verdict != CHECK_PASS) {
            printf("%s: --gpu asked for the GPU path but %s\n", r.verdict == CHECK_SKIP ? "skipped" : "FAIL", r.detail);
            spmvlab_optset_free(&opts);
            return r.verdict == CHECK_SKIP ? EXIT_SKIPPED : EXIT_FAILED;
        }
        snprintf(mode, sizeof mode, "%s", r.detail);
    }
    char text[512];
    spmvlab_optset_describe(&opts, 0, text, sizeof text);
    printf("options: %s\nmode: %s%s%s\n", text[0] ? text : "(none)", mode, o->gpu ? " and spmv_host" : "",
           o->no_fork ? "; checks run in this process (--no-fork)" : "");
    if (!p->spmv_host)
        printf("note: the plugin has no spmv_host; only the GPU path is checked\n");
    tally t;
    memset(&t, 0, sizeof t);
    batch queue;
    memset(&queue, 0, sizeof queue);
    queue.o = o;
    queue.t = &t;
    for (int e = 0; o->edge_cases && e < spmvlab_edge_count(); e++) {
        spmvlab_csr A;
        if (spmvlab_edge_build(e, &A, &err)) {
            check_result fail = {CHECK_FAIL, "", 0};
            snprintf(fail.detail, sizeof fail.detail, "%s", err.msg);
            report(&t, &fail, "-", spmvlab_edge_name(e));
            continue;
        }
        batch_add(&queue, &base, &A, spmvlab_edge_name(e));
    }
    for (int f = 0; f < o->npaths; f++) {
        char label[128];
        spmvlab_matrix_label(o->paths[f], label, sizeof label);
        spmvlab_csr A;
        int lrc = spmvlab_matrix_load(o->paths[f], &A, &err);
        if (lrc) {
            check_result note = {lrc == -2 ? CHECK_SKIP : CHECK_FAIL, "", 0};
            snprintf(note.detail, sizeof note.detail, "%s", err.msg);
            report(&t, &note, "-", label);
            continue;
        }
        if (o->max_nnz && A.nnz > o->max_nnz) {
            if (o->verbose)
                printf("skip    -    %-28s %d non-zeros > --max-nnz\n", label, A.nnz);
            spmvlab_csr_free(&A);
        } else
            batch_add(&queue, &base, &A, label);
    }
    batch_flush(&queue);
    if (o->edge_cases)
        check_extras(&t, o, &base, &opts);
    char more[48] = "";
    if (t.failed > CHECK_LISTED_FAILURES)
        snprintf(more, sizeof more, " and %d more", t.failed - CHECK_LISTED_FAILURES);
    printf("%s: %d passed, %d refused cleanly, %d skipped, %d failed%s%s%s\n", t.failed ? "FAILED" : "PASSED",
           t.passed, t.refused, t.skipped, t.failed, t.failed ? ": " : "", t.failures, more);
    spmvlab_optset_free(&opts);
    return t.failed ? EXIT_FAILED : EXIT_OK;
}
