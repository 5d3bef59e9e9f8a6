/* The bytes of a matrix file, plain or gzip; see mtx_internal.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "mtx_internal.h"

/* Reads the whole (possibly gzipped) file into *out. A truncated or corrupt
 * gzip stream still hands back the bytes decompressed so far, so the caller
 * can name the line where they end. Returns 0 (see *how), or -1 with err. */
int mtx_slurp(const char *path, char **out, size_t *len, read_end *how, char *why, size_t why_len,
                 spmvlab_err *err)
{
    FILE *probe = fopen(path, "rb");
    if (!probe)
        return spmvlab_errf(err, "cannot open matrix file %s: %s", path, strerror(errno)), -1;
    long file_bytes = fseek(probe, 0, SEEK_END) == 0 ? ftell(probe) : -1;
    fclose(probe);
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return spmvlab_errf(err, "cannot open matrix file %s", path), -1;
    gzbuffer(gz, file_bytes >= 0 && file_bytes < (1 << 20) ? 1 << 16 : 1 << 20); /* big reads for big files */
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    *how = READ_OK;
    why[0] = '\0';
    for (;;) {
        if (!buf) {
            gzclose(gz);
            return spmvlab_errf(err, "out of host memory reading %s", path), -1;
        }
        if (cap - n < (1 << 15)) {
            cap *= 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb)
                free(buf);
            buf = nb;
            continue;
        }
        unsigned want = (unsigned)((cap - n) > (size_t)INT_MAX ? INT_MAX : (cap - n));
        int got = gzread(gz, buf + n, want);
        if (got < 0) {
            int code;
            const char *msg = gzerror(gz, &code);
            /* zlib prefixes the path; keep only the cause. */
            size_t pl = strlen(path);
            if (strncmp(msg, path, pl) == 0 && strncmp(msg + pl, ": ", 2) == 0)
                msg += pl + 2;
            *how = code == Z_BUF_ERROR ? READ_TRUNCATED : READ_CORRUPT;
            snprintf(why, why_len, "%s", msg);
            break;
        }
        n += (size_t)got;
        if (got == 0)
            break;
    }
    int code = Z_OK;
    gzerror(gz, &code);
    int rc = gzclose(gz);
    if (*how == READ_OK && (code == Z_BUF_ERROR || rc == Z_BUF_ERROR))
        *how = READ_TRUNCATED;
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

/* Line number at the end of n bytes of text. */
long mtx_line_at_end(const char *buf, size_t n)
{
    long line = 1;
    for (const char *p = buf; (p = memchr(p, '\n', (size_t)(buf + n - p))) != NULL; p++)
        line++;
    return line;
}
