/*
 * One binary CSR cache file: its layout (spmvlab/cache.h), the checks a
 * file must pass before it is trusted (intact header, the source's size and
 * modification time as recorded, a payload that hashes to the recorded
 * value and is a valid CSR) and writing under a temporary name renamed into
 * place, so readers never see half a file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_internal.h"

/* ---- file layout ------------------------------------------------------------ */

static const char cache_magic[8] = {'S', 'P', 'M', 'V', 'C', 'S', 'R', '\n'};
#define BYTE_ORDER_MARK 0x01020304u

typedef struct cache_header {
    char magic[8];              /* cache_magic */
    uint32_t version;           /* SPMVLAB_CACHE_VERSION */
    uint32_t header_bytes;      /* sizeof(cache_header) */
    uint32_t byte_order;        /* BYTE_ORDER_MARK as the writer stored it */
    int32_t rows, cols, nnz;    /* the matrix's shape */
    char symmetry[16];          /* as read from the source */
    char field[16];
    uint64_t source_size;       /* bytes of the source when the cache was written */
    int64_t source_mtime_sec;   /* its modification time */
    int64_t source_mtime_nsec;
    uint64_t payload_bytes;     /* bytes after the header */
    uint64_t payload_hash;      /* spmvlab_csr_hash of the matrix */
    uint64_t reserved[2];       /* zero */
    uint64_t header_hash;       /* spmvlab_hash64 of the bytes before this member */
} cache_header;
_Static_assert(sizeof(cache_header) == 128, "cache header is 128 bytes");

static uint64_t pad8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

/* Offsets of the three arrays after the header and the payload's size. */
static void layout(int32_t rows, int32_t nnz, uint64_t off[3], uint64_t *payload)
{
    off[0] = sizeof(cache_header);
    off[1] = off[0] + pad8(((uint64_t)rows + 1) * 4);
    off[2] = off[1] + pad8((uint64_t)nnz * 4);
    *payload = off[2] + (uint64_t)nnz * 8 - sizeof(cache_header);
}

static uint64_t header_hash(const cache_header *h)
{
    return spmvlab_hash64(h, offsetof(cache_header, header_hash), 0x637372);
}

static int read_full(int fd, void *buf, uint64_t n, uint64_t off)
{
    char *p = buf;
    while (n > 0) {
        ssize_t got = pread(fd, p, n > (1u << 30) ? (1u << 30) : (size_t)n, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        off += (uint64_t)got;
        n -= (uint64_t)got;
    }
    return 0;
}

static int write_full(int fd, const void *buf, uint64_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t put = write(fd, p, n > (1u << 30) ? (1u << 30) : (size_t)n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        p += put;
        n -= (uint64_t)put;
    }
    return 0;
}

/* ---- reading ------------------------------------------------------------------ */

/* Checks that A is a valid CSR: monotone row_ptr from 0 to nnz, columns in
 * range and strictly increasing within each row. */
static const char *csr_invalid(const spmvlab_csr *A)
{
    if (A->row_ptr[0] != 0 || A->row_ptr[A->rows] != A->nnz)
        return "row pointers do not run from 0 to nnz";
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t b = A->row_ptr[i], e = A->row_ptr[i + 1];
        if (e < b || e > A->nnz)
            return "row pointers decrease";
        for (int32_t k = b; k < e; k++)
            if (A->col_idx[k] < 0 || A->col_idx[k] >= A->cols || (k > b && A->col_idx[k] <= A->col_idx[k - 1]))
                return "column indices out of range or unsorted";
    }
    return NULL;
}

/* Reads cache file cpath for a source whose stat is src into A. Returns 0,
 * or -1 with the reason in why (A left empty). */
int cache_file_read(const char *cpath, const struct stat *src, spmvlab_csr *A, char *why,
                      size_t wlen)
{
    memset(A, 0, sizeof *A);
    int fd = open(cpath, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return snprintf(why, wlen, "cannot open: %s", strerror(errno)), -1;
    struct stat st;
    cache_header h;
    const char *bad = NULL;
    uint64_t off[3], payload = 0;
    if (fstat(fd, &st) || (uint64_t)st.st_size < sizeof h || read_full(fd, &h, sizeof h, 0)) {
        bad = "shorter than its header";
    } else if (memcmp(h.magic, cache_magic, sizeof cache_magic) != 0) {
        bad = "not an spmvlab CSR cache (bad magic)";
    } else if (h.byte_order != BYTE_ORDER_MARK) {
        bad = "written on a machine of another byte order";
    } else if (h.version != SPMVLAB_CACHE_VERSION || h.header_bytes != sizeof h) {
        bad = "written by another cache version";
    } else if (header_hash(&h) != h.header_hash) {
        bad = "header is corrupt (hash mismatch)";
    } else if (h.rows < 0 || h.cols < 0 || h.nnz < 0) {
        bad = "header holds negative sizes";
    } else if ((uint64_t)src->st_size != h.source_size ||
               (int64_t)src->st_mtim.tv_sec != h.source_mtime_sec ||
               (int64_t)src->st_mtim.tv_nsec != h.source_mtime_nsec) {
        bad = "stale: the source's size or modification time changed since it was written";
    } else {
        layout(h.rows, h.nnz, off, &payload);
        if (payload != h.payload_bytes || (uint64_t)st.st_size != sizeof h + payload)
            bad = "truncated or padded: its size does not match its header";
    }
    if (bad) {
        close(fd);
        return snprintf(why, wlen, "%s", bad), -1;
    }
    A->rows = h.rows;
    A->cols = h.cols;
    A->nnz = h.nnz;
    A->row_ptr = malloc(((size_t)h.rows + 1) * sizeof *A->row_ptr);
    A->col_idx = malloc((h.nnz ? (size_t)h.nnz : 1) * sizeof *A->col_idx);
    A->val = malloc((h.nnz ? (size_t)h.nnz : 1) * sizeof *A->val);
    if (!A->row_ptr || !A->col_idx || !A->val)
        bad = "out of host memory";
    else if (read_full(fd, A->row_ptr, ((uint64_t)h.rows + 1) * 4, off[0]) ||
             read_full(fd, A->col_idx, (uint64_t)h.nnz * 4, off[1]) ||
             read_full(fd, A->val, (uint64_t)h.nnz * 8, off[2]))
        bad = "read error";
    else if (spmvlab_csr_hash(A) != h.payload_hash)
        bad = "payload is corrupt (hash mismatch)";
    else
        bad = csr_invalid(A);
    close(fd);
    if (bad) {
        spmvlab_csr_free(A);
        return snprintf(why, wlen, "%s", bad), -1;
    }
    memcpy(A->symmetry, h.symmetry, sizeof A->symmetry);
    memcpy(A->field, h.field, sizeof A->field);
    A->symmetry[sizeof A->symmetry - 1] = A->field[sizeof A->field - 1] = '\0';
    return 0;
}

/* ---- writing ------------------------------------------------------------------ */

/* Writes A as cache file cpath for a source whose stat is src. Returns 0,
 * or -1 with the reason in why (nothing left behind). */
int cache_file_write(const char *cpath, const struct stat *src, const spmvlab_csr *A, char *why,
                       size_t wlen)
{
    char tmp[4096 + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", cpath, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return snprintf(why, wlen, "cannot create %.300s: %s", tmp, strerror(errno)), -1;
    cache_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, cache_magic, sizeof h.magic);
    h.version = SPMVLAB_CACHE_VERSION;
    h.header_bytes = sizeof h;
    h.byte_order = BYTE_ORDER_MARK;
    h.rows = A->rows;
    h.cols = A->cols;
    h.nnz = A->nnz;
    snprintf(h.symmetry, sizeof h.symmetry, "%s", A->symmetry);
    snprintf(h.field, sizeof h.field, "%s", A->field);
    h.source_size = (uint64_t)src->st_size;
    h.source_mtime_sec = (int64_t)src->st_mtim.tv_sec;
    h.source_mtime_nsec = (int64_t)src->st_mtim.tv_nsec;
    uint64_t off[3];
    layout(A->rows, A->nnz, off, &h.payload_bytes);
    h.payload_hash = spmvlab_csr_hash(A);
    h.header_hash = header_hash(&h);
    static const char zeros[8] = {0};
    uint64_t rp = ((uint64_t)A->rows + 1) * 4, ci = (uint64_t)A->nnz * 4;
    int bad = write_full(fd, &h, sizeof h) || write_full(fd, A->row_ptr, rp) ||
              write_full(fd, zeros, pad8(rp) - rp) || write_full(fd, A->col_idx, ci) ||
              write_full(fd, zeros, pad8(ci) - ci) ||
              write_full(fd, A->val, (uint64_t)A->nnz * 8);
    int saved = errno;
    if (close(fd) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    if (bad || rename(tmp, cpath) != 0) {
        if (!bad)
            saved = errno;
        unlink(tmp);
        return snprintf(why, wlen, "cannot write %.300s: %s", cpath, strerror(saved)), -1;
    }
    return 0;
}
