/*
 * Timing on the GPU (docs/design.md §6, docs/methodology.md): warm-up,
 * a batch size per instance so one back-to-back sample lasts about 1 ms,
 * the batch captured once as a CUDA graph, then rounds in which every
 * instance in turn gives one single-launch sample (its own event pair,
 * host launch cost included) and one back-to-back sample (batch_n calls
 * between one event pair, divided by batch_n). The order rotates from
 * round to round so no instance always follows the same one.
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run_engine.h"
#include "spmvlab/bandwidth.h"

#define BATCH_TARGET_MS 1.0 /* a back-to-back sample lasts about this long */
#define BATCH_MAX 1000      /* calls per back-to-back sample */
#define MIN_ROUNDS 10       /* before the time budget may end the rounds */

typedef struct timer {
    cudaEvent_t e0, e1;
} timer;

static cudaStream_t stream_of(run_group *g) { return (cudaStream_t)g->rt->stream; }

static int cuda_check(run_member *mb, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    cudaGetLastError();
    member_fail(mb, e == cudaErrorMemoryAllocation ? SPMVLAB_RESULT_NOMEM : SPMVLAB_RESULT_CUDA_ERROR,
                "%s on %s: %s failed: %s", mb->in.label, mb->in.matrix->name, what,
                cudaGetErrorString(e));
    return -1;
}

/* One call of the instance on the group's stream (the runtime's), the
 * permutations of ORDER+call included. */
static int call_spmv(run_member *mb, const spmvlab_trial *tr)
{
    spmvlab_err err = {{0}};
    spmvlab_status st = spmvlab_instance_spmv(&mb->in, tr->dx, mb->dy, &err);
    if (st == SPMVLAB_OK)
        return 0;
    member_fail(mb, spmvlab_result_of(st), "%s", err.msg[0] ? err.msg : "spmv failed without a sentence");
    return -1;
}

/* The stream idle, then: event, spmv, event. ms = time between events, which
 * holds the host's launch work because the GPU waits for it. */
static int time_single(run_group *g, run_member *mb, const spmvlab_trial *tr, timer *t, double *ms)
{
    cudaStream_t s = stream_of(g);
    if (cuda_check(mb, cudaStreamSynchronize(s), "cudaStreamSynchronize") ||
        cuda_check(mb, cudaEventRecord(t->e0, s), "cudaEventRecord"))
        return -1;
    if (call_spmv(mb, tr))
        return -1;
    float f = 0;
    if (cuda_check(mb, cudaEventRecord(t->e1, s), "cudaEventRecord") ||
        cuda_check(mb, cudaEventSynchronize(t->e1), "the spmv kernels") ||
        cuda_check(mb, cudaEventElapsedTime(&f, t->e0, t->e1), "cudaEventElapsedTime"))
        return -1;
    *ms = f;
    return 0;
}

/* n calls back to back (the graph when there is one) between two events. */
static int time_batch(run_group *g, run_member *mb, const spmvlab_trial *tr, timer *t, int n, int use_graph,
                      double *ms)
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

/* Captures batch_n calls as a graph; on any refusal falls back to stream
 * launches (noted in batch_method). */
static void capture_graph(run_group *g, run_member *mb, const spmvlab_trial *tr)
{
    cudaStream_t s = stream_of(g);
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    spmvlab_err err = {{0}};
    spmvlab_status st = SPMVLAB_OK;
    cudaStreamSynchronize(s);
    cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    if (e == cudaSuccess) {
        for (int k = 0; k < mb->batch_n && st == SPMVLAB_OK; k++)
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
        snprintf(mb->row.batch_method, sizeof mb->row.batch_method, "stream");
        return;
    }
    mb->graph_exec = exec;
    snprintf(mb->row.batch_method, sizeof mb->row.batch_method, "graph");
}

/* Warm-up, then the batch size from one single launch and one short batch. */
static int calibrate(run_group *g, run_member *mb, const spmvlab_trial *tr, timer *t)
{
    for (int k = 0; k < g->s->warmup; k++)
        if (call_spmv(mb, tr))
            return -1;
    double one, per;
    if (time_single(g, mb, tr, t, &one))
        return -1;
    int probe = one >= BATCH_TARGET_MS ? 1 : (int)fmin(BATCH_MAX, ceil(BATCH_TARGET_MS / fmax(one, 1e-4)));
    if (time_batch(g, mb, tr, t, probe, 0, &per))
        return -1;
    mb->batch_n = (int)fmax(1, fmin(BATCH_MAX, ceil(BATCH_TARGET_MS / fmax(per, 1e-5))));
    capture_graph(g, mb, tr);
    return 0;
}

static int push_sample(run_member *mb, double single, double batch)
{
    if (mb->nsamples == mb->cap) {
        int cap = mb->cap ? 2 * mb->cap : 128;
        double *a = realloc(mb->single, (size_t)cap * sizeof *a);
        if (a)
            mb->single = a;
        double *b = a ? realloc(mb->batch, (size_t)cap * sizeof *b) : NULL;
        if (b)
            mb->batch = b;
        if (!a || !b) {
            member_fail(mb, SPMVLAB_RESULT_NOMEM, "out of host memory for samples");
            return -1;
        }
        mb->cap = cap;
    }
    mb->single[mb->nsamples] = single;
    mb->batch[mb->nsamples++] = batch;
    return 0;
}

static void flush(run_group *g, run_member *mb)
{
    spmvlab_err err;
    if (g->flush_buf && spmvlab_l2_flush(g->rt, g->flush_buf, g->flush_bytes, &err))
        member_fail(mb, SPMVLAB_RESULT_CUDA_ERROR, "%s", err.msg);
}

void measure_group(run_group *g, const spmvlab_trial *tr)
{
    timer t = {NULL, NULL};
    if (cudaEventCreate(&t.e0) != cudaSuccess || cudaEventCreate(&t.e1) != cudaSuccess) {
        cudaGetLastError();
        for (int i = 0; i < g->n; i++)
            if (g->m[i].timed)
                member_fail(&g->m[i], SPMVLAB_RESULT_CUDA_ERROR, "cudaEventCreate failed");
        goto out;
    }
    for (int i = 0; i < g->n; i++) {
        run_member *mb = &g->m[i];
        if (!mb->timed)
            continue;
        if (g->progress)
            g->progress(g->progress_arg, mb->in.label, "calibrating", i, g->n);
        double t0 = spmvlab_now_ms();
        if (calibrate(g, mb, tr, &t) && group_fault_check(g, mb))
            goto out;
        mb->wall_ms += spmvlab_now_ms() - t0;
    }
    double start = spmvlab_now_ms();
    int active = 0;
    for (int i = 0; i < g->n; i++)
        active += g->m[i].timed;
    int min_rounds = g->s->reps < MIN_ROUNDS ? g->s->reps : MIN_ROUNDS;
    double said = start;
    for (int round = 0; round < g->s->reps && active; round++) {
        if (g->stop && *g->stop)
            break;
        /* every 10 rounds, and at least once a second: slow rounds keep
         * the worker's watchdog (run_supervise.c) from taking them for a hang */
        if (g->progress && (round % 10 == 0 || spmvlab_now_ms() - said >= 1000)) {
            g->progress(g->progress_arg, "", "timing", round, g->s->reps);
            said = spmvlab_now_ms();
        }
        /* Round r starts at member r mod n (A B C, B C A, C A B, ...): every
         * instance takes every position equally often. */
        for (int step = 0; step < g->n; step++) {
            run_member *mb = &g->m[(round + step) % g->n];
            if (!mb->timed)
                continue;
            double t0 = spmvlab_now_ms(), one = NAN, per = NAN;
            if (g->flush_buf)
                flush(g, mb);
            if (mb->timed)
                time_single(g, mb, tr, &t, &one);
            if (mb->timed && g->flush_buf)
                flush(g, mb);
            if (mb->timed)
                time_batch(g, mb, tr, &t, mb->batch_n, 1, &per);
            if (mb->timed)
                push_sample(mb, one, per);
            mb->wall_ms += spmvlab_now_ms() - t0;
            if (!mb->timed && group_fault_check(g, mb))
                goto out;
        }
        active = 0;
        for (int i = 0; i < g->n; i++)
            active += g->m[i].timed;
        if (g->s->time_budget_ms > 0 && round + 1 >= min_rounds &&
            spmvlab_now_ms() - start >= g->s->time_budget_ms * active)
            break;
    }
out:
    if (t.e0)
        cudaEventDestroy(t.e0);
    if (t.e1)
        cudaEventDestroy(t.e1);
}

void measure_release(run_group *g)
{
    for (int i = 0; i < g->n; i++)
        if (g->m[i].graph_exec) {
            cudaGraphExecDestroy((cudaGraphExec_t)g->m[i].graph_exec);
            g->m[i].graph_exec = NULL;
        }
}
