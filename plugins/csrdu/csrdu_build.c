/*
 * csrdu conversion on the host: the chunked column compression with its
 * escape, the warp tasks, and the f32 storage check. Pure functions of the
 * CSR arrays, so the unit tests call them directly.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csrdu_format.h"

static uint32_t off_at(const csrdu_index *ix, int64_t k)
{
    return ix->delta_bits == 8 ? ((const uint8_t *)ix->off)[k] : ((const uint16_t *)ix->off)[k];
}

static uint32_t hi_at(const csrdu_index *ix, int64_t i)
{
    return ix->hi_bytes == 1 ? ((const uint8_t *)ix->hi)[i] : ((const uint16_t *)ix->hi)[i];
}

int32_t csrdu_index_col(const csrdu_index *ix, int64_t k)
{
    int32_t b = ix->base[k / CSRDU_CHUNK];
    uint32_t h = b < 0 ? hi_at(ix, csrdu_hi_index(b, k)) : 0;
    return csrdu_decode(b, off_at(ix, k), h, ix->delta_bits);
}

size_t csrdu_index_bytes(const csrdu_index *ix)
{
    return (size_t)ix->nchunks * 4 + (size_t)ix->nnz * (size_t)(ix->delta_bits / 8) +
           (size_t)ix->nesc * CSRDU_CHUNK * (size_t)ix->hi_bytes;
}

void csrdu_index_free(csrdu_index *ix)
{
    free(ix->base);
    free(ix->off);
    free(ix->hi);
    memset(ix, 0, sizeof *ix);
}

/* Two passes: the first finds the escaped chunks and their largest column
 * (which decides whether 8 high bits suffice), the second writes. An
 * escaped chunk stores the low delta_bits of each column in off and the
 * rest in hi, so it costs off + hi bytes an entry (3 with 16-bit offsets
 * and columns below 2^24) instead of CSR's 4. */
int csrdu_index_build(csrdu_index *ix, const int32_t *col, int64_t nnz, int delta_bits, int32_t *bad_col)
{
    memset(ix, 0, sizeof *ix);
    ix->delta_bits = delta_bits;
    ix->nnz = nnz;
    ix->nchunks = (nnz + CSRDU_CHUNK - 1) / CSRDU_CHUNK;
    const int64_t span = (int64_t)1 << delta_bits;
    int32_t max_esc = 0;
    ix->base = malloc((size_t)(ix->nchunks ? ix->nchunks : 1) * sizeof(int32_t));
    if (!ix->base)
        return -1;
    for (int64_t c = 0; c < ix->nchunks; c++) {
        int64_t k0 = c * CSRDU_CHUNK, k1 = k0 + CSRDU_CHUNK < nnz ? k0 + CSRDU_CHUNK : nnz;
        int32_t lo = col[k0], hi = col[k0];
        for (int64_t k = k0 + 1; k < k1; k++) {
            lo = col[k] < lo ? col[k] : lo;
            hi = col[k] > hi ? col[k] : hi;
        }
        if ((int64_t)hi - lo < span) {
            ix->base[c] = lo;
        } else {
            ix->base[c] = ~(int32_t)ix->nesc++;
            max_esc = hi > max_esc ? hi : max_esc;
        }
    }
    int64_t top = (int64_t)max_esc >> delta_bits;
    ix->hi_bytes = ix->nesc == 0 ? 0 : top < 256 ? 1 : 2;
    if (top >= 65536) {
        *bad_col = max_esc;
        return -2;
    }
    size_t ob = (size_t)delta_bits / 8, hb = (size_t)ix->hi_bytes;
    ix->off = malloc((size_t)(nnz ? nnz : 1) * ob);
    ix->hi = malloc((size_t)(ix->nesc ? ix->nesc * CSRDU_CHUNK : 1) * (hb ? hb : 1));
    if (!ix->off || !ix->hi)
        return -1;
    /* The tail of the last escaped chunk, past nnz, is never read; zero it
     * so the uploaded bytes are defined. */
    memset(ix->hi, 0, (size_t)(ix->nesc ? ix->nesc * CSRDU_CHUNK : 1) * (hb ? hb : 1));
    for (int64_t k = 0; k < nnz; k++) {
        int32_t b = ix->base[k / CSRDU_CHUNK];
        uint32_t o = b >= 0 ? (uint32_t)(col[k] - b) : (uint32_t)col[k] & (uint32_t)(span - 1);
        if (ob == 1)
            ((uint8_t *)ix->off)[k] = (uint8_t)o;
        else
            ((uint16_t *)ix->off)[k] = (uint16_t)o;
        if (b < 0) {
            uint32_t h = (uint32_t)col[k] >> delta_bits;
            int64_t i = csrdu_hi_index(b, k);
            if (hb == 1)
                ((uint8_t *)ix->hi)[i] = (uint8_t)h;
            else
                ((uint16_t *)ix->hi)[i] = (uint16_t)h;
        }
    }
    return 0;
}

void csrdu_plan_free(csrdu_plan *p)
{
    free(p->tasks);
    free(p->splits);
    memset(p, 0, sizeof *p);
}

/* Pieces of a long row: one when it fits `piece`. */
static int32_t pieces_of(int64_t len, int piece) { return (int32_t)((len + piece - 1) / piece); }

/* Row tiles greedily (tile > 0): consecutive rows while their entries fit
 * the tile and they are at most tile_rows rows (so a run of empty rows is
 * bounded); a row longer than long_len ends the tile and becomes pieces of
 * its own. Without tiles (the vector kernel) only the pieces are tasks. */
int csrdu_plan_build(csrdu_plan *p, const int32_t *rp, int32_t rows, int32_t long_len, int tile, int tile_rows,
                     int piece)
{
    memset(p, 0, sizeof *p);
    int64_t npieces = 0, ntiles = 0, nsplits = 0;
    for (int pass = 0; pass < 2; pass++) {
        int64_t pi = 0, ti = npieces, si = 0, slot = 0;
        int32_t r = 0;
        while (r < rows) {
            int64_t len = rp[r + 1] - rp[r];
            if (len > long_len) {
                int32_t n = pieces_of(len, piece);
                int64_t each = (len + n - 1) / n;
                if (pass == 1 && n > 1)
                    p->splits[si] = (csrdu_split){r, (int32_t)slot, n, 0};
                for (int32_t q = 0; q < n && pass == 1; q++) {
                    int64_t k0 = rp[r] + q * each, k1 = k0 + each < rp[r + 1] ? k0 + each : rp[r + 1];
                    p->tasks[pi + q] = (csrdu_task){(int32_t)k0, (int32_t)k1, ~r, n > 1 ? (int32_t)(slot + q) : -1};
                }
                pi += n;
                si += n > 1;
                slot += n > 1 ? n : 0;
                r++;
                continue;
            }
            if (tile == 0) { /* the vector kernel's rows need no task */
                r++;
                continue;
            }
            int32_t r0 = r;
            while (r < rows && r - r0 < tile_rows && rp[r + 1] - rp[r0] <= tile && rp[r + 1] - rp[r] <= long_len)
                r++;
            if (pass == 1)
                p->tasks[ti] = (csrdu_task){rp[r0], rp[r], r0, r};
            ti++;
        }
        if (pass == 0) {
            npieces = pi;
            ntiles = ti;
            nsplits = si;
            p->nslots = (int32_t)slot;
            if (npieces + ntiles > INT32_MAX)
                return -1;
            p->tasks = malloc((size_t)(npieces + ntiles ? npieces + ntiles : 1) * sizeof *p->tasks);
            p->splits = malloc((size_t)(nsplits ? nsplits : 1) * sizeof *p->splits);
            if (!p->tasks || !p->splits)
                return -1;
        }
    }
    p->ntasks = (int32_t)(npieces + ntiles);
    p->npieces = (int32_t)npieces;
    p->nsplits = (int32_t)nsplits;
    return 0;
}

int64_t csrdu_f32_unsafe(const double *val, int64_t nnz)
{
    for (int64_t k = 0; k < nnz; k++) {
        double v = val[k], a = fabs(v);
        if (!isfinite(v) || v == 0)
            continue; /* Inf and NaN stay what they are; zero stays zero */
        float s = (float)v;
        if (isinf(s) || fabsf(s) < FLT_MIN || a < FLT_MIN)
            return k;
    }
    return -1;
}
