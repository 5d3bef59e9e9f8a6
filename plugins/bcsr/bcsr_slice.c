/*
 * bcsr's slice layout, for the lane-per-row kernel (bcsr_slice.cu): block
 * rows are grouped in slices of h = BCSR_WARP / r, one warp per slice and
 * one lane per row of a block row (h * r lanes busy: 30 for r = 3 and 6).
 * As SELL-C-sigma interleaves the rows of a slice (Kreutzer et al., SIAM
 * J. Sci. Comput. 36(5), 2014), the blocks of a slice's block rows are
 * interleaved: step k of the slice holds block k of each of its nbs block
 * rows, and within a step the values are column-major over the slice's
 * rows, so the load of column jj of step k by all lanes is nbs * r
 * consecutive words. A slice is padded to its longest block row; lanes
 * stop at their own block row's length, so padding is stored, not read.
 *
 *   slot of (step k, block row b of slice s):  sptr[s] + k * nbs + b
 *   value (row ii, column jj of that block):   sptr[s] * r * c
 *                                              + (k * c + jj) * nbs * r + b * r + ii
 * with nbs = min(h, nbr - s * h): the last slice is narrower, not padded.
 */
#include <stdlib.h>
#include <string.h>

#include "bcsr.h"

#define BCSR_SLICE_PAD 0.10  /* auto: the padding a slice layout may add, share of blocks */
/* auto: the remainder's mean entries a row. A lane walks its row's
 * remainder alone; with a few entries a row the lanes' loads of one entry
 * fall in the few lines the next entries need too, while the warp kernel
 * spends a 5-shuffle reduction per row and leaves most lanes idle on such
 * rows. The slice kernel still won with 8 remainder entries a row, hence a
 * limit of 16 (README.md, the option table's `kernel` row). */
#define BCSR_SLICE_REM 16.0
#define BCSR_SLICE_ROW 32    /* auto: the longest remainder row one lane walks */

/* Block rows per slice and the rows of slice s. */
static int32_t slice_h(const bcsr_fmt *f) { return BCSR_WARP / f->r; }

static int32_t slice_rows(const bcsr_fmt *f, int32_t s, int32_t h)
{
    int64_t left = (int64_t)f->nbr - (int64_t)s * h;
    return left < h ? (int32_t)left : h;
}

/* The longest block row of slice s. */
static int32_t slice_width(const bcsr_fmt *f, int32_t s, int32_t h, int32_t nbs)
{
    int32_t w = 0;
    for (int32_t b = 0; b < nbs; b++) {
        int32_t br = s * h + b, len = f->bptr[br + 1] - f->bptr[br];
        w = len > w ? len : w;
    }
    return w;
}

int64_t bcsr_slice_slots(const bcsr_fmt *f)
{
    const int32_t h = slice_h(f), ns = (f->nbr + h - 1) / h;
    int64_t slots = 0;
    for (int32_t s = 0; s < ns; s++) {
        int32_t nbs = slice_rows(f, s, h);
        slots += (int64_t)slice_width(f, s, h, nbs) * nbs;
    }
    return slots;
}

int bcsr_slice_pays(const bcsr_fmt *f)
{
    if (f->nblocks == 0 || (double)f->rem_nnz > BCSR_SLICE_REM * (double)f->rows)
        return 0;
    if (f->rptr)
        for (int32_t i = 0; i < f->rows; i++)
            if (f->rptr[i + 1] - f->rptr[i] > BCSR_SLICE_ROW)
                return 0;
    return (double)bcsr_slice_slots(f) <= (1.0 + BCSR_SLICE_PAD) * (double)f->nblocks;
}

spmvlab_status bcsr_slice(bcsr_fmt *f, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    const int32_t h = slice_h(f), ns = (f->nbr + h - 1) / h;
    const int r = f->r, c = f->c;
    const size_t vs = f->vs.elem, rc = (size_t)r * (size_t)c; /* values or codes */
    const int64_t slots = bcsr_slice_slots(f);
    if (slots > INT32_MAX)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT, "the bcsr slice layout needs %lld block slots, over int32",
                         (long long)slots);
    int32_t *sptr = malloc(((size_t)ns + 1) * sizeof *sptr);
    int32_t *bcol = calloc((size_t)slots + 1, sizeof *bcol); /* padding: column 0, never read */
    char *bval = calloc((size_t)slots * rc * vs + 1, 1);     /* padding: +0.0, never read */
    if (!sptr || !bcol || !bval) {
        free(sptr);
        free(bcol);
        free(bval);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld bcsr slice slots",
                         (long long)slots);
    }
    const char *src = f->bval;
    sptr[0] = 0;
    for (int32_t s = 0; s < ns; s++) {
        const int32_t nbs = slice_rows(f, s, h), lanes = nbs * r;
        const size_t base = (size_t)sptr[s] * rc;
        for (int32_t b = 0; b < nbs; b++) {
            const int32_t br = s * h + b;
            for (int32_t k = 0; k < f->bptr[br + 1] - f->bptr[br]; k++) {
                const int32_t blk = f->bptr[br] + k;
                bcol[sptr[s] + k * nbs + b] = f->bcol[blk];
                for (int ii = 0; ii < r; ii++)
                    for (int jj = 0; jj < c; jj++) {
                        size_t to = base + ((size_t)k * c + jj) * lanes + (size_t)b * r + ii;
                        size_t from = (size_t)blk * rc + (size_t)ii * c + jj;
                        if (vs)
                            memcpy(bval + to * vs, src + from * vs, vs);
                    }
            }
        }
        sptr[s + 1] = sptr[s] + slice_width(f, s, h, nbs) * nbs;
    }
    free(f->bcol);
    free(f->bval);
    f->bcol = bcol;
    f->bval = bval;
    f->sptr = sptr;
    f->nslices = ns;
    f->slice_h = h;
    f->nslots = (int32_t)slots;
    f->slice = 1;
    return SPMVLAB_OK;
}

int bcsr_slice_windows(bcsr_fmt *f)
{
    const int32_t ntb = bcsr_slice_blocks(f), h = f->slice_h;
    f->xwin = malloc(((size_t)ntb * 2 + 1) * sizeof *f->xwin);
    if (!f->xwin)
        return -1;
    const size_t vs = spmvlab_dtype_size(f->dtype);
    int32_t widest = 0;
    for (int32_t t = 0; t < ntb; t++) {
        int32_t lo = INT32_MAX, hi = 0;
        for (int32_t br = t * BCSR_SLICE_WARPS * h; br < (t + 1) * BCSR_SLICE_WARPS * h && br < f->nbr; br++) {
            const int32_t s = br / h, b = br - s * h, nbs = f->nbr - s * h < h ? f->nbr - s * h : h;
            for (int32_t k = 0; k < f->bptr[br + 1] - f->bptr[br]; k++) {
                const int32_t col = f->bcol[f->sptr[s] + k * nbs + b];
                lo = col < lo ? col : lo;
                hi = col + f->c > hi ? col + f->c : hi;
            }
        }
        if (lo > hi)
            lo = hi = 0;
        f->xwin[2 * t] = lo;
        f->xwin[2 * t + 1] = hi;
        widest = hi - lo > widest ? hi - lo : widest;
    }
    if ((size_t)widest * vs > BCSR_XWIN_BYTES) {
        free(f->xwin);
        f->xwin = NULL;
        widest = 0;
    }
    f->xwin_max = widest;
    return 0;
}
