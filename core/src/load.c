/*
 * The matrix loader: a file's cache entry when it checks out, else the
 * file itself (a generator recipe, or Matrix Market text, gzip or a
 * SuiteSparse archive), then a fresh entry. It sits above the cache (matrix/)
 * and the recipe reader (gen/), which know nothing of each other.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "matrix/cache_internal.h"
#include "spmvlab/gen.h"

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

/* An entry is not written when it would be far larger than its Matrix
 * Market source (a recipe is small by design; generating is what its entry
 * saves): a small file declaring many rows and few entries (row offsets take 4 bytes
 * a row however empty) parses faster than its entry reads, and would fill
 * the disk. Entries up to ENTRY_ALWAYS bytes are always written; beyond,
 * up to ENTRY_PER_SOURCE_BYTE times the source (a binary entry is about
 * the size of the text it replaces, and a few times a gzip file). */
#define ENTRY_ALWAYS (1ull << 20)
#define ENTRY_PER_SOURCE_BYTE 16

/* The cache entry's bytes for A (cache_file.c's layout). */
static uint64_t entry_bytes(const spmvlab_csr *A)
{
    return 128 + (((uint64_t)A->rows + 1) * 4 + 7) / 8 * 8 + ((uint64_t)A->nnz * 4 + 7) / 8 * 8 +
           (uint64_t)A->nnz * 8;
}

static int same_version(const struct stat *a, const struct stat *b)
{
    return a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
           a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

int spmvlab_matrix_load_ex(const char *path, spmvlab_csr *A, spmvlab_load_info *info, spmvlab_err *err)
{
    spmvlab_load_info local;
    info = info ? info : &local;
    memset(info, 0, sizeof *info);
    double t0 = spmvlab_now_ms();
    struct stat st;
    int have_stat = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    int use_cache = have_stat && !cache_disabled();
    char entry[sizeof info->cache_path], why[600];
    if (have_stat)
        info->source_bytes = (uint64_t)st.st_size;
    if (use_cache && cache_entry_path(path, &st, entry, sizeof entry, 0, why, sizeof why) == 0 &&
        access(entry, F_OK) == 0) {
        if (cache_file_read(entry, &st, A, why, sizeof why) == 0) {
            cache_entry_touch(entry);
            info->from_cache = 1;
            memcpy(info->cache_path, entry, sizeof info->cache_path);
            info->seconds = (spmvlab_now_ms() - t0) / 1000;
            return 0;
        }
        note(info, "cache %s refused: %s", entry, why);
    }
    int recipe = spmvlab_is_recipe(path);
    int rc = recipe ? spmvlab_recipe_read(path, A, err) : spmvlab_mtx_read(path, A, err);
    if (rc != 0)
        return rc; /* -2: a kind spmvlab does not handle */
    if (use_cache) {
        struct stat after;
        uint64_t bytes = entry_bytes(A);
        if (stat(path, &after) != 0 || !same_version(&after, &st))
            note(info, "no cache written: %s changed while it was read", path);
        else if (!recipe && bytes > ENTRY_ALWAYS && bytes / ENTRY_PER_SOURCE_BYTE > (uint64_t)st.st_size)
            note(info, "no cache written: its entry would take %llu bytes, more than %d times the %llu bytes of %s",
                 (unsigned long long)bytes, ENTRY_PER_SOURCE_BYTE, (unsigned long long)st.st_size, path);
        else if (cache_entry_store(path, &st, A, entry, sizeof entry, why, sizeof why) == 0) {
            info->cache_written = 1;
            memcpy(info->cache_path, entry, sizeof info->cache_path);
        } else {
            note(info, "no cache written (%s)", why);
        }
    }
    info->seconds = (spmvlab_now_ms() - t0) / 1000;
    return 0;
}

int spmvlab_matrix_load(const char *path, spmvlab_csr *A, spmvlab_err *err)
{
    return spmvlab_matrix_load_ex(path, A, NULL, err);
}
