/*
 * Matrix loading through a binary CSR cache.
 *
 * Parsing Matrix Market text is the slow part of every run on a large
 * matrix, so the first load of FILE writes the parsed CSR as FILE.csrbin (or,
 * when FILE's folder is not writable, into <cache dir>/csr/), and later loads
 * read that instead. A cache file records the source's size and modification
 * time and a 64-bit hash of its payload; a cache whose source changed, or
 * whose bytes do not check out, is refused (the reason lands in
 * spmvlab_load_info.note) and the source is parsed again.
 *
 * Cache file layout (little-endian hosts write and read it; a header from
 * another byte order is refused): a 128-byte header (see csr_cache.c), then
 * row_ptr (rows + 1 int32), zero padding to 8 bytes, col_idx (nnz int32),
 * zero padding to 8 bytes, val (nnz f64).
 *
 * Environment: SPMVLAB_NO_CACHE=1 disables reading and writing caches;
 * SPMVLAB_CACHE_DIR overrides the cache directory (default
 * $XDG_CACHE_HOME/spmvlab, else ~/.cache/spmvlab).
 */
#ifndef SPMVLAB_CACHE_H
#define SPMVLAB_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "spmvlab/matrix.h"
#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPMVLAB_CACHE_VERSION 1       /* bumped when the file layout changes */
#define SPMVLAB_CACHE_SUFFIX ".csrbin"

/* What one load did, for -v output and for tests. */
typedef struct spmvlab_load_info {
    int from_cache;             /* 1: the matrix came from a valid cache file */
    int cache_written;          /* 1: a new cache file was written after parsing */
    char cache_path[4096];      /* cache file read or written; "" when none */
    char note[1024];            /* why a cache was refused or could not be written; "" when none */
    uint64_t source_bytes;      /* size of the source file in bytes */
    double seconds;             /* wall time of the whole load */
} spmvlab_load_info;

/* Loads a Matrix Market file (plain or .gz) into A, through the cache.
 * Never fails because of the cache: a cache that cannot be used or written
 * only costs time. Returns 0, or -1 with spmvlab_mtx_read's sentence. */
int spmvlab_matrix_load(const char *path, spmvlab_csr *A, spmvlab_err *err);

/* The same, filling info (may be NULL). */
int spmvlab_matrix_load_ex(const char *path, spmvlab_csr *A, spmvlab_load_info *info,
                           spmvlab_err *err);

/* Writes the cache of A, the parsed content of source_path, beside the
 * source or in the cache directory; the cache's path goes to cache_path
 * (may be NULL). Used after generating a matrix, to skip the first parse.
 * Returns 0, or -1 with a sentence (nothing is left behind). */
int spmvlab_cache_store(const char *source_path, const spmvlab_csr *A, char *cache_path,
                        size_t len, spmvlab_err *err);

/* The cache directory (see above); create = 1 makes it and its parents.
 * Returns 0, or -1 with a sentence. */
int spmvlab_cache_dir(char *out, size_t len, int create, spmvlab_err *err);

/* A 64-bit hash of n bytes (four lanes of multiply-rotate rounds, 32 bytes
 * per step; a few GB/s). Not cryptographic: it detects damage, not attacks. */
uint64_t spmvlab_hash64(const void *data, size_t n, uint64_t seed);

/* Hash of a CSR matrix: its shape, row_ptr, col_idx and val bytes. Equal
 * matrices hash equal on every machine of one byte order. */
uint64_t spmvlab_csr_hash(const spmvlab_csr *A);

#ifdef __cplusplus
}
#endif
#endif
