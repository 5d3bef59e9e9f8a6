/*
 * Binary CSR cache beside (or on behalf of) Matrix Market files; see
 * spmvlab/cache.h. A cache is trusted only when its header is intact, it
 * was written for the source's current size and modification time, its
 * payload hashes to the recorded value and its structure is a valid CSR;
 * otherwise the source is parsed again. Cache files are written under a
 * temporary name and renamed, so readers never see half a file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spmvlab/cache.h"
#include "spmvlab/gen.h"
#include "spmvlab/core.h"

/* ---- hash ------------------------------------------------------------------ */

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
static int cache_read(const char *cpath, const struct stat *src, spmvlab_csr *A, char *why,
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
static int cache_write(const char *cpath, const struct stat *src, const spmvlab_csr *A, char *why,
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

/* ---- paths ------------------------------------------------------------------- */

static int make_dirs(const char *dir)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p)
        return -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    struct stat st;
    if (mkdir(p, 0755) != 0 && errno != EEXIST)
        return -1;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

int spmvlab_cache_dir(char *out, size_t len, int create, spmvlab_err *err)
{
    const char *env = getenv("SPMVLAB_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    int n;
    if (env && *env)
        n = snprintf(out, len, "%s", env);
    else if (xdg && xdg[0] == '/')
        n = snprintf(out, len, "%s/spmvlab", xdg);
    else if (home && *home)
        n = snprintf(out, len, "%s/.cache/spmvlab", home);
    else
        return spmvlab_errf(err, "no cache directory: set SPMVLAB_CACHE_DIR (HOME is not set)"), -1;
    if (n < 0 || (size_t)n >= len)
        return spmvlab_errf(err, "the cache directory's path is too long"), -1;
    if (create && make_dirs(out) != 0)
        return spmvlab_errf(err, "cannot create the cache directory %s: %s", out, strerror(errno)),
               -1;
    return 0;
}

/* The cache file beside the source, and the one in <cache dir>/csr/ named
 * after the source's label and absolute path (other is "" when there is no
 * cache directory). create makes that folder. */
static void cache_paths(const char *path, char *beside, char *other, size_t len, int create)
{
    snprintf(beside, len, "%s%s", path, SPMVLAB_CACHE_SUFFIX);
    char dir[4096], label[256], *abs = realpath(path, NULL);
    other[0] = '\0';
    if (spmvlab_cache_dir(dir, sizeof dir, 0, NULL) == 0) {
        uint64_t h = spmvlab_hash64(abs ? abs : path, strlen(abs ? abs : path), 0);
        size_t n = strlen(dir);
        snprintf(dir + n, sizeof dir - n, "/csr");
        spmvlab_matrix_label(path, label, sizeof label);
        if (!create || make_dirs(dir) == 0)
            snprintf(other, len, "%s/%s-%016llx%s", dir, label, (unsigned long long)h,
                     SPMVLAB_CACHE_SUFFIX);
    }
    free(abs);
}

static int cache_disabled(void)
{
    const char *e = getenv("SPMVLAB_NO_CACHE");
    return e && *e && strcmp(e, "0") != 0;
}

static void note(spmvlab_load_info *info, const char *fmt, ...)
{
    size_t n = strlen(info->note);
    if (n + 3 >= sizeof info->note)
        return;
    if (n) {
        strcpy(info->note + n, "; ");
        n += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(info->note + n, sizeof info->note - n, fmt, ap);
    va_end(ap);
}

/* Whether the folder of path takes new files. A folder without any write
 * permission bit counts as read-only even for root, who could write there
 * anyway: shared read-only matrix collections stay untouched. */
static int folder_writable(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0222) &&
           access(dir, W_OK) == 0;
}

/* Writes the cache for a source of stat st: beside it, else in the cache
 * directory. Returns 0 with the path in info->cache_path, or -1 with the
 * reasons noted. */
static int store(const char *path, const struct stat *st, const spmvlab_csr *A,
                 spmvlab_load_info *info)
{
    char beside[4096], other[4096], why[2][512] = {"", "no cache directory"};
    cache_paths(path, beside, other, sizeof beside, 1);
    if (!folder_writable(path))
        snprintf(why[0], sizeof why[0], "the source's folder is read-only");
    else if (cache_write(beside, st, A, why[0], sizeof why[0]) == 0) {
        snprintf(info->cache_path, sizeof info->cache_path, "%s", beside);
        return 0;
    }
    if (other[0] && cache_write(other, st, A, why[1], sizeof why[1]) == 0) {
        snprintf(info->cache_path, sizeof info->cache_path, "%s", other);
        return 0;
    }
    note(info, "no cache written (%s; %s)", why[0], why[1]);
    return -1;
}

int spmvlab_cache_store(const char *source_path, const spmvlab_csr *A, char *cache_path,
                        size_t len, spmvlab_err *err)
{
    struct stat st;
    spmvlab_load_info info;
    memset(&info, 0, sizeof info);
    if (cache_path && len)
        cache_path[0] = '\0';
    if (cache_disabled())
        return 0;
    if (stat(source_path, &st) != 0)
        return spmvlab_errf(err, "cannot cache %s: %s", source_path, strerror(errno)), -1;
    if (store(source_path, &st, A, &info) != 0)
        return spmvlab_errf(err, "%s: %s", source_path, info.note), -1;
    if (cache_path && len)
        snprintf(cache_path, len, "%s", info.cache_path);
    return 0;
}

int spmvlab_matrix_load_ex(const char *path, spmvlab_csr *A, spmvlab_load_info *info,
                           spmvlab_err *err)
{
    spmvlab_load_info local;
    info = info ? info : &local;
    memset(info, 0, sizeof *info);
    double t0 = spmvlab_now_ms();
    struct stat st;
    int have_stat = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    int use_cache = have_stat && !cache_disabled();
    if (have_stat)
        info->source_bytes = (uint64_t)st.st_size;
    if (use_cache) {
        char cand[2][sizeof info->cache_path], why[512];
        cache_paths(path, cand[0], cand[1], sizeof cand[0], 0);
        for (int c = 0; c < 2; c++) {
            if (!cand[c][0] || access(cand[c], F_OK) != 0)
                continue;
            if (cache_read(cand[c], &st, A, why, sizeof why) == 0) {
                info->from_cache = 1;
                memcpy(info->cache_path, cand[c], sizeof info->cache_path);
                info->seconds = (spmvlab_now_ms() - t0) / 1000;
                return 0;
            }
            note(info, "cache %s refused: %s", cand[c], why);
        }
    }
    int rc = spmvlab_is_recipe(path) ? spmvlab_recipe_read(path, A, err) : spmvlab_mtx_read(path, A, err);
    if (rc != 0)
        return rc; /* -2: a kind spmvlab does not handle */
    if (use_cache) {
        struct stat after;
        if (stat(path, &after) != 0 || after.st_size != st.st_size ||
            after.st_mtim.tv_sec != st.st_mtim.tv_sec || after.st_mtim.tv_nsec != st.st_mtim.tv_nsec)
            note(info, "no cache written: %s changed while it was read", path);
        else
            info->cache_written = store(path, &st, A, info) == 0;
    }
    info->seconds = (spmvlab_now_ms() - t0) / 1000;
    return 0;
}

int spmvlab_matrix_load(const char *path, spmvlab_csr *A, spmvlab_err *err)
{
    return spmvlab_matrix_load_ex(path, A, NULL, err);
}
