/*
 * Matrix loading through a binary CSR cache.
 *
 * Parsing Matrix Market text is the slow part of every run on a large
 * matrix, so the first load of FILE writes the parsed CSR into the cache
 * folder, never beside FILE: <cache dir>/csr/<16 hex digits>.csrbin, the
 * digits a hash of FILE's identity (device and inode), so every path
 * and hard link of one file shares one entry and a copy elsewhere has its
 * own. Later loads read the entry instead. An entry records the source's
 * size and modification time and a 64-bit hash of its payload; an entry
 * whose source changed, or whose bytes do not check out, is refused (the
 * reason lands in spmvlab_load_info.note), the source is parsed again and
 * the entry rewritten.
 *
 * The folder is capped (SPMVLAB_CACHE_LIMIT, default 16G): after a write
 * the least recently used entries go until the rest fits.
 *
 * Cache file layout (little-endian hosts write and read it; a header from
 * another byte order is refused): a 128-byte header (see cache_file.c), then
 * row_ptr (rows + 1 int32), zero padding to 8 bytes, col_idx (nnz int32),
 * zero padding to 8 bytes, val (nnz f64).
 *
 * Environment: SPMVLAB_NO_CACHE=1 disables reading and writing caches;
 * SPMVLAB_CACHE_DIR overrides the cache directory (default
 * $XDG_CACHE_HOME/spmvlab, else ~/.cache/spmvlab); SPMVLAB_CACHE_LIMIT
 * caps its binary entries ("20G", "512M"; 0: no cap).
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

/* Writes the cache entry of A, the parsed content of source_path, in the
 * cache directory; the entry's path goes to cache_path
 * (may be NULL). Used after generating a matrix, to skip the first parse.
 * Returns 0, or -1 with a sentence (nothing is left behind). */
int spmvlab_cache_store(const char *source_path, const spmvlab_csr *A, char *cache_path,
                        size_t len, spmvlab_err *err);

/* The cache directory (see above); create = 1 makes it and its parents.
 * Returns 0, or -1 with a sentence. */
int spmvlab_cache_dir(char *out, size_t len, int create, spmvlab_err *err);

/* One binary entry of the cache folder, for `spmvlab cache list`. */
typedef struct spmvlab_cache_entry {
    char path[4096];            /* the entry's file */
    uint64_t bytes;             /* its size */
    double last_used;           /* when it was last read or written, seconds since the epoch */
} spmvlab_cache_entry;

/* The binary entries, most recently used first, into *entries (free()) and
 * their count into *n; total gets their bytes. A missing folder lists
 * none. Returns 0, or -1 with a sentence. */
int spmvlab_cache_list(spmvlab_cache_entry **entries, int *n, uint64_t *total, spmvlab_err *err);

/* Removes every binary entry and generated matrix of the cache folder;
 * counts what went. Returns 0, or -1 with a sentence naming what stayed. */
int spmvlab_cache_clear(int *files, uint64_t *bytes, spmvlab_err *err);

/* The size cap in bytes (SPMVLAB_CACHE_LIMIT; default 16 GiB; 0: none). */
uint64_t spmvlab_cache_limit(void);

/* Removes the least recently used entries until the rest fit limit bytes,
 * never keep (may be NULL); counts what went (either may be NULL).
 * Returns 0, or -1 with a sentence. */
int spmvlab_cache_evict(uint64_t limit, const char *keep, int *files, uint64_t *bytes, spmvlab_err *err);

/* A 64-bit hash of n bytes (four lanes of multiply-rotate rounds, 32 bytes
 * per step, so it costs little beside reading the file). Not cryptographic:
 * it detects damage, not attacks. */
uint64_t spmvlab_hash64(const void *data, size_t n, uint64_t seed);

/* Hash of a CSR matrix: its shape, row_ptr, col_idx and val bytes. Equal
 * matrices hash equal on every machine of one byte order. */
uint64_t spmvlab_csr_hash(const spmvlab_csr *A);

#ifdef __cplusplus
}
#endif
#endif
