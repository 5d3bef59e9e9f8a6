/*
 * The longest row of A, shared by bcsr (the warp kernel's row bound), ell
 * (its width), hyb (the ELL width's histogram) and cusparse (Sliced-ELL's
 * width). Header only: each plugin compiles its own copy.
 */
#ifndef SPMVLAB_PLUGINS_ROW_LENGTH_H
#define SPMVLAB_PLUGINS_ROW_LENGTH_H

#include <stdint.h>

#include "spmvlab/plugin.h"

/* The most entries of one row of A (0 without rows). */
static inline int32_t longest_row(const spmvlab_matrix *A)
{
    int32_t most = 0;
    for (int32_t i = 0; i < A->rows; i++)
        if (A->row_ptr[i + 1] - A->row_ptr[i] > most)
            most = A->row_ptr[i + 1] - A->row_ptr[i];
    return most;
}

#endif
