/* One matrix and dtype with its instances, from preparation to rows; see run_engine.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_engine.h"
#include "run_bound.h"
#include "run_resume.h"
#include "run_status.h"
#include "spmvlab/gen.h"
#include "spmvlab/stats.h"

void group_fill_identity(const run_group *g, const spmvlab_instance_spec *spec, run_row *r)
{
    run_row_init(r);
    const spmvlab_csr *A = g->A;
    snprintf(r->matrix, sizeof r->matrix, "%s", g->matrix);
    snprintf(r->source, sizeof r->source, "%s", g->source);
    snprintf(r->part, sizeof r->part, "%s", spmvlab_part_name(spmvlab_split_part(g->matrix)));
    r->rows = A->rows;
    r->cols = A->cols;
    r->nnz = A->nnz;
    snprintf(r->instance, sizeof r->instance, "%s", spec->label);
    snprintf(r->plugin, sizeof r->plugin, "%s", spec->plugin->desc->name);
    snprintf(r->plugin_file, sizeof r->plugin_file, "%.*s", (int)sizeof r->plugin_file - 1, spec->plugin->path);
    snprintf(r->plugin_version, sizeof r->plugin_version, "%s", spec->plugin->desc->version);
    snprintf(r->plugin_hash, sizeof r->plugin_hash, "%s", spec->plugin->hash);
    snprintf(r->options, sizeof r->options, "%s", spec->options_text);
    snprintf(r->dtype, sizeof r->dtype, "%s", spmvlab_dtype_name(g->dtype));
    snprintf(r->status, sizeof r->status, "ok");
    double vs = (double)spmvlab_dtype_size(g->dtype);
    r->min_bytes = A->nnz * (vs + 4) + (A->rows + 1.0) * 4 + A->cols * vs + A->rows * vs;
    r->csr_bytes = (A->rows + 1.0) * 4 + A->nnz * (4 + vs);
    int gpu = g->meta->gpu;
    run_settings_to_row(g->s, gpu, r);
    run_meta_to_row(g->meta, r);
    run_order_to_row(g->order, g->dtype, r);
    if (g->features) {
        const spmvlab_features *f = g->features;
        r->row_mean = f->row_mean, r->row_cv = f->row_cv, r->row_max = f->row_max;
        r->empty_share = f->empty_share, r->feat_bandwidth = f->bandwidth;
        r->locality = f->locality, r->block_fill = f->block_fill;
    }
    if (gpu && g->meta->l2_bytes > 0)
        r->fits_l2 = r->min_bytes <= g->meta->l2_bytes;
}

static void append_message(run_row *r, const char *note)
{
    size_t n = strlen(r->message);
    snprintf(r->message + n, sizeof r->message - n, "%s%s", n ? "; " : "", note);
}

/* Medians and percentiles of the samples into the row, then the numbers
 * derived from the primary time. */
static void finish_timing(run_group *g, run_member *mb)
{
    run_row *r = &mb->row;
    int n = mb->nsamples;
    r->reps = n;
    r->batch_launches = mb->batch_n;
    r->single_ms = spmvlab_median(mb->single, n);
    r->single_p10 = spmvlab_quantile(mb->single, n, 0.1);
    r->single_p90 = spmvlab_quantile(mb->single, n, 0.9);
    r->batch_ms = spmvlab_median(mb->batch, n);
    r->batch_p10 = spmvlab_quantile(mb->batch, n, 0.1);
    r->batch_p90 = spmvlab_quantile(mb->batch, n, 0.9);
    int single = g->s->timing == RUN_TIMING_SINGLE;
    r->ms = single ? r->single_ms : r->batch_ms;
    r->ms_p10 = single ? r->single_p10 : r->batch_p10;
    r->ms_p90 = single ? r->single_p90 : r->batch_p90;
    if (r->ms > 0) {
        double sec = r->ms * 1e-3;
        r->gflops = 2.0 * r->nnz / sec / 1e9;
        r->gbs = r->min_bytes / sec / 1e9;
        r->peak_frac = r->gbs / r->peak_gbs;
        r->convert_spmvs = r->convert_ms / r->ms;
        run_row_bound(r, g->A, spmvlab_dtype_size(g->dtype), &g->meta->ceilings, single);
    }
    r->single_samples = mb->single;
    r->batch_samples = mb->batch;
    r->nsamples = n;
    mb->single = mb->batch = NULL;
    mb->cap = mb->nsamples = 0;
}

static void destroy_member(run_group *g, run_member *mb)
{
    mb->row.wall_ms = mb->wall_ms;
    if (mb->converted) {
        size_t left = spmvlab_instance_destroy(&mb->in);
        mb->converted = 0;
        if (left) {
            char note[128];
            snprintf(note, sizeof note, "destroy() left %zu bytes allocated", left);
            append_message(&mb->row, note);
        }
    }
    spmvlab_dev_free(g->rt, mb->dy);
    mb->dy = NULL;
}

/* Runs the member once into poisoned y (or, after the rounds, reads y as
 * the timed launches left it) and keeps the largest error ratio. Returns 0
 * when within the bound; else the row says why. */
static int verify(run_group *g, run_member *mb, spmvlab_trial *t, spmvlab_trial_run how)
{
    spmvlab_trial_check c;
    spmvlab_err err = {{0}};
    spmvlab_result o = spmvlab_trial_verify(t, &mb->in, mb->dy, how, &c, &err);
    if (c.compared && !(mb->row.error_ratio >= c.verdict.max_ratio))
        mb->row.error_ratio = c.verdict.max_ratio;
    if (o == SPMVLAB_RESULT_OK)
        return 0;
    member_fail(mb, o, "%s", err.msg);
    return -1;
}

/* Converts and checks one member; on success it is ready to be timed. */
static void convert_and_check(run_group *g, run_member *mb, spmvlab_trial *t)
{
    run_row *r = &mb->row;
    spmvlab_err err = {{0}};
    double t0 = spmvlab_now_ms();
    if (g->progress)
        g->progress(g->progress_arg, mb->spec->label, "converting", (int)(mb - g->m), g->n);
    spmvlab_conversion conv;
    spmvlab_result o = spmvlab_trial_convert(t, &mb->in, mb->spec->plugin, mb->spec->label, &mb->spec->opts,
                                              &conv, &err);
    r->convert_ms = mb->in.convert_ms;
    r->convert_peak_bytes = (double)mb->in.peak_bytes;
    if (o != SPMVLAB_RESULT_OK) {
        member_fail(mb, o, "%s", err.msg);
        mb->wall_ms += spmvlab_now_ms() - t0;
        return;
    }
    mb->converted = 1;
    snprintf(r->value_storage, sizeof r->value_storage, "%s", spmvlab_dtype_name(mb->in.storage));
    r->device_bytes = (double)conv.footprint;
    r->bytes_per_nnz = g->A->nnz ? conv.footprint / (double)g->A->nnz : NAN;
    r->rel_csr = r->csr_bytes > 0 ? conv.footprint / r->csr_bytes : NAN;
    if (!conv.footprint_matches)
        append_message(r, conv.note);
    spmvlab_instance_describe(&mb->in, r->describe, sizeof r->describe);
    if (g->s->verbose && mb->in.log[0])
        fprintf(stderr, "%s on %s (%s): %s", mb->in.label, g->matrix, r->dtype, mb->in.log);
    size_t ybytes = (size_t)g->A->rows * spmvlab_dtype_size(g->dtype);
    spmvlab_status st = spmvlab_dev_malloc(g->rt, &mb->dy, ybytes, &err);
    if (st != SPMVLAB_OK) {
        member_fail(mb, spmvlab_result_of(st), "y for %s: %s", mb->spec->label, err.msg);
    } else {
        if (g->progress)
            g->progress(g->progress_arg, mb->spec->label, "checking", (int)(mb - g->m), g->n);
        if (verify(g, mb, t, g->rt->device.present ? SPMVLAB_TRIAL_DEVICE : SPMVLAB_TRIAL_HOST) == 0)
            mb->timed = g->rt->device.present;
    }
    mb->wall_ms += spmvlab_now_ms() - t0;
}

int group_execute(run_group *g)
{
    for (int i = 0; i < g->n; i++)
        group_fill_identity(g, g->m[i].spec, &g->m[i].row);
    spmvlab_trial t;
    spmvlab_err err = {{0}};
    /* ORDER+call: x, y and the reference in the file's order, the
     * instances converted from the permuted matrix */
    const spmvlab_csr *calls_on = g->per_call ? g->per_call->original : g->A;
    spmvlab_result o = spmvlab_trial_open(&t, g->rt, calls_on, g->matrix, g->dtype, g->s->seed, &err);
    if (o == SPMVLAB_RESULT_OK && g->per_call && (o = spmvlab_trial_permute_calls(&t, g->A, g->per_call->perm, &err)))
        spmvlab_trial_close(&t);
    if (o != SPMVLAB_RESULT_OK) {
        for (int i = 0; i < g->n; i++)
            member_fail(&g->m[i], o, "%s", err.msg);
        return -1;
    }
    /* One device wait a member, between trials: a fault is pinned on the
     * member that caused it before another one runs. */
    for (int i = 0; i < g->n; i++) {
        convert_and_check(g, &g->m[i], &t);
        if (group_fault_check(g, &g->m[i]))
            break;
    }
    if (g->rt->device.present && !g->faulted) {
        measure_group(g, &t);
        for (int i = 0; i < g->n && !g->faulted; i++) {
            run_member *mb = &g->m[i];
            if (mb->timed && mb->nsamples > 0) {
                if (verify(g, mb, &t, SPMVLAB_TRIAL_AS_LEFT) == 0)
                    finish_timing(g, mb);
                else
                    group_fault_check(g, mb);
            }
        }
        measure_release(g);
    }
    for (int i = 0; i < g->n; i++)
        destroy_member(g, &g->m[i]);
    spmvlab_trial_close(&t);
    return 0;
}

void group_release(run_group *g)
{
    for (int i = 0; i < g->n; i++) {
        run_member *mb = &g->m[i];
        free(mb->single);
        free(mb->batch);
        mb->single = mb->batch = NULL;
        run_row_clear(&mb->row);
    }
}
