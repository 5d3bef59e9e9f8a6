/*
 * Matrix Market reader: coordinate real / integer / pattern; general,
 * symmetric or skew-symmetric; plain, gzip, or the matrix of a SuiteSparse
 * archive (Name.tar.gz holding Name/Name.mtx; its side files are ignored). The whole file is read into
 * memory and parsed with hand-written number scanners (strtod only for
 * numbers the exact fast path cannot take), so large files parse at
 * hundreds of MB/s.
 *
 * Every refusal is one sentence naming the file and the line: truncated
 * files and gzip streams, a missing or wrong banner, kinds spmvlab does not
 * handle (array, complex, hermitian: said so, return -2), negative,
 * overflowing or non-square sizes, sizes beyond 32-bit indices or beyond
 * the host memory the process may use, more or fewer entries than
 * declared, indices out of range or zero, non-numbers,
 * non-integers in integer files, entries above the diagonal of a symmetric
 * file and on or above it in a skew-symmetric one. Accepted: comments and
 * blank lines anywhere after the banner, tabs, CRLF, trailing blanks, a
 * missing final newline, explicit zeros (kept), duplicates (summed, also
 * beyond the matrix's cell count), NaN and Inf values (the verifier
 * reports them).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mtx_internal.h"

typedef enum { F_REAL, F_INTEGER, F_PATTERN } field_kind;
typedef enum { S_GENERAL, S_SYMMETRIC, S_SKEW } sym_kind;

/* Reads line 1. Returns 0, -1 (malformed) or -2 (a kind not handled). */
static int parse_banner(cursor *c, field_kind *field, sym_kind *sym, spmvlab_csr *A)
{
    char w[6][64] = {{0}};
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    const char *eol = nl ? nl : c->end;
    const char *s = c->p;
    for (int k = 0; k < 6; k++) {
        while (s < eol && mtx_is_blank(*s))
            s++;
        size_t n = 0;
        while (s < eol && !mtx_is_blank(*s) && n + 1 < sizeof w[k]) {
            unsigned char ch = (unsigned char)*s++;
            w[k][n++] = isprint(ch) ? (char)tolower(ch) : '?';
        }
        while (s < eol && !mtx_is_blank(*s))
            s++;
    }
    if (strcmp(w[0], "%%matrixmarket") != 0) {
        spmvlab_errf(c->err, "%s line 1: missing '%%%%MatrixMarket' banner; not a Matrix Market file", c->path);
        return -1;
    }
    if (!w[1][0] || !w[2][0] || !w[3][0] || !w[4][0]) {
        spmvlab_errf(c->err, "%s line 1: the banner is incomplete; expected '%%%%MatrixMarket matrix coordinate"
                     " <real|integer|pattern> <general|symmetric|skew-symmetric>'", c->path);
        return -1;
    }
    if (strcmp(w[1], "matrix") != 0) {
        spmvlab_errf(c->err, "%s line 1: object '%s' is not supported; only 'matrix'", c->path, w[1]);
        return -2;
    }
    if (strcmp(w[2], "array") == 0) {
        spmvlab_errf(c->err, "%s line 1: dense 'array' files are not supported; only sparse 'coordinate'", c->path);
        return -2;
    }
    if (strcmp(w[2], "coordinate") != 0) {
        spmvlab_errf(c->err, "%s line 1: format '%s' is not supported; only 'coordinate'", c->path, w[2]);
        return -2;
    }
    if (strcmp(w[3], "real") == 0 || strcmp(w[3], "double") == 0)
        *field = F_REAL;
    else if (strcmp(w[3], "integer") == 0)
        *field = F_INTEGER;
    else if (strcmp(w[3], "pattern") == 0)
        *field = F_PATTERN;
    else if (strcmp(w[3], "complex") == 0) {
        spmvlab_errf(c->err, "%s line 1: complex matrices are not supported; only real, integer or pattern", c->path);
        return -2;
    } else {
        spmvlab_errf(c->err, "%s line 1: field '%s' is not supported; only real, integer or pattern", c->path, w[3]);
        return -2;
    }
    if (strcmp(w[4], "general") == 0)
        *sym = S_GENERAL;
    else if (strcmp(w[4], "symmetric") == 0)
        *sym = S_SYMMETRIC;
    else if (strcmp(w[4], "skew-symmetric") == 0)
        *sym = S_SKEW;
    else if (strcmp(w[4], "hermitian") == 0) {
        spmvlab_errf(c->err, "%s line 1: hermitian matrices are not supported (they are complex)", c->path);
        return -2;
    } else {
        spmvlab_errf(c->err, "%s line 1: symmetry '%s' is not supported; only general, symmetric or skew-symmetric",
                     c->path, w[4]);
        return -2;
    }
    if (w[5][0]) {
        spmvlab_errf(c->err, "%s line 1: unexpected '%s' after the banner's symmetry", c->path, w[5]);
        return -1;
    }
    snprintf(A->field, sizeof A->field, "%.15s", w[3]);
    snprintf(A->symmetry, sizeof A->symmetry, "%.15s", w[4]);
    c->p = nl ? nl + 1 : c->end;
    c->line = 2;
    return 0;
}

/* Growable triplet arrays. */
typedef struct entries {
    int32_t *ri, *ci;
    double *v;
    size_t n, cap;
} entries;

static int entries_reserve(entries *e, size_t want)
{
    if (want <= e->cap)
        return 0;
    size_t cap = e->cap ? e->cap : 1024;
    while (cap < want)
        cap *= 2;
    int32_t *ri = realloc(e->ri, cap * sizeof *ri);
    if (ri)
        e->ri = ri;
    int32_t *ci = realloc(e->ci, cap * sizeof *ci);
    if (ci)
        e->ci = ci;
    double *v = realloc(e->v, cap * sizeof *v);
    if (v)
        e->v = v;
    if (!ri || !ci || !v)
        return -1;
    e->cap = cap;
    return 0;
}

/* Parses the text of a file (after slurp); see spmvlab_mtx_read. */
static int parse_text(const char *path, const char *buf, size_t len, spmvlab_csr *A, spmvlab_err *err)
{
    cursor c = {buf, buf + len, 1, path, err};
    field_kind field;
    sym_kind sym;
    spmvlab_csr hdr = {0};
    entries e = {0};
    int rc = -1;
    if (len == 0) {
        spmvlab_errf(err, "%s line 1: the file is empty; not a Matrix Market file", path);
        return -1;
    }
    int banner = parse_banner(&c, &field, &sym, &hdr);
    if (banner)
        return banner;
    if (!mtx_next_content_line(&c)) {
        spmvlab_errf(err, "%s line %ld: the size line (rows columns entries) is missing", path, c.line);
        return -1;
    }
    long long rows, cols, declared;
    long size_line = c.line;
    if (mtx_parse_int(&c, &rows, "the row count") || mtx_parse_int(&c, &cols, "the column count") ||
        mtx_parse_int(&c, &declared, "the entry count") || mtx_end_of_line(&c, "the size line's three fields"))
        return -1;
    if (rows < 0 || cols < 0 || declared < 0) {
        spmvlab_errf(err, "%s line %ld: negative size %lld x %lld with %lld entries", path, size_line, rows, cols,
                     declared);
        return -1;
    }
    if (rows > INT32_MAX || cols > INT32_MAX) {
        spmvlab_errf(err, "%s line %ld: size %lld x %lld exceeds the 32-bit index limit of %d", path, size_line,
                     rows, cols, INT32_MAX);
        return -1;
    }
    if (declared > INT32_MAX) {
        spmvlab_errf(err, "%s line %ld: %lld entries exceed the 32-bit index limit of %d", path, size_line,
                     declared, INT32_MAX);
        return -1;
    }
    if (sym != S_GENERAL && rows != cols) {
        spmvlab_errf(err, "%s line %ld: a %s matrix must be square, but the size is %lld x %lld", path,
                     size_line, hdr.symmetry, rows, cols);
        return -1;
    }
    /* More entries than cells is no error: duplicates are summed (as
     * scipy and fast_matrix_market read them). What the header implies is
     * checked before anything is allocated for it. */
    if (mtx_check_room(path, size_line, rows, cols, err))
        return -1;
    /* Reserve what the text can hold at most (an entry takes at least four
     * bytes, "1 1\n"), never what a short file merely declares. */
    size_t fit = len / 4 + 1, first = (size_t)declared < fit ? (size_t)declared : fit;
    if (entries_reserve(&e, (sym == S_GENERAL ? 1 : 2) * first + 1)) {
        spmvlab_errf(err, "out of host memory for the %lld entries of %s", declared, path);
        goto out;
    }
    for (long long k = 0; k < declared; k++) {
        if (!mtx_next_content_line(&c)) {
            spmvlab_errf(err, "%s line %ld: the file ends after %lld of %lld declared entries", path, c.line, k,
                         declared);
            goto out;
        }
        long long i, j;
        double x = 1.0;
        long at = c.line;
        if (mtx_parse_int(&c, &i, "the row index") || mtx_parse_int(&c, &j, "the column index"))
            goto out;
        if (field != F_PATTERN) {
            mtx_skip_blanks(&c);
            const char *value_at = c.p;
            if (mtx_parse_real(&c, &x))
                goto out;
            if (field == F_INTEGER) {
                const char *d = value_at + (*value_at == '-' || *value_at == '+');
                while (d < c.p && isdigit((unsigned char)*d))
                    d++;
                if (d != c.p || d == value_at) {
                    char tok[32];
                    mtx_token_text(value_at, c.end, tok, sizeof tok);
                    spmvlab_errf(err, "%s line %ld: value '%s' is not an integer, as the banner's 'integer' field requires",
                                 path, at, tok);
                    goto out;
                }
            }
        }
        if (mtx_end_of_line(&c, field == F_PATTERN ? "the two indices of a pattern entry" : "the entry's value"))
            goto out;
        if (i < 1 || i > rows || j < 1 || j > cols) {
            spmvlab_errf(err, "%s line %ld: entry (%lld, %lld) lies outside the %lld x %lld matrix (indices are 1-based)",
                         path, at, i, j, rows, cols);
            goto out;
        }
        if (sym == S_SYMMETRIC && j > i) {
            spmvlab_errf(err, "%s line %ld: entry (%lld, %lld) lies above the diagonal of a symmetric file "
                         "(only the lower triangle is stored)", path, at, i, j);
            goto out;
        }
        if (sym == S_SKEW && j == i) {
            spmvlab_errf(err, "%s line %ld: entry (%lld, %lld) lies on the diagonal of a skew-symmetric file "
                         "(its diagonal is zero and not stored)", path, at, i, j);
            goto out;
        }
        if (sym == S_SKEW && j > i) {
            spmvlab_errf(err, "%s line %ld: entry (%lld, %lld) lies above the diagonal of a skew-symmetric file "
                         "(only the lower triangle is stored)", path, at, i, j);
            goto out;
        }
        size_t add = sym != S_GENERAL && i != j ? 2 : 1;
        if (e.n + add > (size_t)INT32_MAX) {
            spmvlab_errf(err, "%s line %ld: the symmetric expansion exceeds the 32-bit index limit of %d entries",
                         path, at, INT32_MAX);
            goto out;
        }
        if (entries_reserve(&e, e.n + add)) {
            spmvlab_errf(err, "out of host memory for the entries of %s", path);
            goto out;
        }
        e.ri[e.n] = (int32_t)(i - 1);
        e.ci[e.n] = (int32_t)(j - 1);
        e.v[e.n++] = x;
        if (add == 2) {
            e.ri[e.n] = (int32_t)(j - 1);
            e.ci[e.n] = (int32_t)(i - 1);
            e.v[e.n++] = sym == S_SKEW ? -x : x;
        }
    }
    if (mtx_next_content_line(&c)) {
        spmvlab_errf(err, "%s line %ld: more entries than the %lld declared on line %ld", path, c.line, declared,
                     size_line);
        goto out;
    }
    if (spmvlab_csr_build(A, (int32_t)rows, (int32_t)cols, e.n, e.ri, e.ci, e.v, err)) {
        char tmp[SPMVLAB_ERR_LEN];
        snprintf(tmp, sizeof tmp, "%s", err ? err->msg : "");
        spmvlab_errf(err, "%s: %s", path, tmp);
        goto out;
    }
    memcpy(A->field, hdr.field, sizeof A->field);
    memcpy(A->symmetry, hdr.symmetry, sizeof A->symmetry);
    rc = 0;
out:
    free(e.ri);
    free(e.ci);
    free(e.v);
    return rc;
}

int spmvlab_mtx_read(const char *path, spmvlab_csr *A, spmvlab_err *err)
{
    memset(A, 0, sizeof *A);
    char *buf, why[256];
    size_t len;
    read_end how;
    if (mtx_slurp(path, &buf, &len, &how, why, sizeof why, err))
        return -1;
    int rc = -1;
    if (mtx_is_archive(path)) {
        /* Lines are counted in the member, so damage to the archive is
         * named by the archive alone. */
        const char *data;
        size_t n;
        char member[256], named[4400];
        if (how != READ_OK)
            spmvlab_errf(err, "%s: the gzip stream is %s", path, how == READ_TRUNCATED ? "truncated" : "corrupt");
        else if (mtx_tar_member(path, buf, len, &data, &n, member, sizeof member, err) == 0) {
            snprintf(named, sizeof named, "%s:%s", path, member);
            rc = parse_text(named, data, n, A, err);
        }
    } else if (how == READ_TRUNCATED) /* the damage comes first, whatever the readable part holds */
        spmvlab_errf(err, "%s line %ld: the gzip stream is truncated; the data ends in this line", path,
                     mtx_line_at_end(buf, len));
    else if (how == READ_CORRUPT)
        spmvlab_errf(err, "%s line %ld: the gzip stream is corrupt (%s)", path, mtx_line_at_end(buf, len), why);
    else
        rc = parse_text(path, buf, len, A, err);
    free(buf);
    return rc;
}
