/*
 * The timing rounds of a group on the GPU (docs/design.md §6, docs/methodology.md): warm-up,
 * a batch size per instance so one back-to-back sample lasts about 1 ms,
 * the batch captured once as a CUDA graph, then rounds in which every
 * instance in turn gives one single-launch sample (its own event pair,
 * host launch cost included) and one back-to-back sample (batch_n calls
 * between one event pair, divided by batch_n). The order rotates from
 * round to round so no instance always follows the same one.
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/bandwidth.h"
#include "spmvlab/bound.h"
#include "spmvlab/stats.h"
#include "spmvlab/trial.h"

#define BATCH_TARGET_MS 1.0 /* a back-to-back sample lasts about this long */
#define BATCH_MAX 1000      /* calls per back-to-back sample */
#define MIN_ROUNDS 10       /* before the time budget may end the rounds */

typedef struct timer {
    cudaEvent_t e0, e1;
} timer;

static cudaStream_t stream_of(const spmvlab_trial_group *g) { return (cudaStream_t)g->rt->stream; }

/* 0 for cudaSuccess; else the member fails naming the call. */
static int cuda_check(spmvlab_trial_member *mb, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    cudaGetLastError();
    spmvlab_member_fail(mb, e == cudaErrorMemoryAllocation ? SPMVLAB_RESULT_NOMEM : SPMVLAB_RESULT_CUDA_ERROR,
                        "%s on %s: %s failed: %s", mb->in.label, mb->in.matrix->name, what,
                        cudaGetErrorString(e));
    return -1;
}

/* One call of the instance on the group's stream (the runtime's), the
 * permutations of ORDER+call included. */
static int call_spmv(spmvlab_trial_member *mb, const spmvlab_trial *tr)
{
    spmvlab_err err = {{0}};
    spmvlab_status st = spmvlab_instance_spmv(&mb->in, tr->dx, mb->dy, &err);
    if (st == SPMVLAB_OK)
        return 0;
    spmvlab_member_fail(mb, spmvlab_result_of(st), "%s", err.msg[0] ? err.msg : "spmv failed without a sentence");
    return -1;
}

/* n calls back to back (the graph when there is one) between two events. */
static int time_batch(const spmvlab_trial_group *g, spmvlab_trial_member *mb, const spmvlab_trial *tr, timer *t, int n,
                      int use_graph, double *ms)
{
    cudaStream_t s = stream_of(g);
    if (cuda_check(mb, cudaStreamSynchronize(s), "cudaStreamSynchronize") ||
        cuda_check(mb, cudaEventRecord(t->e0, s), "cudaEventRecord"))
        return -1;
    if (use_graph && mb->graph_exec) {
        if (cuda_check(mb, cudaGraphLaunch((cudaGraphExec_t)mb->graph_exec, s), "cudaGraphLaunch"))
            return -1;
    } else {
        for (int k = 0; k < n; k++)
            if (call_spmv(mb, tr))
                return -1;
    }
    float f = 0;
    if (cuda_check(mb, cudaEventRecord(t->e1, s), "cudaEventRecord") ||
        cuda_check(mb, cudaEventSynchronize(t->e1), "the spmv kernels") ||
        cuda_check(mb, cudaEventElapsedTime(&f, t->e0, t->e1), "cudaEventElapsedTime"))
        return -1;
    *ms = f / n;
    return 0;
}

/* The stream idle, then: event, spmv, event. ms = time between events, which
 * holds the host's launch work because the GPU waits for it. */
static int time_single(const spmvlab_trial_group *g, spmvlab_trial_member *mb, const spmvlab_trial *tr, timer *t,
                       double *ms)
{
    return time_batch(g, mb, tr, t, 1, 0, ms);
}

/* Captures batch_n calls as a graph; on any refusal falls back to stream
 * launches (noted in batch_method). */
static void capture_graph(const spmvlab_trial_group *g, spmvlab_trial_member *mb, const spmvlab_trial *tr)
{
    cudaStream_t s = stream_of(g);
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    spmvlab_err err = {{0}};
    spmvlab_status st = SPMVLAB_OK;
    cudaStreamSynchronize(s);
    cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    if (e == cudaSuccess) {
        for (int k = 0; k < mb->res.batch_n && st == SPMVLAB_OK; k++)
            st = spmvlab_instance_spmv(&mb->in, tr->dx, mb->dy, &err); /* with an ORDER+call permutation */
        e = cudaStreamEndCapture(s, &graph);
    }
    if (e == cudaSuccess && st == SPMVLAB_OK && graph)
        e = cudaGraphInstantiate(&exec, graph, 0);
    if (graph)
        cudaGraphDestroy(graph);
    if (e != cudaSuccess || st != SPMVLAB_OK || !exec) {
        cudaGetLastError(); /* a refused capture is not the instance's failure */
        if (exec)
            cudaGraphExecDestroy(exec);
        mb->graph_exec = NULL;
        snprintf(mb->res.batch_method, sizeof mb->res.batch_method, "stream");
        return;
    }
    mb->graph_exec = exec;
    snprintf(mb->res.batch_method, sizeof mb->res.batch_method, "graph");
}

/* Warm-up, then the batch size from one single launch and one short batch. */
static int calibrate(const spmvlab_trial_group *g, spmvlab_trial_member *mb, const spmvlab_trial *tr, timer *t)
{
    for (int k = 0; k < g->timing.warmup; k++)
        if (call_spmv(mb, tr))
            return -1;
    double one, per;
    if (time_single(g, mb, tr, t, &one))
        return -1;
    int probe = one >= BATCH_TARGET_MS ? 1 : (int)fmin(BATCH_MAX, ceil(BATCH_TARGET_MS / fmax(one, 1e-4)));
    if (time_batch(g, mb, tr, t, probe, 0, &per))
        return -1;
    mb->res.batch_n = (int)fmax(1, fmin(BATCH_MAX, ceil(BATCH_TARGET_MS / fmax(per, 1e-5))));
    capture_graph(g, mb, tr);
    return 0;
}

/* Keeps one sample of each kind. */
static int push_sample(spmvlab_trial_member *mb, double single, double batch)
{
    spmvlab_member_result *r = &mb->res;
    if (r->nsamples == mb->cap) {
        int cap = mb->cap ? 2 * mb->cap : 128;
        double *a = realloc(r->single, (size_t)cap * sizeof *a);
        if (a)
            r->single = a;
        double *b = a ? realloc(r->batch, (size_t)cap * sizeof *b) : NULL;
        if (b)
            r->batch = b;
        if (!a || !b) {
            spmvlab_member_fail(mb, SPMVLAB_RESULT_NOMEM, "out of host memory for samples");
            return -1;
        }
        mb->cap = cap;
    }
    r->single[r->nsamples] = single;
    r->batch[r->nsamples++] = batch;
    return 0;
}

/* Writes the flush buffer so no sample finds the member's data in L2. */
static void flush(const spmvlab_trial_group *g, spmvlab_trial_member *mb)
{
    spmvlab_err err;
    if (g->timing.flush_buf && spmvlab_l2_flush(g->rt, g->timing.flush_buf, g->timing.flush_bytes, &err))
        spmvlab_member_fail(mb, SPMVLAB_RESULT_CUDA_ERROR, "%s", err.msg);
}

/* The calibration and the rounds of every member with timed = 1. Returns
 * the member that faulted the device, or -1. */
static int run_rounds(const spmvlab_trial_group *g, const spmvlab_trial *tr, spmvlab_trial_member *m, int n)
{
    const spmvlab_timing *tm = &g->timing;
    int faulted = -1;
    timer t = {NULL, NULL};
    if (cudaEventCreate(&t.e0) != cudaSuccess || cudaEventCreate(&t.e1) != cudaSuccess) {
        cudaGetLastError();
        for (int i = 0; i < n; i++)
            if (m[i].timed)
                spmvlab_member_fail(&m[i], SPMVLAB_RESULT_CUDA_ERROR, "cudaEventCreate failed");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        spmvlab_trial_member *mb = &m[i];
        if (!mb->timed)
            continue;
        if (g->progress)
            g->progress(g->progress_arg, mb->in.label, "calibrating", i, n);
        double t0 = spmvlab_now_ms();
        if (calibrate(g, mb, tr, &t) && spmvlab_member_faulted(g->rt, mb)) {
            faulted = i;
            goto out;
        }
        mb->res.wall_ms += spmvlab_now_ms() - t0;
    }
    double start = spmvlab_now_ms();
    int active = 0;
    for (int i = 0; i < n; i++)
        active += m[i].timed;
    int min_rounds = tm->reps < MIN_ROUNDS ? tm->reps : MIN_ROUNDS;
    double said = start;
    for (int round = 0; round < tm->reps && active; round++) {
        if (tm->stop && *tm->stop)
            break;
        /* every 10 rounds, and at least once a second: slow rounds keep
         * the worker's watchdog (host/run/run_supervise.c) from taking them for a hang */
        if (g->progress && (round % 10 == 0 || spmvlab_now_ms() - said >= 1000)) {
            g->progress(g->progress_arg, "", "timing", round, tm->reps);
            said = spmvlab_now_ms();
        }
        /* Round r starts at member r mod n (A B C, B C A, C A B, ...): every
         * instance takes every position equally often. */
        for (int step = 0; step < n; step++) {
            int i = (round + step) % n;
            spmvlab_trial_member *mb = &m[i];
            if (!mb->timed)
                continue;
            double t0 = spmvlab_now_ms(), one = NAN, per = NAN;
            if (tm->flush_buf)
                flush(g, mb);
            if (mb->timed)
                time_single(g, mb, tr, &t, &one);
            if (mb->timed && tm->flush_buf)
                flush(g, mb);
            if (mb->timed)
                time_batch(g, mb, tr, &t, mb->res.batch_n, 1, &per);
            if (mb->timed)
                push_sample(mb, one, per);
            mb->res.wall_ms += spmvlab_now_ms() - t0;
            if (!mb->timed && spmvlab_member_faulted(g->rt, mb)) {
                faulted = i;
                goto out;
            }
        }
        active = 0;
        for (int i = 0; i < n; i++)
            active += m[i].timed;
        if (tm->budget_ms > 0 && round + 1 >= min_rounds && spmvlab_now_ms() - start >= tm->budget_ms * active)
            break;
    }
out:
    if (t.e0)
        cudaEventDestroy(t.e0);
    if (t.e1)
        cudaEventDestroy(t.e1);
    return faulted;
}

/* The medians and percentiles of the samples, the primary kind's, and the
 * bound of the cell (sectors: the matrix's gather sectors, computed by the
 * first member that needs them). */
static void summarise(const spmvlab_trial_group *g, const spmvlab_trial *t, spmvlab_trial_member *mb,
                      double *sectors)
{
    spmvlab_member_result *r = &mb->res;
    int n = r->nsamples;
    r->single_ms = spmvlab_median(r->single, n);
    r->single_p10 = spmvlab_quantile(r->single, n, 0.1);
    r->single_p90 = spmvlab_quantile(r->single, n, 0.9);
    r->batch_ms = spmvlab_median(r->batch, n);
    r->batch_p10 = spmvlab_quantile(r->batch, n, 0.1);
    r->batch_p90 = spmvlab_quantile(r->batch, n, 0.9);
    int single = g->timing.single;
    r->ms = single ? r->single_ms : r->batch_ms;
    r->ms_p10 = single ? r->single_p10 : r->batch_p10;
    r->ms_p90 = single ? r->single_p90 : r->batch_p90;
    const spmvlab_csr *A = g->permuted ? g->permuted : g->A; /* the matrix the formats were built from */
    double vs = (double)t->value_size;
    if (!(r->ms > 0) || !(r->footprint >= 0) || !g->timing.ceilings)
        return;
    if (isnan(*sectors))
        *sectors = spmvlab_gather_sectors(A, (size_t)vs);
    if (*sectors < 0)
        return;
    spmvlab_bound_work w = {r->footprint + (A->cols + (double)A->rows) * vs, A->cols * vs, *sectors, single};
    spmvlab_bound b;
    if (spmvlab_bound_of(g->timing.ceilings, &w, &b))
        return;
    r->bound_us = b.us;
    snprintf(r->bound_kind, sizeof r->bound_kind, "%s", spmvlab_bound_kind_name(b.kind));
    r->bound_frac = b.us / (r->ms * 1e3);
}

int spmvlab_trial_time(const spmvlab_trial_group *g, spmvlab_trial *t, spmvlab_trial_member *m, int n)
{
    int faulted = run_rounds(g, t, m, n);
    /* every timed member checked on y as the launches left it, then the
     * medians and bounds of those that passed */
    for (int i = 0; i < n && faulted < 0; i++) {
        spmvlab_trial_member *mb = &m[i];
        if (!mb->timed || mb->res.nsamples == 0)
            continue;
        if (spmvlab_member_verify(t, mb, SPMVLAB_TRIAL_AS_LEFT) == 0)
            mb->summarised = 1;
        else if (spmvlab_member_faulted(g->rt, mb))
            faulted = i;
    }
    double sectors = NAN;
    for (int i = 0; i < n; i++)
        if (m[i].summarised)
            summarise(g, t, &m[i], &sectors);
    for (int i = 0; i < n; i++) /* the graphs, once no check reads y any more */
        if (m[i].graph_exec) {
            cudaGraphExecDestroy((cudaGraphExec_t)m[i].graph_exec);
            m[i].graph_exec = NULL;
        }
    return faulted;
}
