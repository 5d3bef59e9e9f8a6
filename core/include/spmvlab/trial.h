/*
 * The trial engine: one matrix in one dtype with a random x and its
 * reference, on which plugin instances are converted and checked. `spmvlab
 * run` and `spmvlab check` both go through it, so the sequence — prepare,
 * random x, reference, upload x; convert with the footprint cross-check;
 * poisoned y, spmv (or spmv_host), download, bound — and the sentences that
 * report a failure exist once (docs/design.md §5 and §7).
 */
#ifndef SPMVLAB_TRIAL_H
#define SPMVLAB_TRIAL_H

#include <stdint.h>

#include "spmvlab/core.h"
#include "spmvlab/permuted_call.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One matrix, its x and reference. Every buffer is owned by the trial. */
typedef struct spmvlab_trial {
    spmvlab_runtime *rt;
    const spmvlab_prepared *pm; /* the matrix in the dtype: &own, or borrowed */
    spmvlab_prepared own;       /* prepared by spmvlab_trial_open */
    int owns;                   /* 1 when pm is &own */
    uint64_t seed;              /* seed of the current x */
    void *x;                    /* host x, cols values of the dtype */
    void *dx;                   /* x on the device (the host stand-in without a GPU) */
    void *y;                    /* host y, rows values: spmv_host's output and the download buffer */
    void *dy;                   /* the trial's own device y, for callers that pass none */
    double *ref, *absum;        /* reference and row sums of |a_ij x_j|, rows values */
    /* after spmvlab_trial_permute_calls: instances are converted from the
     * permuted matrix and called through the permutation */
    int per_call;
    spmvlab_prepared permuted;  /* P A P^T (or P A) in the dtype */
    spmvlab_permuted_call call; /* the permutation and scratch every instance's calls share */
} spmvlab_trial;

/* Prepares A in dtype, draws x from seed, computes the reference and
 * uploads x. Returns OK; BAD_INPUT when A cannot be used in dtype; NOMEM or
 * CUDA_ERROR; a sentence in err. On failure t holds nothing. */
spmvlab_result spmvlab_trial_open(spmvlab_trial *t, spmvlab_runtime *rt, const spmvlab_csr *A, const char *name,
                                   spmvlab_dtype dtype, uint64_t seed, spmvlab_err *err);
/* The same on a matrix the caller prepared and keeps (it outlives t). */
spmvlab_result spmvlab_trial_open_prepared(spmvlab_trial *t, spmvlab_runtime *rt, const spmvlab_prepared *pm,
                                            uint64_t seed, spmvlab_err *err);
/* Draws a new x from seed, its reference, and uploads it. */
spmvlab_result spmvlab_trial_reseed(spmvlab_trial *t, uint64_t seed, spmvlab_err *err);
/* Keeps a permutation inside every call (--reorder ORDER+call): later
 * conversions build on permuted (P A P^T for a square A, else P A, with
 * perm[new] = old) while x, y and the reference stay the trial's matrix,
 * in its own order, so the round trip is what gets checked. Returns OK;
 * BAD_INPUT, NOMEM or CUDA_ERROR with a sentence (then nothing changed). */
spmvlab_result spmvlab_trial_permute_calls(spmvlab_trial *t, const spmvlab_csr *permuted, const int32_t *perm,
                                           spmvlab_err *err);
/* Frees the buffers (and the matrix when the trial prepared it). */
void spmvlab_trial_close(spmvlab_trial *t);

/* What a conversion reported beside its status. */
typedef struct spmvlab_conversion {
    size_t footprint;           /* the plugin's footprint(), or the core's count */
    int footprint_matches;      /* 1 when it equals the instance's tracked bytes */
    char note[SPMVLAB_ERR_LEN]; /* the sentence of a mismatch, else "" */
} spmvlab_conversion;

/* Converts an instance of plugin on the trial's matrix (see
 * spmvlab_instance_convert; the permuted one after
 * spmvlab_trial_permute_calls, the instance then calling through the
 * permutation) and cross-checks its footprint against the bytes the core
 * tracked. Returns the plugin's status as an outcome. */
spmvlab_result spmvlab_trial_convert(spmvlab_trial *t, spmvlab_instance *in, const spmvlab_loaded *plugin,
                                      const char *label, const spmvlab_optset *opts, spmvlab_conversion *c,
                                      spmvlab_err *err);

/* How a verification obtains y. */
typedef enum spmvlab_trial_run {
    SPMVLAB_TRIAL_HOST = 0,     /* spmv_host into the NaN-poisoned host y */
    SPMVLAB_TRIAL_DEVICE = 1,   /* spmv into NaN-poisoned device y, then download */
    SPMVLAB_TRIAL_AS_LEFT = 2   /* no call: download device y as the last launches left it */
} spmvlab_trial_run;

/* What a verification found, beside its outcome. */
typedef struct spmvlab_trial_check {
    spmvlab_verdict verdict;    /* the comparison with the reference (when compared) */
    int compared;               /* 1 when y was compared */
    int call_failed;            /* 1 when the outcome is what spmv / spmv_host returned */
} spmvlab_trial_check;

/* Runs the instance as `how` says (dy: the device y to use, NULL for the
 * trial's own) and compares y with the reference under the bound of the
 * instance's value storage. Returns OK; WRONG (rows beyond the bound or
 * unwritten); BAD_INPUT (the reference is not finite: the input holds NaN
 * or Inf); CUDA_ERROR or NOMEM from the device; or the plugin's status. The
 * sentence in err is the plugin's own when the call failed, else one of
 * the core's (spmvlab_verdict_sentence). */
spmvlab_result spmvlab_trial_verify(spmvlab_trial *t, const spmvlab_instance *in, void *dy, spmvlab_trial_run how,
                                     spmvlab_trial_check *c, spmvlab_err *err);

/* The sentence of a failed comparison: "<fn><when>: N rows not written or
 * NaN (...)" or "<fn><when>: N rows beyond the error bound; worst row ..."
 * or the non-finite input. fn: "spmv" or "spmv_host"; when: "" or e.g.
 * " after the timed launches". */
void spmvlab_verdict_sentence(const spmvlab_verdict *v, const spmvlab_matrix *m, const char *fn, const char *when,
                              spmvlab_err *err);

#ifdef __cplusplus
}
#endif
#endif
