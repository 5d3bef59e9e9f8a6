/*
 * tilespmv's whole-matrix rule (deferred = auto): where the tiles do not
 * pay, every entry goes to the deferred CSR part and the merge pass sums
 * it, as the merge plugin would. Fitted on the corpus tune part (README.md,
 * "Where the tiles pay"; docs/perf/2026-11-28-corpus-tune): there the tile
 * kernel beat the whole-matrix merge pass only on short rows of matrices
 * under about 2e6 non-zeros and on bands whose tiles are dense, a tile part
 * beside an uneven deferred part collapsed (Maragal_6, mbeacxc), and a
 * fused deferred part of long rows or of a large matrix ran below the
 * merge pass, which ran those members at the merge plugin's level. The
 * mean row is taken over the rows with entries: 90 % empty rows of 32
 * entries ran on the tiles at 0.42-0.69x cuSPARSE, at the merge pass's
 * 0.83-0.87x (empty-e0.9-k32-6e5, -6e4). The third tune pass (README.md,
 * "Where the tiles pay") bounded both clauses by size: stored tiles of
 * short rows lost to the merge pass from 2^19 non-zeros (stencils and
 * narrow bands), dense tiles below 2^20 (small bands).
 */
#include "tilespmv.h"

/* The rows of A holding at least one entry. */
static int32_t filled_rows(const spmvlab_matrix *A)
{
    int32_t n = 0;
    for (int32_t i = 0; i < A->rows; i++)
        n += A->row_ptr[i + 1] > A->row_ptr[i];
    return n;
}

int tilespmv_whole_merge(const tilespmv_fmt *f, const spmvlab_matrix *A)
{
    if (A->nnz == 0 || (f->ntiles == 0 && f->path == TILESPMV_DEFER_MERGE))
        return 0; /* nothing to sum, or already the whole-matrix merge pass */
    if (f->ntiles > 0 && f->ndef > 0 && f->path == TILESPMV_DEFER_MERGE)
        return 1; /* tiles beside an uneven deferred part */
    const int shortrows = (double)A->nnz <= TILESPMV_SHORT_MEAN * filled_rows(A) && A->nnz < TILESPMV_SHORT_NNZ;
    if (shortrows) /* rows of the fused deferred part alone keep it at any size */
        return f->ntiles > 0 && A->nnz >= TILESPMV_SHORT_TILES_NNZ;
    const double per_tile = f->ntiles > 0 ? (double)(A->nnz - f->ndef) / f->ntiles : 0.0;
    return per_tile < TILESPMV_DENSE_TILE || A->nnz < TILESPMV_DENSE_NNZ;
}
