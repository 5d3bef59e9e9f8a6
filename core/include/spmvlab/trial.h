/*
 * The trial engine: one matrix in one dtype with a random x and its
 * reference, on which plugin instances are converted and checked. `spmvlab
 * run` and `spmvlab check` both go through it, so the sequence — prepare,
 * random x, reference, upload x; convert with the footprint cross-check;
 * poisoned y, spmv (or spmv_host), download, bound — and the sentences that
 * report a failure exist once (docs/design.md §5 and §7). For `run` it
 * also owns a group's whole sequence (spmvlab_trial_measure): every member
 * converted, checked, fault-checked and timed, handed back as one result
 * record each, so the host never drives these steps one by one.
 */
#ifndef SPMVLAB_TRIAL_H
#define SPMVLAB_TRIAL_H

#include <signal.h>
#include <stdint.h>

#include "spmvlab/ceilings.h"
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
    size_t value_size;          /* bytes of one value of the dtype */
    void *x;                    /* host x, cols values of the dtype */
    void *dx;                   /* x on the device (the host stand-in without a GPU) */
    void *y;                    /* host y, rows values: spmv_host's output and the download buffer */
    void *dy;                   /* the trial's own device y, for callers that pass none */
    double *ref, *absum;        /* reference and row sums of |a_ij x_j|, rows values */
    /* opened by spmvlab_trial_open_permuted: instances are converted from
     * the permuted matrix and called through the permutation */
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
/* spmvlab_trial_open for --reorder ORDER+call: instances are converted from
 * permuted (P A P^T for a square A, else P A, with perm[new] = old) and
 * called through the permutation, while x, y and the reference stay A's,
 * in its own order, so the round trip is what gets checked. perm is the
 * one spmvlab_csr_permute built permuted with, which checked that it is a
 * permutation; permuted NULL: the plain open. Also INTERNAL when permuted
 * is not of A's shape. */
spmvlab_result spmvlab_trial_open_permuted(spmvlab_trial *t, spmvlab_runtime *rt, const spmvlab_csr *A,
                                            const spmvlab_csr *permuted, const int32_t *perm, const char *name,
                                            spmvlab_dtype dtype, uint64_t seed, spmvlab_err *err);
/* Draws a new x from seed, its reference, and uploads it. */
spmvlab_result spmvlab_trial_reseed(spmvlab_trial *t, uint64_t seed, spmvlab_err *err);
/* Frees the buffers (and the matrix when the trial prepared it). */
void spmvlab_trial_close(spmvlab_trial *t);

/* What a conversion reported beside its status. */
typedef struct spmvlab_conversion {
    size_t footprint;           /* the plugin's footprint(), or the core's count */
    int footprint_matches;      /* 1 when it equals the instance's tracked bytes */
    char note[SPMVLAB_ERR_LEN]; /* the sentence of a mismatch, else "" */
} spmvlab_conversion;

/* Converts an instance of plugin on the trial's matrix (see
 * spmvlab_instance_convert; the permuted one of
 * spmvlab_trial_open_permuted, the instance then calling through the
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


/* ---- a group: every member's whole sequence (trial_group.c, trial_time.c) */

/* Called as work proceeds: the instance's label, what is being done
 * ("converting", "checking", "calibrating", "timing") and how far. A
 * worker's watchdog takes each call for a heartbeat. */
typedef void (*spmvlab_progress_fn)(void *arg, const char *instance, const char *phase, int done, int total);

/* How the members of a group are timed (docs/design.md §6,
 * docs/methodology.md): warm-up, a batch size per member so one
 * back-to-back sample lasts about 1 ms, the batch captured as a CUDA graph,
 * then rounds in which every member in turn gives one single-launch and one
 * back-to-back sample, the order rotating from round to round. */
typedef struct spmvlab_timing {
    int warmup;                 /* calls before the batch size is calibrated */
    int reps;                   /* rounds at most */
    double budget_ms;           /* after 10 rounds, end once this much time per timed member passed; 0: none */
    int single;                 /* 1: the primary time is the single-launch one, else back-to-back */
    void *flush_buf;            /* device buffer larger than L2, written before each sample; or NULL */
    size_t flush_bytes;
    volatile sig_atomic_t *stop; /* set by a signal: end the rounds early; or NULL */
    const spmvlab_ceilings *ceilings; /* the device's, for the bound; or NULL */
} spmvlab_timing;

/* One matrix in one dtype and how its members are measured. */
typedef struct spmvlab_trial_group {
    spmvlab_runtime *rt;
    const spmvlab_csr *A;       /* x, y and the reference are of this matrix */
    const char *name;           /* its label, for sentences */
    spmvlab_dtype dtype;
    uint64_t seed;              /* of x */
    const spmvlab_csr *permuted; /* ORDER+call: the instances convert from this and call through perm; or NULL */
    const int32_t *perm;        /* the one spmvlab_csr_permute built permuted with (it checked it) */
    spmvlab_timing timing;
    spmvlab_progress_fn progress; /* or NULL */
    void *progress_arg;
} spmvlab_trial_group;

/* What came of one member: everything a result row records of it. Numbers
 * not measured are NaN. */
typedef struct spmvlab_member_result {
    spmvlab_result outcome;     /* OK, or what ended the member's part */
    char message[1024];         /* the failure's sentence and the notes ("; " between notes), or "" */
    int converted;              /* 1: storage, footprint and describe hold */
    char storage[8];            /* the value type the format stores (declare_storage), by name */
    double footprint;           /* the format's device bytes */
    char describe[512];         /* the plugin's describe() facts */
    char log[2048];             /* the plugin's log lines (-v) */
    double convert_ms, convert_peak_bytes;
    double error_ratio;         /* the largest error over the bound of every comparison */
    char batch_method[8];       /* graph or stream, once calibrated */
    /* once timed and verified again after the rounds (nsamples > 0): */
    int nsamples, batch_n;      /* rounds; calls per back-to-back sample */
    double *single, *batch;     /* the samples in ms, one per round (malloc'd: the caller frees them) */
    double single_ms, single_p10, single_p90, batch_ms, batch_p10, batch_p90; /* medians, 10th, 90th percentiles */
    double ms, ms_p10, ms_p90;  /* the primary kind's */
    double bound_us, bound_frac; /* the bound (bound.h) and its share of ms */
    char bound_kind[8];
    double wall_ms;             /* host time spent on the member: convert, checks, timing */
} spmvlab_member_result;

/* One instance of a group: what to convert, the engine's state, the result. */
typedef struct spmvlab_trial_member {
    const spmvlab_loaded *plugin;
    const char *label;
    const spmvlab_optset *opts;
    spmvlab_member_result res;
    /* the engine's own */
    spmvlab_instance in;
    int converted, timed;       /* timed: verified on the GPU and taking part in the rounds */
    void *dy;                   /* the member's y */
    void *graph_exec;           /* cudaGraphExec_t of batch_n calls, or NULL: stream launches */
    int cap;                    /* of the sample arrays */
    int summarised;             /* its samples stand: checked after the rounds, medians taken */
} spmvlab_trial_member;

/* Measures the n members of a group on one trial: opens it (and the
 * permutation of ORDER+call), then per member convert, the footprint
 * cross-check and the check against the reference, each followed by a
 * device-fault check; on a GPU the timing rounds of every member that
 * passed, its check again on y as the launches left it, the medians and
 * the bound; last every format destroyed. Failures become outcomes in the
 * members' results, never a return value. *faulted = the member that left
 * the CUDA context unusable (its outcome DEVICE_FAULT; the others' results
 * are void), else -1. Returns OK, or the outcome of a group that could not
 * run at all (every member's result says why). */
spmvlab_result spmvlab_trial_measure(const spmvlab_trial_group *g, spmvlab_trial_member *m, int n, int *faulted);
/* The timing of spmvlab_trial_measure (trial_time.c): warm-up,
 * calibration and the rounds of every member with timed = 1 on the trial's
 * x, then each checked again on y as the launches left it, its medians and
 * bound taken. A member that fails leaves the rounds with its outcome.
 * Returns the member that faulted the device, or -1. */
int spmvlab_trial_time(const spmvlab_trial_group *g, spmvlab_trial *t, spmvlab_trial_member *m, int n);
/* Ends a member's part: the outcome and the sentence, no more timing. */
void spmvlab_member_fail(spmvlab_trial_member *mb, spmvlab_result o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Runs the member once into poisoned y (or, with AS_LEFT, reads y as the
 * timed launches left it) and keeps the largest error ratio. Returns 0
 * within the bound; else -1, the member failed with the sentence. */
int spmvlab_member_verify(spmvlab_trial *t, spmvlab_trial_member *mb, spmvlab_trial_run how);
/* After mb failed or finished a step: 1 when the CUDA context is unusable
 * (spmvlab_runtime_fault); mb's outcome then is DEVICE_FAULT. */
int spmvlab_member_faulted(spmvlab_runtime *rt, spmvlab_trial_member *mb);

#ifdef __cplusplus
}
#endif
#endif
