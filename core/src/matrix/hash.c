/*
 * The 64-bit hash of spmvlab/cache.h: four lanes of multiply-rotate rounds
 * over 32 bytes a step, so hashing a cache payload costs little next to
 * reading it. It detects damage, not attacks.
 */
#include <string.h>

#include "spmvlab/cache.h"

#define H1 0x9E3779B185EBCA87ull
#define H2 0xC2B2AE3D27D4EB4Full
#define H3 0x165667B19E3779F9ull
#define H4 0x85EBCA77C2B2AE63ull
#define H5 0x27D4EB2F165667C5ull

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t load64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint32_t load32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t mix_round(uint64_t acc, uint64_t in) { return rotl64(acc + in * H2, 31) * H1; }
static inline uint64_t merge_lane(uint64_t h, uint64_t lane)
{
    return (h ^ mix_round(0, lane)) * H1 + H4;
}

uint64_t spmvlab_hash64(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data, *end = p + n;
    uint64_t h;
    if (n >= 32) { /* four independent lanes keep the multipliers busy */
        uint64_t a = seed + H1 + H2, b = seed + H2, c = seed, d = seed - H1;
        for (; end - p >= 32; p += 32) {
            a = mix_round(a, load64(p));
            b = mix_round(b, load64(p + 8));
            c = mix_round(c, load64(p + 16));
            d = mix_round(d, load64(p + 24));
        }
        h = rotl64(a, 1) + rotl64(b, 7) + rotl64(c, 12) + rotl64(d, 18);
        h = merge_lane(merge_lane(merge_lane(merge_lane(h, a), b), c), d);
    } else {
        h = seed + H5;
    }
    h += (uint64_t)n;
    for (; end - p >= 8; p += 8)
        h = rotl64(h ^ mix_round(0, load64(p)), 27) * H1 + H4;
    if (end - p >= 4) {
        h = rotl64(h ^ (uint64_t)load32(p) * H1, 23) * H2 + H3;
        p += 4;
    }
    for (; p < end; p++)
        h = rotl64(h ^ *p * H5, 11) * H1;
    h ^= h >> 33;
    h *= H2;
    h ^= h >> 29;
    h *= H3;
    return h ^ (h >> 32);
}

uint64_t spmvlab_csr_hash(const spmvlab_csr *A)
{
    int64_t dims[3] = {A->rows, A->cols, A->nnz};
    uint64_t h = spmvlab_hash64(dims, sizeof dims, 0);
    h = spmvlab_hash64(A->row_ptr, A->row_ptr ? ((size_t)A->rows + 1) * 4 : 0, h);
    h = spmvlab_hash64(A->col_idx, (size_t)A->nnz * 4, h);
    return spmvlab_hash64(A->val, (size_t)A->nnz * 8, h);
}
