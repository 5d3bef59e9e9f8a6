/*
 * The binary CSR cache inside the core: one file's format (cache_file.c)
 * and the cache folder's entries, keyed by the source's identity, with the
 * size cap (csr_cache.c). The loader (load.c) sits above both.
 */
#ifndef SPMVLAB_CACHE_INTERNAL_H
#define SPMVLAB_CACHE_INTERNAL_H

#include <stddef.h>
#include <sys/stat.h>

#include "spmvlab/cache.h"
#include "spmvlab/core.h"

/* Reads cache file cpath, written for a source whose stat is src, into A.
 * Returns 0, or -1 with the reason in why (A left empty). */
int cache_file_read(const char *cpath, const struct stat *src, spmvlab_csr *A, char *why, size_t wlen);

/* Writes A as cache file cpath for a source whose stat is src. Returns 0,
 * or -1 with the reason in why (nothing left behind). */
int cache_file_write(const char *cpath, const struct stat *src, const spmvlab_csr *A, char *why, size_t wlen);

/* 1 when SPMVLAB_NO_CACHE turns the cache off. */
int cache_disabled(void);

/* The entry of the source at path with stat st: <cache dir>/csr/<hash of
 * its device and inode>.csrbin; create = 1 makes the folder. Returns 0,
 * or -1 with the reason in why (no cache directory). */
int cache_entry_path(const char *path, const struct stat *st, char *out, size_t len, int create, char *why,
                     size_t wlen);

/* Marks an entry as just used, for the least-recently-used eviction. */
void cache_entry_touch(const char *cpath);

/* Writes the entry of A for the source at path (stat st), then evicts the
 * least recently used entries beyond the size cap (never the new one).
 * Returns 0 with the entry's path in out, or -1 with the reason in why. */
int cache_entry_store(const char *path, const struct stat *st, const spmvlab_csr *A, char *out, size_t len,
                      char *why, size_t wlen);

#endif
