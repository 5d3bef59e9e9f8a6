/*
 * Matrix Market reader: coordinate real / integer / pattern; general,
 * symmetric or skew-symmetric; plain or gzip. The whole file is read into
 * memory and parsed with hand-written number scanners (strtod only for
 * numbers the exact fast path cannot take), so large files parse at
 * hundreds of MB/s. Every refusal names the file and the line.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "spmvlab/core.h"

/* Reads the whole (possibly gzipped) file. Returns 0 or -1 with err. */
static int slurp(const char *path, char **out, size_t *len, spmvlab_err *err)
{
    FILE *probe = fopen(path, "rb");
    if (!probe)
        return spmvlab_errf(err, "cannot open matrix file %s: %s", path, strerror(errno)), -1;
    fclose(probe);
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return spmvlab_errf(err, "cannot open matrix file %s", path), -1;
    gzbuffer(gz, 1 << 20);
    size_t cap = 1 << 22, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (!buf) {
            gzclose(gz);
            return spmvlab_errf(err, "out of host memory reading %s", path), -1;
        }
        if (cap - n < (1 << 20)) {
            cap *= 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb)
                free(buf);
            buf = nb;
            continue;
        }
        int want = (int)((cap - n) > (size_t)INT_MAX ? INT_MAX : (cap - n));
        int got = gzread(gz, buf + n, (unsigned)want);
        if (got < 0) {
            int code;
            const char *why = gzerror(gz, &code);
            spmvlab_errf(err, "%s: the gzip stream is corrupt (%s)", path, why);
            free(buf);
            gzclose(gz);
            return -1;
        }
        n += (size_t)got;
        if (got == 0)
            break;
    }
    int code = Z_OK;
    gzerror(gz, &code);
    int rc = gzclose(gz);
    if (code == Z_BUF_ERROR || rc == Z_BUF_ERROR) {
        free(buf);
        return spmvlab_errf(err, "%s: the gzip stream is truncated", path), -1;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

typedef struct cursor {
    const char *p, *end;
    long line;
    const char *path;
    spmvlab_err *err;
} cursor;

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static void skip_blanks(cursor *c)
{
    while (c->p < c->end && is_blank(*c->p))
        c->p++;
}

/* Moves to the next line that is neither blank nor a % comment. Returns 0
 * at end of input. */
static int next_content_line(cursor *c)
{
    while (c->p < c->end) {
        skip_blanks(c);
        if (c->p < c->end && *c->p == '\n') {
            c->p++;
            c->line++;
            continue;
        }
        if (c->p < c->end && *c->p == '%') {
            const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
            c->p = nl ? nl + 1 : c->end;
            c->line++;
            continue;
        }
        return c->p < c->end;
    }
    return 0;
}

/* The token at p, for messages. */
static void token_text(const char *p, const char *end, char *out, size_t len)
{
    size_t n = 0;
    while (p < end && !isspace((unsigned char)*p) && n + 1 < len && n < 24)
        out[n++] = *p++;
    out[n] = '\0';
}

/* Parses a decimal integer (optional sign) into *v. */
static int parse_int(cursor *c, long long *v, const char *what)
{
    skip_blanks(c);
    const char *s = c->p;
    int neg = 0;
    if (s < c->end && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    if (s >= c->end || !isdigit((unsigned char)*s)) {
        char tok[32];
        token_text(c->p, c->end, tok, sizeof tok);
        if (c->p >= c->end || *c->p == '\n')
            spmvlab_errf(c->err, "%s line %ld: %s is missing", c->path, c->line, what);
        else
            spmvlab_errf(c->err, "%s line %ld: %s '%s' is not an integer", c->path, c->line, what, tok);
        return -1;
    }
    unsigned long long x = 0;
    while (s < c->end && isdigit((unsigned char)*s)) {
        if (x > (ULLONG_MAX - 9) / 10 / 2) {
            spmvlab_errf(c->err, "%s line %ld: %s overflows a 64-bit integer", c->path, c->line, what);
            return -1;
        }
        x = x * 10 + (unsigned)(*s++ - '0');
    }
    if (s < c->end && !isspace((unsigned char)*s)) {
        char tok[32];
        token_text(c->p, c->end, tok, sizeof tok);
        spmvlab_errf(c->err, "%s line %ld: %s '%s' is not an integer", c->path, c->line, what, tok);
        return -1;
    }
    *v = neg ? -(long long)x : (long long)x;
    c->p = s;
    return 0;
}

/* Parses a real number; exact fast path (Clinger) else strtod. */
static int parse_real(cursor *c, double *v)
{
    skip_blanks(c);
    const char *s = c->p;
    int neg = 0;
    if (s < c->end && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    unsigned long long mant = 0;
    int digits = 0, exp10 = 0;
    while (s < c->end && isdigit((unsigned char)*s)) {
        if (digits < 19)
            mant = mant * 10 + (unsigned)(*s - '0');
        else
            exp10++;
        digits += mant != 0 || digits;
        s++;
    }
    int any = s > c->p + (c->p < c->end && (*c->p == '-' || *c->p == '+'));
    if (s < c->end && *s == '.') {
        s++;
        while (s < c->end && isdigit((unsigned char)*s)) {
            if (digits < 19) {
                mant = mant * 10 + (unsigned)(*s - '0');
                exp10--;
            }
            digits += mant != 0 || digits;
            s++;
            any = 1;
        }
    }
    if (any && s < c->end && (*s == 'e' || *s == 'E' || *s == 'd' || *s == 'D')) {
        const char *e = s + 1;
        int eneg = 0, ev = 0, edig = 0;
        if (e < c->end && (*e == '-' || *e == '+'))
            eneg = *e++ == '-';
        while (e < c->end && isdigit((unsigned char)*e)) {
            if (ev < 100000)
                ev = ev * 10 + (*e - '0');
            e++;
            edig = 1;
        }
        if (!edig)
            any = 0;
        exp10 += eneg ? -ev : ev;
        s = e;
    }
    if (any && (s >= c->end || isspace((unsigned char)*s)) && digits <= 19 &&
        mant <= (1ULL << 53) && exp10 >= -22 && exp10 <= 22) {
        double d = (double)mant;
        d = exp10 < 0 ? d / pow10_exact[-exp10] : d * pow10_exact[exp10];
        *v = neg ? -d : d;
        c->p = s;
        return 0;
    }
    /* Slow path: long mantissas, large exponents, nan, inf, Fortran 'D'. */
    char tmp[128];
    size_t n = 0;
    const char *t = c->p;
    while (t < c->end && !isspace((unsigned char)*t) && n + 1 < sizeof tmp)
        tmp[n++] = (*t == 'd' || *t == 'D') ? 'e' : *t, t++;
    tmp[n] = '\0';
    char *stop;
    errno = 0;
    double d = strtod(tmp, &stop);
    if (n == 0 || *stop != '\0') {
        if (n == 0)
            spmvlab_errf(c->err, "%s line %ld: the value is missing", c->path, c->line);
        else
            spmvlab_errf(c->err, "%s line %ld: value '%s' is not a number", c->path, c->line, tmp);
        return -1;
    }
    *v = d; /* overflow gives ±Inf, which is accepted and reported later */
    c->p = t;
    return 0;
}

/* The rest of the line must be blank. */
static int end_of_line(cursor *c)
{
    skip_blanks(c);
    if (c->p < c->end && *c->p != '\n') {
        char tok[32];
        token_text(c->p, c->end, tok, sizeof tok);
        spmvlab_errf(c->err, "%s line %ld: unexpected '%s' after the last field", c->path, c->line, tok);
        return -1;
    }
    if (c->p < c->end) {
        c->p++;
        c->line++;
    }
    return 0;
}

typedef enum { F_REAL, F_INTEGER, F_PATTERN } field_kind;
typedef enum { S_GENERAL, S_SYMMETRIC, S_SKEW } sym_kind;

static int parse_banner(cursor *c, field_kind *field, sym_kind *sym, spmvlab_csr *A)
{
    char w[5][64] = {{0}};
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    const char *eol = nl ? nl : c->end;
    if (c->end - c->p < 14 || strncmp(c->p, "%%MatrixMarket", 14) != 0) {
        spmvlab_errf(c->err, "%s line 1: missing '%%%%MatrixMarket' banner; not a Matrix Market file",
                     c->path);
        return -1;
    }
    const char *s = c->p;
    for (int k = 0; k < 5; k++) {
        while (s < eol && is_blank(*s))
            s++;
        size_t n = 0;
        while (s < eol && !is_blank(*s) && n + 1 < sizeof w[k])
            w[k][n++] = (char)tolower((unsigned char)*s++);
        while (s < eol && !is_blank(*s))
            s++;
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
                     c->path, w[4][0] ? w[4] : "(missing)");
        return -2;
    }
    snprintf(A->field, sizeof A->field, "%.15s", w[3]);
    snprintf(A->symmetry, sizeof A->symmetry, "%.15s", w[4]);
    c->p = nl ? nl + 1 : c->end;
    c->line = 2;
    return 0;
}

int spmvlab_mtx_read(const char *path, spmvlab_csr *A, spmvlab_err *err)
{
    memset(A, 0, sizeof *A);
    char *buf;
    size_t len;
    if (slurp(path, &buf, &len, err))
        return -1;
    cursor c = {buf, buf + len, 1, path, err};
    field_kind field;
    sym_kind sym;
    spmvlab_csr hdr = {0};
    int32_t *ri = NULL, *ci = NULL;
    double *v = NULL;
    int rc = -1;
    if (len == 0) {
        spmvlab_errf(err, "%s is empty; not a Matrix Market file", path);
        goto out;
    }
    int banner = parse_banner(&c, &field, &sym, &hdr);
    if (banner) {
        rc = banner;
        goto out;
    }
    if (!next_content_line(&c)) {
        spmvlab_errf(err, "%s line %ld: the size line (rows cols entries) is missing", path, c.line);
        goto out;
    }
    long long rows, cols, declared;
    if (parse_int(&c, &rows, "the row count") || parse_int(&c, &cols, "the column count") ||
        parse_int(&c, &declared, "the entry count") || end_of_line(&c))
        goto out;
    long size_line = c.line - 1;
    if (rows < 0 || cols < 0 || declared < 0) {
        spmvlab_errf(err, "%s line %ld: negative size %lld x %lld with %lld entries", path, size_line,
                     rows, cols, declared);
        goto out;
    }
    if (rows > INT32_MAX || cols > INT32_MAX) {
        spmvlab_errf(err, "%s line %ld: size %lld x %lld exceeds the 32-bit index limit of %d", path,
                     size_line, rows, cols, INT32_MAX);
        goto out;
    }
    long long expanded = sym == S_GENERAL ? declared : 2 * declared;
    if (declared > INT32_MAX || expanded > INT32_MAX) {
        spmvlab_errf(err, "%s line %ld: %lld entries exceed the 32-bit index limit of %d", path,
                     size_line, declared, INT32_MAX);
        goto out;
    }
    if (rows > 0 && cols > 0 && declared > rows * cols) {
        spmvlab_errf(err, "%s line %ld: %lld entries cannot fit a %lld x %lld matrix", path, size_line,
                     declared, rows, cols);
        goto out;
    }
    size_t cap = (size_t)(expanded ? expanded : 1);
    ri = malloc(cap * sizeof *ri);
    ci = malloc(cap * sizeof *ci);
    v = malloc(cap * sizeof *v);
    if (!ri || !ci || !v) {
        spmvlab_errf(err, "out of host memory for the %lld entries of %s", expanded, path);
        goto out;
    }
    size_t n = 0;
    for (long long k = 0; k < declared; k++) {
        if (!next_content_line(&c)) {
            spmvlab_errf(err, "%s line %ld: the file ends after %lld of %lld declared entries", path,
                         c.line, k, declared);
            goto out;
        }
        long long i, j;
        double x = 1.0;
        if (parse_int(&c, &i, "the row index") || parse_int(&c, &j, "the column index"))
            goto out;
        if (field != F_PATTERN && parse_real(&c, &x))
            goto out;
        if (end_of_line(&c))
            goto out;
        long at = c.line - 1;
        if (i < 1 || i > rows || j < 1 || j > cols) {
            spmvlab_errf(err, "%s line %ld: entry (%lld, %lld) lies outside the %lld x %lld matrix (indices are 1-based)",
                         path, at, i, j, rows, cols);
            goto out;
        }
        if (sym == S_SYMMETRIC && j > i) {
            spmvlab_errf(err, "%s line %ld: entry (%lld, %lld) lies above the diagonal of a symmetric file",
                         path, at, i, j);
            goto out;
        }
        if (sym == S_SKEW && j >= i) {
            spmvlab_errf(err, "%s line %ld: entry (%lld, %lld) lies on or above the diagonal of a skew-symmetric file",
                         path, at, i, j);
            goto out;
        }
        ri[n] = (int32_t)(i - 1);
        ci[n] = (int32_t)(j - 1);
        v[n++] = x;
        if (sym != S_GENERAL && i != j) {
            ri[n] = (int32_t)(j - 1);
            ci[n] = (int32_t)(i - 1);
            v[n++] = sym == S_SKEW ? -x : x;
        }
    }
    if (next_content_line(&c)) {
        spmvlab_errf(err, "%s line %ld: more entries than the %lld declared on line %ld", path, c.line,
                     declared, size_line);
        goto out;
    }
    if (spmvlab_csr_build(A, (int32_t)rows, (int32_t)cols, n, ri, ci, v, err)) {
        char tmp[SPMVLAB_ERR_LEN];
        snprintf(tmp, sizeof tmp, "%s", err ? err->msg : "");
        spmvlab_errf(err, "%s: %s", path, tmp);
        goto out;
    }
    memcpy(A->field, hdr.field, sizeof A->field);
    memcpy(A->symmetry, hdr.symmetry, sizeof A->symmetry);
    rc = 0;
out:
    free(ri);
    free(ci);
    free(v);
    free(buf);
    return rc;
}
