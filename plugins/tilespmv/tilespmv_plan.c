/*
 * tilespmv's work plan: one warp a chunk (tilespmv.h, enum chunk_kind).
 * A tile row whose warp would loop long — more than chunk_tiles tiles, or a
 * lane more than chunk_tiles trips over its rows' deferred entries — is
 * split: its tiles into equal PIECE chunks of at most chunk_tiles tiles,
 * each deferred row into equal DEFERRED chunks of at most 32 x chunk_tiles
 * entries, all added atomically into rows zeroed first. Every other tile
 * row is one WHOLE chunk that writes its 16 rows of y once. Split chunks
 * come first, so the long work starts before the short. On the merge path
 * (tilespmv_defer.c) the deferred part is not the chunks' work: a tile row
 * splits by its tiles alone, into PIECE chunks only, WHOLE chunks add
 * their rows to y, and a tile row without tiles has no chunk.
 */
#include <stdlib.h>

#include "tilespmv.h"

/* defer_lanes = auto: the smallest power of two, 2 .. 32, at least the
 * mean length of the rows that defer any entry, each counted as at most 32
 * (the csr plugin's rule, but a few long rows, which go to DEFERRED chunks
 * anyway, must not give every short row a whole warp). */
static int32_t auto_lanes(const tilespmv_fmt *f)
{
    int64_t nonempty = 0, capped = 0;
    int32_t lanes = 2;
    for (int32_t r = 0; r < f->rows; r++) {
        int32_t len = f->dptr[r + 1] - f->dptr[r];
        nonempty += len > 0;
        capped += len < TILE_WARP ? len : TILE_WARP;
    }
    double mean = nonempty > 0 ? (double)capped / (double)nonempty : 0;
    while (lanes < TILE_WARP && lanes < mean)
        lanes *= 2;
    return lanes;
}

/* The longest loop of a lane of tile row tr's WHOLE chunk over deferred
 * entries: 32 / lanes rows a pass, each pass as long as its longest row. */
static int64_t deferred_trips(const tilespmv_fmt *f, int32_t tr)
{
    const int32_t per_pass = TILE_WARP / f->lanes;
    int64_t trips = 0;
    for (int32_t p = 0; p < TILE; p += per_pass) {
        int64_t most = 0;
        for (int32_t r = tr * TILE + p; r < tr * TILE + p + per_pass && r < f->rows; r++) {
            int64_t t = (f->dptr[r + 1] - f->dptr[r] + f->lanes - 1) / f->lanes;
            most = t > most ? t : most;
        }
        trips += most;
    }
    return trips;
}

static int is_split(const tilespmv_fmt *f, const tilespmv_opts *o, int32_t tr)
{
    return f->tptr[tr + 1] - f->tptr[tr] > o->chunk_tiles ||
           (f->path == TILESPMV_DEFER_FUSED && deferred_trips(f, tr) > o->chunk_tiles);
}

/* Writes chunk (kind, id, begin, end) at *at, when out is set; counts it. */
static void put_chunk(int32_t *out, int64_t *at, int kind, int32_t id, int32_t begin, int32_t end)
{
    if (out) {
        int32_t *c = out + CHUNK_INTS * *at;
        c[0] = kind, c[1] = id, c[2] = begin, c[3] = end;
    }
    ++*at;
}

/* The split chunks of tile row tr: its tiles in equal pieces, then (fused)
 * each row's deferred entries in equal pieces. */
static void split_chunks(const tilespmv_fmt *f, const tilespmv_opts *o, int32_t tr, int32_t *out, int64_t *at)
{
    const int64_t piece = (int64_t)TILE_PIECE_PER_LANE * o->chunk_tiles;
    int64_t first = f->tptr[tr], n = f->tptr[tr + 1] - first, k = (n + o->chunk_tiles - 1) / o->chunk_tiles;
    for (int64_t q = 0; q < k; q++)
        put_chunk(out, at, CHUNK_PIECE, tr, (int32_t)(first + n * q / k), (int32_t)(first + n * (q + 1) / k));
    if (f->path != TILESPMV_DEFER_FUSED)
        return;
    for (int32_t r = tr * TILE; r < tr * TILE + TILE && r < f->rows; r++) {
        int64_t b = f->dptr[r], len = f->dptr[r + 1] - b, m = (len + piece - 1) / piece;
        for (int64_t q = 0; q < m; q++)
            put_chunk(out, at, CHUNK_DEFERRED, r, (int32_t)(b + len * q / m), (int32_t)(b + len * (q + 1) / m));
    }
}

/* Every chunk in launch order into out (NULL: count only); the split tile
 * rows into split. Returns the number of chunks. */
static int64_t lay_chunks(const tilespmv_fmt *f, const tilespmv_opts *o, int32_t *out, int32_t *split)
{
    int64_t at = 0, nsplit = 0;
    for (int32_t tr = 0; tr < f->tile_rows; tr++)
        if (is_split(f, o, tr)) {
            if (split)
                split[nsplit] = tr;
            nsplit++;
            split_chunks(f, o, tr, out, &at);
        }
    const int fused = f->path == TILESPMV_DEFER_FUSED;
    for (int32_t tr = 0; tr < f->tile_rows; tr++) /* merge: a tile row without tiles has nothing to add */
        if (!is_split(f, o, tr) && (fused || f->tptr[tr + 1] > f->tptr[tr]))
            put_chunk(out, &at, CHUNK_WHOLE, tr, f->tptr[tr], f->tptr[tr + 1]);
    return at;
}

spmvlab_status tilespmv_plan(tilespmv_fmt *f, const tilespmv_opts *o, spmvlab_err *err)
{
    f->lanes = o->defer_lanes == SPMVLAB_AUTO ? auto_lanes(f) : o->defer_lanes;
    int64_t n = lay_chunks(f, o, NULL, NULL);
    f->nsplit = 0;
    for (int32_t tr = 0; tr < f->tile_rows; tr++)
        f->nsplit += is_split(f, o, tr);
    if (n > INT32_MAX / CHUNK_INTS)
        return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT, "tilespmv would need %lld chunks (at most 2^29)",
                            (long long)n);
    f->nchunks = (int32_t)n;
    f->chunk = malloc((size_t)n * CHUNK_INTS * sizeof *f->chunk + 1);
    f->split = malloc((size_t)f->nsplit * sizeof *f->split + 1);
    if (!f->chunk || !f->split)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld tilespmv chunks",
                            (long long)n);
    lay_chunks(f, o, f->chunk, f->split);
    return SPMVLAB_OK;
}

size_t tilespmv_bytes(const tilespmv_fmt *f)
{
    const size_t s = spmvlab_dtype_size(f->dtype);
    const int fused = f->path == TILESPMV_DEFER_FUSED;
    size_t bytes = 16 * (size_t)f->nchunks + (fused ? 4 * (size_t)f->nsplit : 0) + 14 * (size_t)f->ntiles + 8 +
                   s * (size_t)f->nvals + (size_t)f->nidx;
    if (f->ndef > 0) /* the deferred part is uploaded only when it holds entries */
        bytes += 4 * ((size_t)f->rows + 1) + (4 + s) * (size_t)f->ndef;
    if (!fused) /* the merge pass's tile starts and carries */
        bytes += merge_scratch_bytes(&f->mdev, s);
    return bytes;
}
