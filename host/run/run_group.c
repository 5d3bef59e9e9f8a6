/* One matrix and dtype with its instances, from the identity to rows; see run_engine.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_engine.h"
#include "run_resume.h"
#include "status.h"
#include "spmvlab/gen.h"

void group_identity(const run_group *g, run_identity *id)
{
    run_row *r = &id->row;
    run_row_init(r);
    const spmvlab_csr *A = g->A;
    snprintf(r->matrix, sizeof r->matrix, "%s", g->matrix);
    snprintf(r->source, sizeof r->source, "%s", g->source);
    snprintf(r->part, sizeof r->part, "%s", spmvlab_part_name(spmvlab_split_part(g->matrix)));
    r->rows = A->rows;
    r->cols = A->cols;
    r->nnz = A->nnz;
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

/* A member's result record into its row, which holds the identity: the
 * numbers derived from the time beside it. The row takes the samples. */
static void result_to_row(const run_group *g, spmvlab_member_result *res, run_row *r)
{
    r->convert_ms = res->convert_ms;
    r->convert_peak_bytes = res->convert_peak_bytes;
    r->error_ratio = res->error_ratio;
    r->wall_ms = res->wall_ms;
    snprintf(r->batch_method, sizeof r->batch_method, "%s", res->batch_method);
    if (res->converted) {
        snprintf(r->value_storage, sizeof r->value_storage, "%s", res->storage);
        snprintf(r->describe, sizeof r->describe, "%s", res->describe);
        r->device_bytes = res->footprint;
        r->bytes_per_nnz = r->nnz ? res->footprint / r->nnz : NAN;
        r->rel_csr = r->csr_bytes > 0 ? res->footprint / r->csr_bytes : NAN;
        if (g->s->verbose && res->log[0])
            fprintf(stderr, "%s on %s (%s): %s", r->instance, g->matrix, r->dtype, res->log);
    }
    if (res->nsamples > 0) {
        r->reps = res->nsamples;
        r->batch_launches = res->batch_n;
        r->single_ms = res->single_ms, r->single_p10 = res->single_p10, r->single_p90 = res->single_p90;
        r->batch_ms = res->batch_ms, r->batch_p10 = res->batch_p10, r->batch_p90 = res->batch_p90;
        r->ms = res->ms, r->ms_p10 = res->ms_p10, r->ms_p90 = res->ms_p90;
        r->single_samples = res->single;
        r->batch_samples = res->batch;
        r->nsamples = res->nsamples;
        res->single = res->batch = NULL;
    }
    if (r->ms > 0) {
        double sec = r->ms * 1e-3;
        r->gflops = 2.0 * r->nnz / sec / 1e9;
        r->gbs = r->min_bytes / sec / 1e9;
        r->peak_frac = r->gbs / r->peak_gbs;
        r->convert_spmvs = r->convert_ms / r->ms;
        r->bound_us = res->bound_us;
        r->bound_frac = res->bound_frac;
        snprintf(r->bound_kind, sizeof r->bound_kind, "%s", res->bound_kind);
    }
    if (res->outcome != SPMVLAB_RESULT_OK)
        run_row_fail(r, res->outcome, res->message);
    else
        snprintf(r->message, sizeof r->message, "%s", res->message);
}

int group_execute(run_group *g)
{
    for (int i = 0; i < g->n; i++)
        identity_to_row(g->identity, g->m[i].spec, &g->m[i].row);
    spmvlab_trial_member *tm = calloc(g->n ? (size_t)g->n : 1, sizeof *tm);
    if (!tm) {
        for (int i = 0; i < g->n; i++)
            run_row_fail(&g->m[i].row, SPMVLAB_RESULT_NOMEM, "out of host memory for the group's members");
        return -1;
    }
    for (int i = 0; i < g->n; i++)
        tm[i] = (spmvlab_trial_member){.plugin = g->m[i].spec->plugin, .label = g->m[i].spec->label,
                                       .opts = &g->m[i].spec->opts};
    const run_settings *s = g->s;
    /* ORDER+call: x, y and the reference in the file's order, the
     * instances converted from the permuted matrix */
    spmvlab_trial_group tg = {
        .rt = g->rt, .A = g->per_call ? g->per_call->original : g->A, .name = g->matrix, .dtype = g->dtype,
        .seed = s->seed, .permuted = g->per_call ? g->A : NULL, .perm = g->per_call ? g->per_call->perm : NULL,
        .timing = {.warmup = s->warmup, .reps = s->reps, .budget_ms = s->time_budget_ms,
                   .single = s->timing == RUN_TIMING_SINGLE, .flush_buf = g->flush_buf,
                   .flush_bytes = g->flush_bytes, .stop = g->stop, .ceilings = &g->meta->ceilings},
        .progress = g->progress, .progress_arg = g->progress_arg};
    int faulted;
    spmvlab_result o = spmvlab_trial_measure(&tg, tm, g->n, &faulted);
    g->faulted = faulted >= 0 ? &g->m[faulted] : NULL;
    for (int i = 0; i < g->n; i++)
        result_to_row(g, &tm[i].res, &g->m[i].row);
    free(tm);
    return o == SPMVLAB_RESULT_OK ? 0 : -1;
}

void group_release(run_group *g)
{
    for (int i = 0; i < g->n; i++)
        run_row_clear(&g->m[i].row);
}
