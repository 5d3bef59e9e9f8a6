/*
 * The trial engine (spmvlab/trial.h): the one sequence by which a plugin
 * instance is converted and its result judged, for run and check alike.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/trial.h"

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Random x of a trial: see core.h; splitmix64 keeps it the same for a seed
 * on every machine. */
void spmvlab_random_x(void *x, size_t n, spmvlab_dtype dtype, uint64_t seed)
{
    uint64_t s = seed * 0x2545f4914f6cdd1dULL + 1;
    for (size_t k = 0; k < n; k++) {
        uint64_t r = splitmix64(&s);
        double mag = 0.1 + 0.9 * (double)(r >> 11) * 0x1.0p-53;
        spmvlab_value_put(x, k, dtype, (r & 1) ? -mag : mag);
    }
}

static spmvlab_result alloc_buffers(spmvlab_trial *t, spmvlab_err *err)
{
    const spmvlab_matrix *m = &t->pm->view;
    size_t vs = t->value_size = spmvlab_dtype_size(m->dtype), rows = (size_t)m->rows, cols = (size_t)m->cols;
    t->x = malloc(cols ? cols * vs : 1);
    t->y = malloc(rows ? rows * vs : 1);
    t->ref = malloc((rows + 1) * sizeof *t->ref);
    t->absum = malloc((rows + 1) * sizeof *t->absum);
    if (!t->x || !t->y || !t->ref || !t->absum)
        return spmvlab_errf(err, "out of host memory for x, y and the reference of %s", m->name),
               SPMVLAB_RESULT_NOMEM;
    spmvlab_err why = {{0}};
    spmvlab_status st = spmvlab_dev_malloc(t->rt, &t->dx, cols * vs, &why);
    if (st == SPMVLAB_OK)
        st = spmvlab_dev_malloc(t->rt, &t->dy, rows * vs, &why);
    if (st != SPMVLAB_OK)
        spmvlab_errf(err, "x and y of %s on the device: %s", m->name, why.msg);
    return spmvlab_result_of(st);
}

/* Sets t up on pm (t zeroed, or holding only the matrices and the
 * permutation that spmvlab_trial_open_permuted prepared). */
static spmvlab_result attach(spmvlab_trial *t, spmvlab_runtime *rt, const spmvlab_prepared *pm, uint64_t seed,
                              spmvlab_err *err)
{
    t->rt = rt;
    t->pm = pm;
    spmvlab_result o = alloc_buffers(t, err);
    if (o == SPMVLAB_RESULT_OK)
        o = spmvlab_trial_reseed(t, seed, err);
    if (o != SPMVLAB_RESULT_OK)
        spmvlab_trial_close(t);
    return o;
}

spmvlab_result spmvlab_trial_open_prepared(spmvlab_trial *t, spmvlab_runtime *rt, const spmvlab_prepared *pm,
                                            uint64_t seed, spmvlab_err *err)
{
    memset(t, 0, sizeof *t);
    return attach(t, rt, pm, seed, err);
}

/* t holding A prepared in dtype (its own matrix) and nothing else. */
static spmvlab_result prepare_own(spmvlab_trial *t, spmvlab_runtime *rt, const spmvlab_csr *A, const char *name,
                                  spmvlab_dtype dtype, spmvlab_err *err)
{
    memset(t, 0, sizeof *t);
    t->owns = 1;
    return spmvlab_prepare(rt, A, name, dtype, &t->own, err);
}

spmvlab_result spmvlab_trial_open(spmvlab_trial *t, spmvlab_runtime *rt, const spmvlab_csr *A, const char *name,
                                   spmvlab_dtype dtype, uint64_t seed, spmvlab_err *err)
{
    spmvlab_result o = prepare_own(t, rt, A, name, dtype, err);
    if (o != SPMVLAB_RESULT_OK) {
        spmvlab_trial_close(t);
        return o;
    }
    return attach(t, rt, &t->own, seed, err);
}

spmvlab_result spmvlab_trial_open_permuted(spmvlab_trial *t, spmvlab_runtime *rt, const spmvlab_csr *A,
                                            const spmvlab_csr *permuted, const int32_t *perm, const char *name,
                                            spmvlab_dtype dtype, uint64_t seed, spmvlab_err *err)
{
    if (permuted && (permuted->rows != A->rows || permuted->cols != A->cols || permuted->nnz != A->nnz)) {
        memset(t, 0, sizeof *t);
        return spmvlab_errf(err, "the permuted matrix of %s is not %d x %d with %d non-zeros", name, A->rows,
                            A->cols, A->nnz),
               SPMVLAB_RESULT_INTERNAL;
    }
    /* every matrix in the dtype first (ORDER+call: A for x, y and the
     * reference, the permuted one for the instances), then x and the
     * reference */
    spmvlab_result o = prepare_own(t, rt, A, name, dtype, err);
    t->per_call = permuted != NULL;
    if (o == SPMVLAB_RESULT_OK && permuted)
        o = spmvlab_prepare(rt, permuted, name, dtype, &t->permuted, err);
    if (o == SPMVLAB_RESULT_OK && permuted)
        o = spmvlab_result_of(spmvlab_permuted_call_open(&t->call, rt, perm, A->rows, A->cols, dtype, err));
    if (o != SPMVLAB_RESULT_OK) {
        spmvlab_trial_close(t);
        return o;
    }
    return attach(t, rt, &t->own, seed, err);
}

spmvlab_result spmvlab_trial_reseed(spmvlab_trial *t, uint64_t seed, spmvlab_err *err)
{
    const spmvlab_matrix *m = &t->pm->view;
    t->seed = seed;
    spmvlab_random_x(t->x, (size_t)m->cols, m->dtype, seed);
    spmvlab_reference(m, t->x, t->ref, t->absum);
    spmvlab_err why = {{0}};
    spmvlab_status st = spmvlab_dev_upload(t->rt, t->dx, t->x, (size_t)m->cols * spmvlab_dtype_size(m->dtype), &why);
    if (st != SPMVLAB_OK)
        spmvlab_errf(err, "uploading x of %s: %s", m->name, why.msg);
    return spmvlab_result_of(st);
}

void spmvlab_trial_close(spmvlab_trial *t)
{
    if (t->per_call) {
        spmvlab_permuted_call_close(&t->call);
        spmvlab_prepared_free(&t->permuted);
    }
    if (t->rt) {
        spmvlab_dev_free(t->rt, t->dx);
        spmvlab_dev_free(t->rt, t->dy);
    }
    free(t->x);
    free(t->y);
    free(t->ref);
    free(t->absum);
    if (t->owns)
        spmvlab_prepared_free(&t->own);
    memset(t, 0, sizeof *t);
}

spmvlab_result spmvlab_trial_convert(spmvlab_trial *t, spmvlab_instance *in, const spmvlab_loaded *plugin,
                                      const char *label, const spmvlab_optset *opts, spmvlab_conversion *c,
                                      spmvlab_err *err)
{
    memset(c, 0, sizeof *c);
    spmvlab_status st =
        spmvlab_instance_convert(in, t->rt, plugin, label, opts, t->per_call ? &t->permuted : t->pm, err);
    if (st != SPMVLAB_OK)
        return spmvlab_result_of(st);
    if (t->per_call)
        in->call = &t->call;
    c->footprint = spmvlab_instance_footprint(in);
    c->footprint_matches = c->footprint == in->cur_bytes;
    if (!c->footprint_matches)
        snprintf(c->note, sizeof c->note,
                 "footprint() reports %zu bytes but the instance holds %zu bytes in %ld allocations", c->footprint,
                 in->cur_bytes, in->live_allocs);
    return SPMVLAB_RESULT_OK;
}

void spmvlab_verdict_sentence(const spmvlab_verdict *v, const spmvlab_matrix *m, const char *fn, const char *when,
                              spmvlab_err *err)
{
    int32_t r = v->worst_row, len = r >= 0 ? m->row_ptr[r + 1] - m->row_ptr[r] : 0;
    if (v->nonfinite_ref)
        spmvlab_errf(err, "the input holds NaN or Inf (%d rows have a non-finite reference)", v->nonfinite_ref);
    else if (v->nan_rows)
        spmvlab_errf(err, "%s%s: %d rows not written or NaN (row %d of length %d holds %g, expected %.17g)", fn,
                     when, v->nan_rows, r, len, v->y_worst, v->ref_worst);
    else
        spmvlab_errf(err,
                     "%s%s: %d rows beyond the error bound; worst row %d (length %d): %.17g, expected %.17g, %.3g x "
                     "the bound",
                     fn, when, v->bad_rows, r, len, v->y_worst, v->ref_worst, v->max_ratio);
}

/* The device failure of a verification, naming the instance and matrix. */
static spmvlab_result device_failure(const spmvlab_instance *in, spmvlab_status st, const spmvlab_err *why,
                                      spmvlab_err *err)
{
    spmvlab_errf(err, "%s on %s: %s", in->label, in->matrix->name, why->msg);
    return spmvlab_result_of(st);
}

spmvlab_result spmvlab_trial_verify(spmvlab_trial *t, const spmvlab_instance *in, void *dy, spmvlab_trial_run how,
                                     spmvlab_trial_check *c, spmvlab_err *err)
{
    const spmvlab_matrix *m = &t->pm->view;
    size_t rows = (size_t)m->rows;
    spmvlab_err why = {{0}};
    spmvlab_status st = SPMVLAB_OK;
    memset(c, 0, sizeof *c);
    if (!dy)
        dy = t->dy;
    const char *fn = how == SPMVLAB_TRIAL_HOST ? "spmv_host" : "spmv";
    if (how == SPMVLAB_TRIAL_HOST) {
        spmvlab_poison_host(t->y, rows, m->dtype);
        if (in->call)
            spmvlab_permuted_call_poison(&t->call, 0, &why);
        st = spmvlab_instance_spmv_host(in, t->x, t->y, &why);
    } else {
        if (how == SPMVLAB_TRIAL_DEVICE) {
            if ((st = spmvlab_dev_poison(t->rt, dy, rows, m->dtype, &why)) != SPMVLAB_OK ||
                (in->call && (st = spmvlab_permuted_call_poison(&t->call, 1, &why)) != SPMVLAB_OK))
                return device_failure(in, st, &why, err);
            st = spmvlab_instance_spmv(in, t->dx, dy, &why);
        }
        if (st == SPMVLAB_OK) {
            spmvlab_status dst = spmvlab_dev_sync(t->rt, &why);
            if (dst == SPMVLAB_OK)
                dst = spmvlab_dev_download(t->rt, t->y, dy, rows * spmvlab_dtype_size(m->dtype), &why);
            if (dst != SPMVLAB_OK)
                return device_failure(in, dst, &why, err);
        }
    }
    if (st != SPMVLAB_OK) {
        c->call_failed = 1;
        if (why.msg[0])
            spmvlab_errf(err, "%s", why.msg);
        else
            spmvlab_errf(err, "%s failed without a sentence", fn);
        return spmvlab_result_of(st);
    }
    spmvlab_verify_stored(m, in->storage, t->y, t->ref, t->absum, &c->verdict);
    c->compared = 1;
    if (c->verdict.ok)
        return SPMVLAB_RESULT_OK;
    spmvlab_verdict_sentence(&c->verdict, m, fn, how == SPMVLAB_TRIAL_AS_LEFT ? " after the timed launches" : "",
                             err);
    return c->verdict.nonfinite_ref ? SPMVLAB_RESULT_BAD_INPUT : SPMVLAB_RESULT_WRONG;
}

void spmvlab_member_fail(spmvlab_trial_member *mb, spmvlab_result o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(mb->res.message, sizeof mb->res.message, fmt, ap);
    va_end(ap);
    mb->res.outcome = o;
    mb->timed = 0;
}

int spmvlab_member_faulted(spmvlab_runtime *rt, spmvlab_trial_member *mb)
{
    spmvlab_err err = {{0}};
    if (!spmvlab_runtime_fault(rt, mb->plugin->desc->name, &err))
        return 0;
    spmvlab_member_fail(mb, SPMVLAB_RESULT_DEVICE_FAULT,
                        "plugin %s (instance %s) faulted on the device: %s; the other cells ran in a fresh CUDA "
                        "context",
                        mb->plugin->desc->name, mb->label, err.msg);
    return 1;
}

int spmvlab_member_verify(spmvlab_trial *t, spmvlab_trial_member *mb, spmvlab_trial_run how)
{
    spmvlab_trial_check c;
    spmvlab_err err = {{0}};
    spmvlab_result o = spmvlab_trial_verify(t, &mb->in, mb->dy, how, &c, &err);
    if (c.compared && !(mb->res.error_ratio >= c.verdict.max_ratio))
        mb->res.error_ratio = c.verdict.max_ratio;
    if (o == SPMVLAB_RESULT_OK)
        return 0;
    spmvlab_member_fail(mb, o, "%s", err.msg);
    return -1;
}
