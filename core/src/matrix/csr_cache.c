/*
 * The cache folder (spmvlab/cache.h): where it is, the entry of a source
 * (named by the source's identity, never placed beside it), the size cap
 * with least-recently-used eviction, and listing and clearing for
 * `spmvlab cache`. An entry's modification time is its last use: a hit
 * touches it, so eviction removes what was read longest ago.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_internal.h"

#define DEFAULT_LIMIT (16ull << 30)

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

int cache_disabled(void)
{
    const char *e = getenv("SPMVLAB_NO_CACHE");
    return e && *e && strcmp(e, "0") != 0;
}

/* <cache dir>/<sub>, created on demand. */
static int sub_dir(const char *sub, char *out, size_t len, int create, spmvlab_err *err)
{
    if (spmvlab_cache_dir(out, len, 0, err))
        return -1;
    size_t n = strlen(out);
    if (snprintf(out + n, len - n, "/%s", sub) >= (int)(len - n))
        return spmvlab_errf(err, "the cache directory's path is too long"), -1;
    if (create && make_dirs(out) != 0)
        return spmvlab_errf(err, "cannot create the cache folder %s: %s", out, strerror(errno)), -1;
    return 0;
}

int cache_entry_path(const char *path, const struct stat *st, char *out, size_t len, int create, char *why,
                     size_t wlen)
{
    char dir[4096];
    spmvlab_err err;
    (void)path;
    if (sub_dir("csr", dir, sizeof dir, create, &err))
        return snprintf(why, wlen, "%s", err.msg), -1;
    /* Device and inode name the file whatever path or hard link reaches it. */
    uint64_t id[2] = {(uint64_t)st->st_dev, (uint64_t)st->st_ino};
    int n = snprintf(out, len, "%s/%016llx%s", dir, (unsigned long long)spmvlab_hash64(id, sizeof id, 0x6964),
                     SPMVLAB_CACHE_SUFFIX);
    if (n < 0 || (size_t)n >= len)
        return snprintf(why, wlen, "the cache entry's path is too long"), -1;
    return 0;
}

void cache_entry_touch(const char *cpath)
{
    utimensat(AT_FDCWD, cpath, NULL, 0); /* a read-only cache folder only loses the LRU order */
}

int cache_entry_store(const char *path, const struct stat *st, const spmvlab_csr *A, char *out, size_t len,
                      char *why, size_t wlen)
{
    if (cache_entry_path(path, st, out, len, 1, why, wlen) || cache_file_write(out, st, A, why, wlen)) {
        out[0] = '\0';
        return -1;
    }
    spmvlab_cache_evict(spmvlab_cache_limit(), out, NULL, NULL, NULL);
    return 0;
}

int spmvlab_cache_store(const char *source_path, const spmvlab_csr *A, char *cache_path, size_t len,
                        spmvlab_err *err)
{
    char entry[4096], why[600];
    struct stat st;
    if (cache_path && len)
        cache_path[0] = '\0';
    if (cache_disabled())
        return 0;
    if (stat(source_path, &st) != 0)
        return spmvlab_errf(err, "cannot cache %s: %s", source_path, strerror(errno)), -1;
    if (cache_entry_store(source_path, &st, A, entry, sizeof entry, why, sizeof why))
        return spmvlab_errf(err, "%s: no cache written (%s)", source_path, why), -1;
    if (cache_path && len)
        snprintf(cache_path, len, "%s", entry);
    return 0;
}

/* "16G", "512M", "4096": bytes in powers of 1024. Returns 0 or -1. */
static int parse_bytes(const char *t, uint64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || errno || v < 0)
        return -1;
    static const char units[] = "kmgt";
    const char *u = *end ? strchr(units, *end | 0x20) : NULL;
    if (*end && !u)
        return -1;
    for (const char *k = units; u && k <= u; k++)
        v *= 1024;
    if (u && (end[1] == 'i' || end[1] == 'I'))
        end++;
    if (u && (end[1] == 'b' || end[1] == 'B'))
        end++;
    if (*end && end[1])
        return -1;
    *out = v > 1.8e19 ? UINT64_MAX : (uint64_t)v;
    return 0;
}

uint64_t spmvlab_cache_limit(void)
{
    const char *e = getenv("SPMVLAB_CACHE_LIMIT");
    uint64_t v;
    return e && *e && parse_bytes(e, &v) == 0 ? v : DEFAULT_LIMIT;
}

static int by_recent_use(const void *a, const void *b)
{
    const spmvlab_cache_entry *x = a, *y = b;
    if (x->last_used != y->last_used)
        return x->last_used < y->last_used ? 1 : -1;
    return strcmp(x->path, y->path);
}

static int is_entry(const char *name)
{
    size_t n = strlen(name), m = strlen(SPMVLAB_CACHE_SUFFIX);
    return name[0] != '.' && n > m && strcmp(name + n - m, SPMVLAB_CACHE_SUFFIX) == 0;
}

int spmvlab_cache_list(spmvlab_cache_entry **entries, int *n, uint64_t *total, spmvlab_err *err)
{
    char dir[4096];
    *entries = NULL;
    *n = 0;
    if (total)
        *total = 0;
    if (sub_dir("csr", dir, sizeof dir, 0, err))
        return -1;
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : (spmvlab_errf(err, "cannot read %s: %s", dir, strerror(errno)), -1);
    int cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (!is_entry(e->d_name) || strlen(p) >= sizeof(*entries)->path || stat(p, &st) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            spmvlab_cache_entry *g = realloc(*entries, (size_t)cap * sizeof *g);
            if (!g) {
                closedir(d);
                free(*entries);
                *entries = NULL;
                *n = 0;
                return spmvlab_errf(err, "out of host memory listing %s", dir), -1;
            }
            *entries = g;
        }
        spmvlab_cache_entry *c = &(*entries)[(*n)++];
        memcpy(c->path, p, strlen(p) + 1); /* fits: checked above */
        c->bytes = (uint64_t)st.st_size;
        c->last_used = (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9;
        if (total)
            *total += c->bytes;
    }
    closedir(d);
    if (*n)
        qsort(*entries, (size_t)*n, sizeof **entries, by_recent_use);
    return 0;
}

int spmvlab_cache_evict(uint64_t limit, const char *keep, int *files, uint64_t *bytes, spmvlab_err *err)
{
    spmvlab_cache_entry *v;
    int n, gone = 0;
    uint64_t total, freed = 0;
    if (files)
        *files = 0;
    if (bytes)
        *bytes = 0;
    if (limit == 0 || spmvlab_cache_list(&v, &n, &total, err))
        return limit == 0 ? 0 : -1;
    for (int i = n - 1; i >= 0 && total - freed > limit; i--) {
        if (keep && strcmp(v[i].path, keep) == 0)
            continue;
        if (unlink(v[i].path) == 0) {
            freed += v[i].bytes;
            gone++;
        }
    }
    free(v);
    if (files)
        *files = gone;
    if (bytes)
        *bytes = freed;
    return 0;
}

/* Removes the regular files of dir (and, one level down, of its folders,
 * then those folders); counts them. Returns the number that stayed. */
static int remove_tree(const char *dir, int depth, int *files, uint64_t *bytes)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int stayed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[4400];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth > 0) {
            stayed += remove_tree(p, depth - 1, files, bytes);
            if (rmdir(p) != 0)
                stayed++;
        } else if (unlink(p) == 0) {
            (*files)++;
            *bytes += (uint64_t)st.st_size;
        } else {
            stayed++;
        }
    }
    closedir(d);
    return stayed;
}

int spmvlab_cache_clear(int *files, uint64_t *bytes, spmvlab_err *err)
{
    *files = 0;
    *bytes = 0;
    char dir[4096];
    static const char *const subs[] = {"csr", "gen"};
    for (int k = 0; k < 2; k++) {
        if (sub_dir(subs[k], dir, sizeof dir, 0, err))
            return -1;
        if (remove_tree(dir, 1, files, bytes))
            return spmvlab_errf(err, "some files of %s could not be removed", dir), -1;
    }
    return 0;
}
