/* Binary CSR cache (spmvlab/cache.h): a hit is byte-identical to parsing,
 * entries live in the cache directory and never beside the input (also for
 * a read-only input folder), a hard link shares its file's entry and a copy
 * has its own, a touched source makes the cache stale, damaged caches are
 * refused and the source parsed again, the size cap evicts the least
 * recently used entries, SPMVLAB_NO_CACHE turns it off, an entry far larger
 * than its file is not written. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "spmvlab/cache.h"
#include "spmvlab/gen.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/spmvlab-test-cache-XXXXXX";

static int same_csr(const spmvlab_csr *A, const spmvlab_csr *B)
{
    return A->rows == B->rows && A->cols == B->cols && A->nnz == B->nnz &&
           memcmp(A->row_ptr, B->row_ptr, ((size_t)A->rows + 1) * 4) == 0 &&
           memcmp(A->col_idx, B->col_idx, (size_t)A->nnz * 4) == 0 &&
           memcmp(A->val, B->val, (size_t)A->nnz * 8) == 0 &&
           strcmp(A->symmetry, B->symmetry) == 0 && strcmp(A->field, B->field) == 0;
}

/* Loads path through the cache and checks the result equals the parse. */
static void load_and_compare(const char *path, spmvlab_load_info *info)
{
    spmvlab_csr A, P;
    spmvlab_err err;
    int rc = spmvlab_matrix_load_ex(path, &A, info, &err);
    TEST_CHECK(rc == 0);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    if (spmvlab_mtx_read(path, &P, &err) == 0) {
        TEST_CHECK(same_csr(&A, &P));
        spmvlab_csr_free(&P);
    }
    spmvlab_csr_free(&A);
}

/* Copies a bundled matrix into the temporary folder (never cache into data/). */
static int copy_data_matrix(const char *name, char *out, size_t len)
{
    const char *dir = getenv("SPMVLAB_DATA_DIR");
    char src[4096];
    snprintf(src, sizeof src, "%s/%s", dir ? dir : "data", name);
    snprintf(out, len, "%s/%s", tmpdir, name);
    FILE *in = fopen(src, "rb"), *to = fopen(out, "wb");
    int ok = in && to;
    char buf[1 << 16];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, to) == n;
    if (in)
        fclose(in);
    if (to)
        fclose(to);
    return ok ? 0 : -1;
}

/* Sets the modification time of path to now + shift seconds. */
static void touch(const char *path, int shift)
{
    struct timespec ts[2];
    clock_gettime(CLOCK_REALTIME, &ts[0]);
    ts[0].tv_sec += shift;
    ts[1] = ts[0];
    utimensat(AT_FDCWD, path, ts, 0);
}

/* Overwrites one byte of path at offset (from the end when negative). */
static void damage(const char *path, long offset)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return;
    fseek(f, offset, offset < 0 ? SEEK_END : SEEK_SET);
    int c = fgetc(f);
    fseek(f, offset, offset < 0 ? SEEK_END : SEEK_SET);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

/* The entries of folder dir (without . and ..). */
static int folder_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

/* The entry the last load of src used, for the tests that damage it. */
static char entry[4400];

static void first_load_writes_then_hits(const char *src)
{
    spmvlab_load_info info;
    char beside[4300], cache[4200];
    snprintf(beside, sizeof beside, "%s.csrbin", src);
    snprintf(cache, sizeof cache, "%s/cache/csr/", tmpdir);
    load_and_compare(src, &info);
    TEST_CHECK(info.from_cache == 0 && info.cache_written == 1);
    TEST_CHECK(strncmp(info.cache_path, cache, strlen(cache)) == 0);
    TEST_CHECK(access(info.cache_path, F_OK) == 0 && access(beside, F_OK) != 0);
    snprintf(entry, sizeof entry, "%s", info.cache_path);
    load_and_compare(src, &info);
    TEST_CHECK(info.from_cache == 1 && strcmp(info.cache_path, entry) == 0);
    TEST_CHECK(info.note[0] == '\0');
}

static void touched_source_makes_the_cache_stale(const char *src)
{
    spmvlab_load_info info;
    touch(src, 10);
    load_and_compare(src, &info);
    TEST_CHECK(info.from_cache == 0 && info.cache_written == 1);
    TEST_CONTAINS(info.note, "stale");
    load_and_compare(src, &info);
    TEST_CHECK(info.from_cache == 1);
}

static void damaged_caches_are_refused(const char *src)
{
    const char *beside = entry;
    static const struct {
        long offset;
        const char *why;
    } cases[] = {
        {-3, "payload is corrupt"},   /* a value byte */
        {200, "payload is corrupt"},  /* a row pointer */
        {24, "header is corrupt"},    /* the column count */
        {0, "bad magic"},
    };
    spmvlab_load_info info;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        damage(beside, cases[i].offset);
        load_and_compare(src, &info);
        TEST_CHECK(info.from_cache == 0 && info.cache_written == 1);
        TEST_CONTAINS(info.note, cases[i].why);
        load_and_compare(src, &info); /* rewritten: a hit again */
        TEST_CHECK(info.from_cache == 1);
    }
    /* cut short */
    TEST_CHECK(truncate(beside, 1000) == 0);
    load_and_compare(src, &info);
    TEST_CONTAINS(info.note, "size does not match");
    TEST_CHECK(truncate(beside, 50) == 0);
    load_and_compare(src, &info);
    TEST_CONTAINS(info.note, "shorter than its header");
    TEST_CHECK(truncate(beside, 0) == 0);
    load_and_compare(src, &info);
    TEST_CONTAINS(info.note, "shorter than its header");
    load_and_compare(src, &info);
    TEST_CHECK(info.from_cache == 1);
}

static void input_folder_gets_no_file(const char *src)
{
    /* A writable folder of inputs holds the same files after a load. */
    char dir[4200], copy[4300];
    snprintf(dir, sizeof dir, "%s/inputs", tmpdir);
    snprintf(copy, sizeof copy, "%s/in.mtx", dir);
    mkdir(dir, 0755);
    spmvlab_csr A;
    spmvlab_err err;
    if (spmvlab_mtx_read(src, &A, &err) || spmvlab_mtx_write(copy, &A, NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        test_failures++;
        return;
    }
    spmvlab_csr_free(&A);
    spmvlab_load_info info;
    load_and_compare(copy, &info);
    TEST_CHECK(info.cache_written == 1 && folder_entries(dir) == 1);
    load_and_compare(copy, &info);
    TEST_CHECK(info.from_cache == 1 && folder_entries(dir) == 1);
}

static void identity_keys_the_entry(const char *src)
{
    /* A hard link is the same file: its entry is shared. A copy is another
     * file with another entry. */
    char link_path[4300], copy[4300];
    snprintf(link_path, sizeof link_path, "%s/linked.mtx.gz", tmpdir);
    snprintf(copy, sizeof copy, "%s/inputs/copy.mtx", tmpdir);
    spmvlab_load_info a, b;
    load_and_compare(src, &a);
    if (link(src, link_path) == 0) {
        load_and_compare(link_path, &b);
        TEST_CHECK(b.from_cache == 1);
        unlink(link_path);
    }
    spmvlab_csr A;
    spmvlab_err err;
    if (spmvlab_mtx_read(src, &A, &err) == 0 && spmvlab_mtx_write(copy, &A, NULL, &err) == 0) {
        load_and_compare(copy, &b);
        TEST_CHECK(b.from_cache == 0 && b.cache_written == 1 && strcmp(a.cache_path, b.cache_path) != 0);
    }
    spmvlab_csr_free(&A);
}

static void the_cap_evicts_the_least_recently_used(const char *src)
{
    spmvlab_cache_entry *v;
    int n = 0, files = 0;
    uint64_t total = 0, bytes = 0;
    spmvlab_err err;
    spmvlab_load_info info;
    load_and_compare(src, &info); /* src's entry is now the most recent */
    TEST_CHECK(spmvlab_cache_list(&v, &n, &total, &err) == 0 && n >= 2);
    if (n < 2)
        return;
    TEST_CHECK(strcmp(v[0].path, info.cache_path) == 0);
    uint64_t newest = v[0].bytes;
    free(v);
    TEST_CHECK(spmvlab_cache_evict(newest, NULL, &files, &bytes, &err) == 0);
    TEST_CHECK(files == n - 1 && bytes == total - newest);
    TEST_CHECK(spmvlab_cache_list(&v, &n, &total, &err) == 0 && n == 1);
    if (n == 1)
        TEST_CHECK(strcmp(v[0].path, info.cache_path) == 0);
    free(v);
    /* an entry written while the folder is over the cap stays; the rest go */
    setenv("SPMVLAB_CACHE_LIMIT", "1k", 1);
    TEST_CHECK(spmvlab_cache_limit() == 1024);
    char copy[4300];
    snprintf(copy, sizeof copy, "%s/inputs/copy.mtx", tmpdir);
    touch(copy, 20);
    load_and_compare(copy, &info);
    TEST_CHECK(info.cache_written == 1);
    TEST_CHECK(spmvlab_cache_list(&v, &n, &total, &err) == 0 && n == 1);
    if (n == 1)
        TEST_CHECK(strcmp(v[0].path, info.cache_path) == 0);
    free(v);
    unsetenv("SPMVLAB_CACHE_LIMIT");
    TEST_CHECK(spmvlab_cache_clear(&files, &bytes, &err) == 0 && files >= 1);
    TEST_CHECK(spmvlab_cache_list(&v, &n, &total, &err) == 0 && n == 0 && total == 0);
    free(v);
}

static void read_only_folder_is_left_alone(const char *src)
{
    /* No write bit on the folder: loading works, and nothing is written
     * there, also for root, who could. */
    char dir[4200], copy[4300], beside[4400], cache[4200];
    snprintf(dir, sizeof dir, "%s/ro", tmpdir);
    snprintf(copy, sizeof copy, "%s/m.mtx", dir);
    snprintf(beside, sizeof beside, "%s.csrbin", copy);
    snprintf(cache, sizeof cache, "%s/cache/csr/", tmpdir);
    mkdir(dir, 0755);
    spmvlab_csr A;
    spmvlab_err err;
    if (spmvlab_mtx_read(src, &A, &err) || spmvlab_mtx_write(copy, &A, NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        test_failures++;
        return;
    }
    spmvlab_csr_free(&A);
    chmod(dir, 0555);
    spmvlab_load_info info;
    load_and_compare(copy, &info);
    TEST_CHECK(info.cache_written == 1 && access(beside, F_OK) != 0);
    TEST_CHECK(strncmp(info.cache_path, cache, strlen(cache)) == 0);
    load_and_compare(copy, &info);
    TEST_CHECK(info.from_cache == 1);
    chmod(dir, 0755);
}

static void no_cache_means_parse_only(const char *src)
{
    spmvlab_load_info info;
    setenv("SPMVLAB_NO_CACHE", "1", 1);
    load_and_compare(src, &info);
    TEST_CHECK(info.from_cache == 0 && info.cache_written == 0 && info.cache_path[0] == '\0');
    unsetenv("SPMVLAB_NO_CACHE");
}

/* A file far smaller than its entry (many rows, few entries) is read but
 * not cached: 100-odd bytes declaring a million rows would otherwise leave
 * a 4 MB entry that reads slower than the file parses. */
static void an_entry_far_larger_than_its_file_is_not_written(void)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/tall.mtx", tmpdir);
    FILE *f = fopen(path, "w");
    TEST_CHECK(f != NULL);
    if (!f)
        return;
    fputs("%%MatrixMarket matrix coordinate real general\n1000000 1 1\n1000000 1 2.5\n", f);
    fclose(f);
    spmvlab_load_info info;
    load_and_compare(path, &info);
    TEST_CHECK(info.cache_written == 0 && info.cache_path[0] == '\0');
    TEST_CONTAINS(info.note, "no cache written: its entry would take 4000152 bytes");
    load_and_compare(path, &info);
    TEST_CHECK(info.from_cache == 0);
}

static void missing_source_is_an_error(void)
{
    spmvlab_csr A;
    spmvlab_err err;
    char path[4200];
    snprintf(path, sizeof path, "%s/none.mtx", tmpdir);
    TEST_CHECK(spmvlab_matrix_load(path, &A, &err) != 0);
    TEST_CONTAINS(err.msg, "none.mtx");
}

static void hash_sees_every_byte(void)
{
    unsigned char buf[200];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 7);
    uint64_t seen[200];
    int distinct = 1;
    for (size_t n = 0; n < sizeof buf; n++) { /* every length differs */
        seen[n] = spmvlab_hash64(buf, n, 0);
        for (size_t m = 0; m < n; m++)
            distinct &= seen[m] != seen[n];
    }
    TEST_CHECK(distinct);
    uint64_t h = spmvlab_hash64(buf, sizeof buf, 0);
    int flips = 1;
    for (size_t i = 0; i < sizeof buf; i++) { /* every byte matters */
        buf[i] ^= 1;
        flips &= spmvlab_hash64(buf, sizeof buf, 0) != h;
        buf[i] ^= 1;
    }
    TEST_CHECK(flips);
    TEST_CHECK(spmvlab_hash64(buf, sizeof buf, 1) != h);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 77;
    }
    char cache[4200], src[4200];
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    setenv("SPMVLAB_CACHE_DIR", cache, 1);
    unsetenv("SPMVLAB_NO_CACHE");
    hash_sees_every_byte();
    missing_source_is_an_error();
    an_entry_far_larger_than_its_file_is_not_written();
    /* a symmetric real matrix (expanded on parse) and a pattern one */
    const char *names[] = {"bcsstk16.mtx.gz", "bcspwr10.mtx.gz"};
    int tested = 0;
    for (int i = 0; i < 2; i++) {
        if (copy_data_matrix(names[i], src, sizeof src) != 0)
            continue;
        tested++;
        first_load_writes_then_hits(src);
        touched_source_makes_the_cache_stale(src);
        damaged_caches_are_refused(src);
        no_cache_means_parse_only(src);
        if (i == 0) {
            read_only_folder_is_left_alone(src);
            input_folder_gets_no_file(src);
            identity_keys_the_entry(src);
            the_cap_evicts_the_least_recently_used(src);
        }
    }
    TEST_CHECK(tested > 0);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_done("test_cache");
}
