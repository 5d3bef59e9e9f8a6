/*
 * A permutation kept inside every call of an instance (`--reorder
 * ORDER+call`, docs/methodology.md §12): the instance is converted from
 * the permuted matrix P A P^T but called with x and y in the matrix's own
 * order, so each call gathers x_p = P x, runs the plugin's SpMV on x_p
 * into y_p and scatters y = P^T y_p. Any plugin composes with it untouched:
 * the core calls an instance through spmvlab_instance_spmv(_host), which
 * adds the two permutations when the instance has a permuted call.
 *
 * The permutation and the scratch vectors x_p and y_p are allocated before
 * any call and freed after, outside the instance's tracked bytes: they are
 * the harness's, not the format's. A permutation is perm[new] = old.
 */
#ifndef SPMVLAB_PERMUTED_CALL_H
#define SPMVLAB_PERMUTED_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "spmvlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spmvlab_permuted_call {
    spmvlab_runtime *rt;
    spmvlab_dtype dtype;
    int32_t rows, cols;
    int permute_x;              /* 1 for a square matrix (P A P^T); 0 when only rows move (P A): x as given */
    int32_t *perm;              /* host copy, rows entries */
    int32_t *dev_perm;          /* the device copy (the host stand-in without a GPU) */
    void *dev_xp, *dev_yp;      /* device scratch: P x (square only) and the plugin's y */
    void *host_xp, *host_yp;    /* host scratch of spmv_host */
} spmvlab_permuted_call;

/* Copies perm (rows entries, a permutation: spmvlab_csr_permute checked
 * it when it built the permuted matrix, so it is not checked again on
 * every open) and allocates the scratch for values of dtype; cols is the matrix's column count (x_p exists only when
 * rows == cols). Returns OK, NOMEM or CUDA_ERROR with a sentence; on
 * failure c holds nothing. */
spmvlab_status spmvlab_permuted_call_open(spmvlab_permuted_call *c, spmvlab_runtime *rt, const int32_t *perm,
                                          int32_t rows, int32_t cols, spmvlab_dtype dtype, spmvlab_err *err);
/* Frees everything (idempotent on a zeroed c). */
void spmvlab_permuted_call_close(spmvlab_permuted_call *c);
/* Fills the scratch y_p with NaN (device: on the runtime's stream; else
 * the host one), so that a row the plugin leaves unwritten fails the check
 * instead of passing with a value an earlier call left there. */
spmvlab_status spmvlab_permuted_call_poison(spmvlab_permuted_call *c, int device, spmvlab_err *err);

/* The instance's SpMV as the core issues it, y = A x on the runtime's
 * stream: the plugin's spmv, or gather, spmv, scatter when in->call is set.
 * Asynchronous and allocation-free either way, so it can be captured in a
 * CUDA graph and timed as one call. */
spmvlab_status spmvlab_instance_spmv(const spmvlab_instance *in, const void *x, void *y, spmvlab_err *err);
/* The same on the CPU with the plugin's spmv_host (host x and y). */
spmvlab_status spmvlab_instance_spmv_host(const spmvlab_instance *in, const void *x, void *y, spmvlab_err *err);

/* Device gather out[i] = in[perm[i]] and scatter out[perm[i]] = in[i] of n
 * values of value_size bytes (2, 4 or 8, moved as bits), launched on the
 * runtime's stream, asynchronous; the launch is checked. Without a GPU
 * they run on the host stand-ins (spmvlab_gather_values). Returns OK,
 * CUDA_ERROR or INTERNAL (a value size not 2, 4 or 8) with a sentence. */
spmvlab_status spmvlab_dev_gather(spmvlab_runtime *rt, void *out, const void *in, const int32_t *perm, int32_t n,
                                  size_t value_size, spmvlab_err *err);
spmvlab_status spmvlab_dev_scatter(spmvlab_runtime *rt, void *out, const void *in, const int32_t *perm, int32_t n,
                                   size_t value_size, spmvlab_err *err);

#ifdef __cplusplus
}
#endif
#endif
