/*
 * A group's members from conversion to their result records, on one trial
 * (spmvlab/trial.h): the whole sequence of a member lives here, so the
 * host only hands the group over and copies each result into its row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/trial.h"

/* Adds a note to the member's message, "; " after what stands there. */
static void add_note(spmvlab_member_result *r, const char *note)
{
    size_t n = strlen(r->message);
    snprintf(r->message + n, sizeof r->message - n, "%s%s", n ? "; " : "", note);
}

/* A member before its sequence: the engine's state empty, its result
 * ok with every number NaN. */
static void start_member(spmvlab_trial_member *mb)
{
    spmvlab_member_result *r = &mb->res;
    memset(&mb->in, 0, sizeof mb->in);
    mb->converted = mb->timed = mb->cap = mb->summarised = 0;
    mb->dy = mb->graph_exec = NULL;
    memset(r, 0, sizeof *r);
    r->outcome = SPMVLAB_RESULT_OK;
    r->footprint = r->convert_ms = r->convert_peak_bytes = r->error_ratio = NAN;
    r->single_ms = r->single_p10 = r->single_p90 = NAN;
    r->batch_ms = r->batch_p10 = r->batch_p90 = NAN;
    r->ms = r->ms_p10 = r->ms_p90 = r->bound_us = r->bound_frac = r->wall_ms = NAN;
}

/* Converts and checks member i; on success it is ready to be timed. */
static void convert_and_check(const spmvlab_trial_group *g, spmvlab_trial *t, spmvlab_trial_member *m, int i,
                              int n)
{
    spmvlab_trial_member *mb = &m[i];
    spmvlab_member_result *r = &mb->res;
    spmvlab_err err = {{0}};
    double t0 = spmvlab_now_ms();
    if (g->progress)
        g->progress(g->progress_arg, mb->label, "converting", i, n);
    spmvlab_conversion conv;
    spmvlab_result o = spmvlab_trial_convert(t, &mb->in, mb->plugin, mb->label, mb->opts, &conv, &err);
    r->convert_ms = mb->in.convert_ms;
    r->convert_peak_bytes = (double)mb->in.peak_bytes;
    if (o != SPMVLAB_RESULT_OK) {
        spmvlab_member_fail(mb, o, "%s", err.msg);
        r->wall_ms += spmvlab_now_ms() - t0;
        return;
    }
    mb->converted = r->converted = 1;
    snprintf(r->storage, sizeof r->storage, "%s", spmvlab_dtype_name(mb->in.storage));
    r->footprint = (double)conv.footprint;
    if (!conv.footprint_matches)
        add_note(r, conv.note);
    spmvlab_instance_describe(&mb->in, r->describe, sizeof r->describe);
    snprintf(r->log, sizeof r->log, "%s", mb->in.log);
    size_t ybytes = (size_t)g->A->rows * t->value_size;
    spmvlab_status st = spmvlab_dev_malloc(g->rt, &mb->dy, ybytes, &err);
    if (st != SPMVLAB_OK) {
        spmvlab_member_fail(mb, spmvlab_result_of(st), "y for %s: %s", mb->label, err.msg);
    } else {
        if (g->progress)
            g->progress(g->progress_arg, mb->label, "checking", i, n);
        if (spmvlab_member_verify(t, mb, g->rt->device.present ? SPMVLAB_TRIAL_DEVICE : SPMVLAB_TRIAL_HOST) == 0)
            mb->timed = g->rt->device.present;
    }
    r->wall_ms += spmvlab_now_ms() - t0;
}

/* Drops the samples of a member whose result they no longer stand for. */
static void drop_samples(spmvlab_member_result *r)
{
    free(r->single);
    free(r->batch);
    r->single = r->batch = NULL;
    r->nsamples = 0;
}

/* Destroys the member's format and y; a format that leaves bytes behind
 * gets a note. */
static void destroy_member(spmvlab_runtime *rt, spmvlab_trial_member *mb)
{
    if (mb->converted) {
        size_t left = spmvlab_instance_destroy(&mb->in);
        mb->converted = 0;
        if (left) {
            char note[128];
            snprintf(note, sizeof note, "destroy() left %zu bytes allocated", left);
            add_note(&mb->res, note);
        }
    }
    spmvlab_dev_free(rt, mb->dy);
    mb->dy = NULL;
}

spmvlab_result spmvlab_trial_measure(const spmvlab_trial_group *g, spmvlab_trial_member *m, int n, int *faulted)
{
    *faulted = -1;
    for (int i = 0; i < n; i++)
        start_member(&m[i]);
    spmvlab_trial t;
    spmvlab_err err = {{0}};
    /* ORDER+call: x, y and the reference in the file's order, the
     * instances converted from the permuted matrix */
    spmvlab_result o =
        spmvlab_trial_open_permuted(&t, g->rt, g->A, g->permuted, g->perm, g->name, g->dtype, g->seed, &err);
    if (o != SPMVLAB_RESULT_OK) {
        for (int i = 0; i < n; i++)
            spmvlab_member_fail(&m[i], o, "%s", err.msg);
        return o;
    }
    for (int i = 0; i < n; i++)
        m[i].res.wall_ms = 0;
    /* One device wait a member, between trials: a fault is pinned on the
     * member that caused it before another one runs. */
    for (int i = 0; i < n && *faulted < 0; i++) {
        convert_and_check(g, &t, m, i, n);
        if (spmvlab_member_faulted(g->rt, &m[i]))
            *faulted = i;
    }
    if (g->rt->device.present && *faulted < 0)
        *faulted = spmvlab_trial_time(g, &t, m, n);
    for (int i = 0; i < n; i++) {
        if (!m[i].summarised || m[i].res.outcome != SPMVLAB_RESULT_OK)
            drop_samples(&m[i].res);
        destroy_member(g->rt, &m[i]);
    }
    spmvlab_trial_close(&t);
    return SPMVLAB_RESULT_OK;
}
