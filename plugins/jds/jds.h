/*
 * jds: the kernel launchers that jds.c calls and jds.cu defines. Each returns
 * cudaGetLastError() after its launch (cudaSuccess when there was nothing to
 * launch). Values, x and y are double for SPMVLAB_F64 and float for
 * SPMVLAB_F32.
 */
#ifndef SPMVLAB_JDS_H
#define SPMVLAB_JDS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block: one thread per sorted row. */
#define JDS_BLOCK 256

/* Plain JDS: thread r (sorted position) sums entry d of its row at
 * jd_ptr[d] + r while r < jd_ptr[d+1] - jd_ptr[d], and stores the sum in
 * y[perm[r]]. Every row is written, empty rows with 0. */
cudaError_t jds_launch_diagonals(int dtype, int32_t rows, int32_t diagonals, const int32_t *perm,
                                 const int32_t *jd_ptr, const int32_t *col, const void *val,
                                 const void *x, void *y, cudaStream_t stream);

/* Sectioned JDS: sorted row r lies in section s = r / section_rows, an ELL
 * block of nr rows (section_rows, the last may be shorter) and width
 * (sec_ptr[s+1] - sec_ptr[s]) / nr; slot (r, k) at sec_ptr[s] + k*nr + r -
 * s*section_rows; col < 0 marks padding, at the end of a row. */
cudaError_t jds_launch_sections(int dtype, int32_t rows, int32_t section_rows, const int32_t *perm,
                                const int32_t *sec_ptr, const int32_t *col, const void *val,
                                const void *x, void *y, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
