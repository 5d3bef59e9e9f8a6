/*
 * Matrix Market reader: coordinate real / integer / pattern; general,
 * symmetric or skew-symmetric; plain or gzip. The whole file is read into
 * memory and parsed with hand-written number scanners (strtod only for
 * numbers the exact fast path cannot take), so large files parse at
 * hundreds of MB/s.
 *
 * Every refusal is one sentence naming the file and the line: truncated
 * files and gzip streams, a missing or wrong banner, kinds spmvlab does not
 * handle (array, complex, hermitian: said so, return -2), negative,
 * overflowing or non-square sizes, sizes beyond 32-bit indices, more or
 * fewer entries than declared, indices out of range or zero, non-numbers,
 * non-integers in integer files, entries above the diagonal of a symmetric
 * file and on or above it in a skew-symmetric one. Accepted: comments and
 * blank lines anywhere after the banner, tabs, CRLF, trailing blanks, a
 * missing final newline, explicit zeros (kept), duplicates (summed), NaN and
 * Inf values (the verifier reports them).
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

/* How reading the bytes ended. */
typedef enum { READ_OK, READ_TRUNCATED, READ_CORRUPT } read_end;

/* Reads the whole (possibly gzipped) file into *out. A truncated or corrupt
 * gzip stream still hands back the bytes decompressed so far, so the caller
 * can name the line where they end. Returns 0 (see *how), or -1 with err. */
static int slurp(const char *path, char **out, size_t *len, read_end *how, char *why, size_t why_len,
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
/* Ends a field: a blank, the end of the line or the end of the input. */
static int ends_field(const cursor *c, const char *s) { return s >= c->end || is_blank(*s) || *s == '\n'; }

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
            if (nl)
                c->line++;
            continue;
        }
        return c->p < c->end;
    }
    return 0;
}

/* The field at p (at most 24 printable characters), for messages. */
static void token_text(const char *p, const char *end, char *out, size_t len)
{
    size_t n = 0;
    while (p < end && !is_blank(*p) && *p != '\n' && n + 1 < len && n < 24) {
        unsigned char ch = (unsigned char)*p++;
        out[n++] = isprint(ch) ? (char)ch : '?';
    }
    out[n] = '\0';
}

/* A field that should be there is not: at the end of the line, or of the file. */
static int missing(cursor *c, const char *what)
{
    if (c->p >= c->end)
        spmvlab_errf(c->err, "%s line %ld: %s is missing; the file ends here (truncated?)", c->path, c->line, what);
    else
        spmvlab_errf(c->err, "%s line %ld: %s is missing", c->path, c->line, what);
    return -1;
}

/* Parses a decimal integer (optional sign) into *v. */
static int parse_int(cursor *c, long long *v, const char *what)
{
    skip_blanks(c);
    if (c->p >= c->end || *c->p == '\n')
        return missing(c, what);
    const char *s = c->p;
    int neg = 0;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    unsigned long long x = 0;
    const char *digits = s;
    while (s < c->end && isdigit((unsigned char)*s)) {
        unsigned d = (unsigned)(*s++ - '0');
        if (x > ((unsigned long long)LLONG_MAX - d) / 10) {
            spmvlab_errf(c->err, "%s line %ld: %s overflows a 64-bit integer", c->path, c->line, what);
            return -1;
        }
        x = x * 10 + d;
    }
    if (s == digits || !ends_field(c, s)) {
        char tok[32];
        token_text(c->p, c->end, tok, sizeof tok);
        spmvlab_errf(c->err, "%s line %ld: %s '%s' is not an integer", c->path, c->line, what, tok);
        return -1;
    }
    *v = neg ? -(long long)x : (long long)x;
    c->p = s;
    return 0;
}

/* 1 when [s, e) is a decimal number as Matrix Market writes them (with a
 * Fortran 'd' exponent allowed) or inf / infinity / nan with a sign. */
static int decimal_syntax(const char *s, const char *e)
{
    if (s < e && (*s == '+' || *s == '-'))
        s++;
    size_t n = (size_t)(e - s);
    static const char *const words[] = {"inf", "infinity", "nan"};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (n == strlen(words[k]) && strncasecmp(s, words[k], n) == 0)
            return 1;
    int mant = 0;
    while (s < e && isdigit((unsigned char)*s))
        s++, mant = 1;
    if (s < e && *s == '.')
        for (s++; s < e && isdigit((unsigned char)*s); s++)
            mant = 1;
    if (!mant)
        return 0;
    if (s < e && (*s == 'e' || *s == 'E' || *s == 'd' || *s == 'D')) {
        s++;
        if (s < e && (*s == '+' || *s == '-'))
            s++;
        if (s >= e || !isdigit((unsigned char)*s))
            return 0;
        while (s < e && isdigit((unsigned char)*s))
            s++;
    }
    return s == e;
}

/* Parses a real number; exact fast path (Clinger) else strtod on a checked
 * copy of the field. */
static int parse_real(cursor *c, double *v)
{
    skip_blanks(c);
    if (c->p >= c->end || *c->p == '\n')
        return missing(c, "the value");
    const char *s = c->p;
    int neg = 0;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    unsigned long long mant = 0;
    int digits = 0, exp10 = 0, any = 0;
    while (s < c->end && isdigit((unsigned char)*s)) {
        if (digits < 19)
            mant = mant * 10 + (unsigned)(*s - '0');
        else if (exp10 < 100000)
            exp10++;
        digits += mant != 0 || digits;
        s++;
        any = 1;
    }
    if (s < c->end && *s == '.') {
        s++;
        while (s < c->end && isdigit((unsigned char)*s)) {
            if (digits < 19) {
                mant = mant * 10 + (unsigned)(*s - '0');
                if (exp10 > -100000)
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
    if (any && ends_field(c, s) && digits <= 19 && mant <= (1ULL << 53) && exp10 >= -22 && exp10 <= 22) {
        double d = (double)mant;
        d = exp10 < 0 ? d / pow10_exact[-exp10] : d * pow10_exact[exp10];
        *v = neg ? -d : d;
        c->p = s;
        return 0;
    }
    /* Slow path: long mantissas, large exponents, nan, inf, Fortran 'd'. */
    const char *t = c->p;
    while (!ends_field(c, t))
        t++;
    size_t n = (size_t)(t - c->p);
    if (!decimal_syntax(c->p, t)) {
        char tok[32];
        token_text(c->p, c->end, tok, sizeof tok);
        spmvlab_errf(c->err, "%s line %ld: value '%s' is not a number", c->path, c->line, tok);
        return -1;
    }
    char small[128], *tmp = n < sizeof small ? small : malloc(n + 1);
    if (!tmp)
        return spmvlab_errf(c->err, "%s line %ld: out of host memory", c->path, c->line), -1;
    for (size_t k = 0; k < n; k++)
        tmp[k] = (c->p[k] == 'd' || c->p[k] == 'D') ? 'e' : c->p[k];
    tmp[n] = '\0';
    *v = strtod(tmp, NULL); /* overflow gives ±Inf, accepted and reported by the verifier */
    if (tmp != small)
        free(tmp);
    c->p = t;
    return 0;
}

/* The rest of the line must be blank. */
static int end_of_line(cursor *c, const char *after)
{
    skip_blanks(c);
    if (c->p < c->end && *c->p != '\n') {
        char tok[32];
        token_text(c->p, c->end, tok, sizeof tok);
        spmvlab_errf(c->err, "%s line %ld: unexpected '%s' after %s", c->path, c->line, tok, after);
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

/* Reads line 1. Returns 0, -1 (malformed) or -2 (a kind not handled). */
static int parse_banner(cursor *c, field_kind *field, sym_kind *sym, spmvlab_csr *A)
{
    char w[6][64] = {{0}};
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    const char *eol = nl ? nl : c->end;
    const char *s = c->p;
    for (int k = 0; k < 6; k++) {
        while (s < eol && is_blank(*s))
            s++;
        size_t n = 0;
        while (s < eol && !is_blank(*s) && n + 1 < sizeof w[k]) {
            unsigned char ch = (unsigned char)*s++;
            w[k][n++] = isprint(ch) ? (char)tolower(ch) : '?';
        }
        while (s < eol && !is_blank(*s))
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
    if (!next_content_line(&c)) {
        spmvlab_errf(err, "%s line %ld: the size line (rows columns entries) is missing", path, c.line);
        return -1;
    }
    long long rows, cols, declared;
    long size_line = c.line;
    if (parse_int(&c, &rows, "the row count") || parse_int(&c, &cols, "the column count") ||
        parse_int(&c, &declared, "the entry count") || end_of_line(&c, "the size line's three fields"))
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
    long long room = sym == S_GENERAL ? rows * cols : sym == S_SYMMETRIC ? rows * (rows + 1) / 2 : rows * (rows - 1) / 2;
    if (declared > room) {
        spmvlab_errf(err, "%s line %ld: %lld entries cannot fit a %s %lld x %lld matrix", path, size_line, declared,
                     hdr.symmetry, rows, cols);
        return -1;
    }
    /* Reserve what the text can hold at most (an entry takes at least four
     * bytes, "1 1\n"), never what a short file merely declares. */
    size_t fit = len / 4 + 1, first = (size_t)declared < fit ? (size_t)declared : fit;
    if (entries_reserve(&e, (sym == S_GENERAL ? 1 : 2) * first + 1)) {
        spmvlab_errf(err, "out of host memory for the %lld entries of %s", declared, path);
        goto out;
    }
    for (long long k = 0; k < declared; k++) {
        if (!next_content_line(&c)) {
            spmvlab_errf(err, "%s line %ld: the file ends after %lld of %lld declared entries", path, c.line, k,
                         declared);
            goto out;
        }
        long long i, j;
        double x = 1.0;
        long at = c.line;
        if (parse_int(&c, &i, "the row index") || parse_int(&c, &j, "the column index"))
            goto out;
        if (field != F_PATTERN) {
            skip_blanks(&c);
            const char *value_at = c.p;
            if (parse_real(&c, &x))
                goto out;
            if (field == F_INTEGER) {
                const char *d = value_at + (*value_at == '-' || *value_at == '+');
                while (d < c.p && isdigit((unsigned char)*d))
                    d++;
                if (d != c.p || d == value_at) {
                    char tok[32];
                    token_text(value_at, c.end, tok, sizeof tok);
                    spmvlab_errf(err, "%s line %ld: value '%s' is not an integer, as the banner's 'integer' field requires",
                                 path, at, tok);
                    goto out;
                }
            }
        }
        if (end_of_line(&c, field == F_PATTERN ? "the two indices of a pattern entry" : "the entry's value"))
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
    if (next_content_line(&c)) {
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

/* Line number at the end of n bytes of text. */
static long line_at_end(const char *buf, size_t n)
{
    long line = 1;
    for (const char *p = buf; (p = memchr(p, '\n', (size_t)(buf + n - p))) != NULL; p++)
        line++;
    return line;
}

int spmvlab_mtx_read(const char *path, spmvlab_csr *A, spmvlab_err *err)
{
    memset(A, 0, sizeof *A);
    char *buf, why[256];
    size_t len;
    read_end how;
    if (slurp(path, &buf, &len, &how, why, sizeof why, err))
        return -1;
    int rc = -1;
    if (how == READ_TRUNCATED) /* the damage comes first, whatever the readable part holds */
        spmvlab_errf(err, "%s line %ld: the gzip stream is truncated; the data ends in this line", path,
                     line_at_end(buf, len));
    else if (how == READ_CORRUPT)
        spmvlab_errf(err, "%s line %ld: the gzip stream is corrupt (%s)", path, line_at_end(buf, len), why);
    else
        rc = parse_text(path, buf, len, A, err);
    free(buf);
    return rc;
}
