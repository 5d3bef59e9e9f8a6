/*
 * CSR5 layout rules shared by the host conversion (csr5_build.c), the GPU
 * conversion (csr5_convert.cu) and the kernels (csr5_spmv.cu). Compiled as C
 * and as CUDA (__host__ __device__), so both conversions run the very same
 * code per tile and produce identical arrays.
 *
 * A tile holds OMEGA x sigma consecutive non-zeros: lane l owns the entries
 * tile*T + l*sigma + j, j < sigma (T = OMEGA*sigma). They are stored
 * column-major, entry (l, j) at tile*T + j*OMEGA + l, so at step j the 32
 * lanes of a warp read 32 consecutive words. Entries from tiles*T on (the
 * tail) keep their CSR positions.
 *
 * Descriptor of lane l (W = 1 or 2 words, stored word-major: word w of lane
 * l of tile t at desc[(t*W + w)*OMEGA + l]):
 *   flags       sigma bits; bit j set when entry (l, j) starts a row
 *   seg_offset  5 bits; (first lane >= l holding a row start, else 31) - l
 *   y_offset    ybits; head + row starts in lanes < l, where head = 1 when
 *               the tile's first entry continues a row begun earlier
 *   W = 1: flags | seg_offset << sigma | y_offset << (sigma + 5)
 *   W = 2: word 0 = flags, word 1 = seg_offset | y_offset << 5
 * "Slot" s of a tile is its s-th row in order (slot 0 is the row continued
 * from the previous tile when head = 1); the k-th row start in lane l is
 * slot y_offset + k. Its row is tile_ptr + s, unless the tile spans empty
 * rows (tile_ptr bit 31 set): then it is empty_offset[eo_ptr[t] + s].
 */
#ifndef SPMVLAB_CSR5_TILE_H
#define SPMVLAB_CSR5_TILE_H

#include <stdint.h>

#ifdef __CUDACC__
#define CSR5_HD static __host__ __device__ __forceinline__
#else
#define CSR5_HD static inline
#endif

#define CSR5_OMEGA 32                /* lanes per tile: one warp */
#define CSR5_SIGMA_MAX 32            /* flags of one lane fit one word; option sigma: "1..32" */
#define CSR5_EMPTY_FLAG 0x80000000u  /* tile_ptr bit: the tile's slots skip empty rows */
#define CSR5_ROW_MASK 0x7fffffffu    /* tile_ptr bits holding the row */
/* A row crossing tiles is the sum of its pieces (its part in each tile):
 * up to this many are added in order by one thread; more are added
 * lane-strided by a warp, then a shuffle tree (host and GPU alike). */
#define CSR5_SEQ_PIECES 32

/* Set bits of v. */
CSR5_HD int csr5_popc(uint32_t v)
{
#ifdef __CUDA_ARCH__
    return __popc(v);
#else
    return __builtin_popcount(v);
#endif
}

/* Bits of y_offset: enough for 1 + 31*sigma (head plus the starts of 31 lanes). */
CSR5_HD int csr5_ybits(int sigma)
{
    int bits = 0;
    for (uint32_t v = 1u + 31u * (uint32_t)sigma; v; v >>= 1)
        bits++;
    return bits;
}

/* 32-bit words per lane descriptor: 1 while sigma + 5 + ybits fit, else 2. */
CSR5_HD int csr5_desc_words(int sigma) { return sigma + 5 + csr5_ybits(sigma) <= 32 ? 1 : 2; }

/* Largest r in [0, rows] with row_ptr[r] <= pos: the row holding entry pos
 * when pos < nnz (never an empty row), rows when pos == nnz. */
CSR5_HD int32_t csr5_row_of(const int32_t *row_ptr, int32_t rows, int64_t pos)
{
    int64_t lo = 0, hi = rows;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (row_ptr[mid] <= pos)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (int32_t)lo;
}

/* CSR position of the entry stored at position o (tail: unchanged). */
CSR5_HD int64_t csr5_source_pos(int64_t o, int sigma, int64_t tail_start)
{
    if (o >= tail_start)
        return o;
    int64_t T = (int64_t)CSR5_OMEGA * sigma, t = o / T, w = o - t * T;
    return t * T + (w % CSR5_OMEGA) * sigma + w / CSR5_OMEGA;
}

/* What building one tile tells about it. */
typedef struct csr5_tile_info {
    int32_t first_row; /* row holding the tile's first entry (tile_ptr without flag) */
    int32_t starts;    /* rows starting inside the tile (slots after the head) */
    int head;          /* 1 when the first entry continues a row begun earlier */
    int empty;         /* 1 when empty rows lie between the tile's slots */
} csr5_tile_info;

/* Builds tile `tile` of a matrix with sigma: the 32*W descriptor words into
 * desc (skipped when NULL) and the rows of the starting slots 0.. starts-1
 * (without the head slot) into slot_rows (skipped when NULL). Walks the row
 * starts inside the tile, O(1) per start unless empty rows intervene (then a
 * binary search). */
CSR5_HD void csr5_build_tile(const int32_t *row_ptr, int32_t rows, int sigma, int32_t tile,
                             uint32_t *desc, int32_t *slot_rows, csr5_tile_info *info)
{
    const int64_t T = (int64_t)CSR5_OMEGA * sigma, b = (int64_t)tile * T, e = b + T;
    uint32_t flags[CSR5_OMEGA];
    for (int l = 0; l < CSR5_OMEGA; l++)
        flags[l] = 0;
    int32_t r = csr5_row_of(row_ptr, rows, b), n = 0;
    const int head = row_ptr[r] < b;
    int empty = 0;
    info->first_row = r;
    if (!head) {
        flags[0] = 1u;
        if (slot_rows)
            slot_rows[n] = r;
        n++;
    }
    /* nxt < e <= nnz, so row r + 1 exists and row_ptr[r + 2] is in range. */
    for (int64_t nxt = row_ptr[r + 1]; nxt < e; nxt = row_ptr[r + 1]) {
        int32_t rn = r + 1;
        if (row_ptr[rn + 1] <= nxt) {
            rn = csr5_row_of(row_ptr, rows, nxt);
            empty = 1;
        }
        int64_t o = nxt - b;
        flags[o / sigma] |= 1u << (o % sigma);
        if (slot_rows)
            slot_rows[n] = rn;
        n++;
        r = rn;
    }
    info->starts = n;
    info->head = head;
    info->empty = empty;
    if (!desc)
        return;
    const int W = csr5_desc_words(sigma);
    uint32_t seg[CSR5_OMEGA];
    int end = CSR5_OMEGA - 1;
    for (int l = CSR5_OMEGA - 1; l >= 0; l--) {
        if (flags[l])
            end = l;
        seg[l] = (uint32_t)(end - l);
    }
    uint32_t y = (uint32_t)head;
    for (int l = 0; l < CSR5_OMEGA; l++) {
        if (W == 1) {
            desc[l] = flags[l] | seg[l] << sigma | y << (sigma + 5);
        } else {
            desc[l] = flags[l];
            desc[CSR5_OMEGA + l] = seg[l] | y << 5;
        }
        y += (uint32_t)csr5_popc(flags[l]);
    }
}

/* Rows per chunk of the empty-row list: each chunk is counted, then
 * written, by one thread (GPU) or one loop pass (host). */
#define CSR5_EMPTY_CHUNK 256

/* Empty rows of rows [chunk * CSR5_EMPTY_CHUNK, + CSR5_EMPTY_CHUNK), in
 * order: counted, and written to list when it is not NULL. */
CSR5_HD int32_t csr5_chunk_empty(const int32_t *row_ptr, int32_t rows, int64_t chunk, int32_t *list)
{
    int64_t r = chunk * CSR5_EMPTY_CHUNK, end = r + CSR5_EMPTY_CHUNK < rows ? r + CSR5_EMPTY_CHUNK : rows;
    int32_t n = 0;
    for (; r < end; r++)
        if (row_ptr[r] == row_ptr[r + 1]) {
            if (list)
                list[n] = (int32_t)r;
            n++;
        }
    return n;
}

#endif /* SPMVLAB_CSR5_TILE_H */
