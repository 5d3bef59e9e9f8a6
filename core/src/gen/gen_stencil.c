/* Finite-difference stencils on regular grids: stencil2d5 (n x n grid,
 * 5-point), stencil3d7 and stencil3d27 (n x n x n grid). Row (z, y, x) is
 * z·n² + y·n + x and holds the grid neighbours that exist, so interior
 * rows have exactly 5, 7 or 27 entries and boundary rows fewer. */
#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct stencil_params {
    gen_common common;
    int n; /* grid side */
} stencil_params;

static const spmvlab_option params_2d[] = {
    GEN_PARAM(stencil_params, n, SPMVLAB_OPT_INT, "100", 1, 46340, "grid side: n x n points, one row each"),
    GEN_COMMON_PARAMS(stencil_params),
    {0},
};

static const spmvlab_option params_3d[] = {
    GEN_PARAM(stencil_params, n, SPMVLAB_OPT_INT, "30", 1, 1290, "grid side: n x n x n points, one row each"),
    GEN_COMMON_PARAMS(stencil_params),
    {0},
};

static double side(const void *p) { return ((const stencil_params *)p)->n; }

/* Entries of each kind as a function of n (boundary rows lose neighbours). */
static double nnz_2d5(double n) { return 5 * n * n - 4 * n; }
static double nnz_3d7(double n) { return 7 * n * n * n - 6 * n * n; }
static double nnz_3d27(double n) { return (3 * n - 2) * (3 * n - 2) * (3 * n - 2); }

static int check_2d5(const void *p, spmvlab_err *err)
{
    return gen_fits("stencil2d5", "non-zeros", nnz_2d5(side(p)), err);
}
static int check_3d7(const void *p, spmvlab_err *err)
{
    return gen_fits("stencil3d7", "non-zeros", nnz_3d7(side(p)), err);
}
static int check_3d27(const void *p, spmvlab_err *err)
{
    return gen_fits("stencil3d27", "non-zeros", nnz_3d27(side(p)), err);
}

/* Fills a grid of nz x n x n points (nz = 1 for 2D) with the neighbours
 * whose offset (dz, dy, dx) has at most max_nonzero non-zero components;
 * offsets run in lexicographic order, which is column order. */
static int stencil(const char *kind, int32_t n, int32_t nz, int max_nonzero, double nnz,
                   spmvlab_csr *A, spmvlab_err *err)
{
    int64_t plane = (int64_t)n * n;
    if (gen_csr_alloc(A, kind, plane * nz, plane * nz, (int64_t)nnz, err))
        return -1;
    int32_t k = 0, row = 0;
    int zr = nz > 1 ? 1 : 0;
    for (int32_t z = 0; z < nz; z++)
        for (int32_t y = 0; y < n; y++)
            for (int32_t x = 0; x < n; x++) {
                for (int dz = -zr; dz <= zr; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            if ((dz != 0) + (dy != 0) + (dx != 0) > max_nonzero)
                                continue;
                            int32_t zz = z + dz, yy = y + dy, xx = x + dx;
                            if (zz < 0 || zz >= nz || yy < 0 || yy >= n || xx < 0 || xx >= n)
                                continue;
                            A->col_idx[k++] = (int32_t)(zz * plane + (int64_t)yy * n + xx);
                        }
                A->row_ptr[++row] = k;
            }
    if (k != A->nnz) {
        spmvlab_csr_free(A);
        spmvlab_errf(err, "%s: filled %d entries, expected %.0f", kind, k, nnz);
        return -1;
    }
    return 0;
}

static int gen_2d5(const void *p, spmvlab_csr *A, spmvlab_err *err)
{
    int32_t n = ((const stencil_params *)p)->n;
    return stencil("stencil2d5", n, 1, 1, nnz_2d5(n), A, err);
}
static int gen_3d7(const void *p, spmvlab_csr *A, spmvlab_err *err)
{
    int32_t n = ((const stencil_params *)p)->n;
    return stencil("stencil3d7", n, n, 1, nnz_3d7(n), A, err);
}
static int gen_3d27(const void *p, spmvlab_csr *A, spmvlab_err *err)
{
    int32_t n = ((const stencil_params *)p)->n;
    return stencil("stencil3d27", n, n, 3, nnz_3d27(n), A, err);
}

const spmvlab_gen_kind gen_kind_stencil2d5 = {
    "stencil2d5", "5-point Laplacian pattern on an n x n grid (n^2 rows, <= 5 per row)",
    params_2d, 1, check_2d5, gen_2d5, sizeof(stencil_params),
};
const spmvlab_gen_kind gen_kind_stencil3d7 = {
    "stencil3d7", "7-point stencil on an n x n x n grid (n^3 rows, <= 7 per row)",
    params_3d, 1, check_3d7, gen_3d7, sizeof(stencil_params),
};
const spmvlab_gen_kind gen_kind_stencil3d27 = {
    "stencil3d27", "27-point stencil on an n x n x n grid (n^3 rows, <= 27 per row)",
    params_3d, 1, check_3d27, gen_3d27, sizeof(stencil_params),
};
