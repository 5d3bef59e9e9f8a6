/* Matrix Market writer ("coordinate real general"), plain or gzip. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "spmvlab/core.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int spmvlab_mtx_write(const char *path, const spmvlab_csr *A, const char *comment, spmvlab_err *err)
{
    /* gzopen with "wT" writes uncompressed, so one code path serves both. */
    gzFile gz = gzopen(path, ends_with(path, ".gz") ? "wb6" : "wbT");
    if (!gz)
        return spmvlab_errf(err, "cannot write %s: %s", path, strerror(errno)), -1;
    gzbuffer(gz, 1 << 20);
    int bad = gzprintf(gz, "%%%%MatrixMarket matrix coordinate real general\n") <= 0;
    if (comment && *comment)
        bad |= gzprintf(gz, "%% %s\n", comment) <= 0;
    bad |= gzprintf(gz, "%d %d %d\n", A->rows, A->cols, A->nnz) <= 0;
    char line[96];
    for (int32_t i = 0; i < A->rows && !bad; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int n = snprintf(line, sizeof line, "%d %d %.17g\n", i + 1, A->col_idx[k] + 1, A->val[k]);
            if (gzwrite(gz, line, (unsigned)n) != n) {
                bad = 1;
                break;
            }
        }
    if (gzclose(gz) != Z_OK || bad)
        return spmvlab_errf(err, "writing %s failed (disk full or not writable)", path), -1;
    return 0;
}
