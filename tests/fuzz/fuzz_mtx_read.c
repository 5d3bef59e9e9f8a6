/*
 * libFuzzer harness for the Matrix Market loader. Each input is written to
 * an in-memory file (plain or gzip: the loader decides) and read with
 * spmvlab_mtx_read. A crash, a sanitizer report, a leak, a refusal without
 * a sentence naming the file, or an accepted matrix that is not valid CSR
 * is a finding. Inputs declaring more than 2^20 rows are skipped: the
 * loader rightly allocates their row pointers, which says nothing about
 * parsing and only exhausts the fuzzer's memory.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "spmvlab/core.h"

#define MAX_ROWS (1LL << 20)

static int fd = -1;
static char path[64];

/* The row count of the size line, as the loader will see it; -1 if none. */
static long long declared_rows(const uint8_t *data, size_t size)
{
    static char text[1 << 16];
    int n;
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        gzFile gz = gzopen(path, "rb");
        if (!gz)
            return -1;
        n = gzread(gz, text, sizeof text - 1);
        gzclose(gz);
    } else {
        n = (int)(size < sizeof text - 1 ? size : sizeof text - 1);
        memcpy(text, data, (size_t)n);
    }
    if (n <= 0)
        return -1;
    text[n] = '\0';
    char *p = strchr(text, '\n'); /* past the banner */
    while (p && *p) {
        p++;
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p == '%' || *p == '\n') {
            p = strchr(p, '\n');
            continue;
        }
        return strtoll(p, NULL, 10);
    }
    return -1;
}

static void check_csr(const spmvlab_csr *A)
{
    if (A->rows < 0 || A->cols < 0 || A->nnz < 0 || !A->row_ptr || A->row_ptr[0] != 0 ||
        A->row_ptr[A->rows] != A->nnz)
        abort();
    for (int32_t i = 0; i < A->rows; i++) {
        if (A->row_ptr[i + 1] < A->row_ptr[i])
            abort();
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            if (A->col_idx[k] < 0 || A->col_idx[k] >= A->cols ||
                (k > A->row_ptr[i] && A->col_idx[k] <= A->col_idx[k - 1]))
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fd < 0) {
        fd = memfd_create("fuzz.mtx", 0);
        if (fd < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    long long rows = declared_rows(data, size);
    if (rows > MAX_ROWS && rows <= INT32_MAX)
        return 0;
    spmvlab_csr A;
    spmvlab_err err = {{0}};
    int rc = spmvlab_mtx_read(path, &A, &err);
    if (rc == 0) {
        check_csr(&A);
        spmvlab_csr_free(&A);
    } else if ((rc != -1 && rc != -2) || !strstr(err.msg, path) || strchr(err.msg, '\n')) {
        fprintf(stderr, "bad refusal (%d): %s\n", rc, err.msg);
        abort();
    }
    return 0;
}
