/*
 * Field scanners of the Matrix Market reader (mtx_internal.h): integers
 * and reals parsed by hand (an exact fast path for the common decimal
 * forms, strtod for the rest), each refusal a sentence with the line.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mtx_internal.h"

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Ends a field: a blank, the end of the line or the end of the input. */
static int ends_field(const cursor *c, const char *s) { return s >= c->end || mtx_is_blank(*s) || *s == '\n'; }

void mtx_skip_blanks(cursor *c)
{
    while (c->p < c->end && mtx_is_blank(*c->p))
        c->p++;
}

/* Moves to the next line that is neither blank nor a % comment. Returns 0
 * at end of input. */
int mtx_next_content_line(cursor *c)
{
    while (c->p < c->end) {
        mtx_skip_blanks(c);
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
void mtx_token_text(const char *p, const char *end, char *out, size_t len)
{
    size_t n = 0;
    while (p < end && !mtx_is_blank(*p) && *p != '\n' && n + 1 < len && n < 24) {
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
int mtx_parse_int(cursor *c, long long *v, const char *what)
{
    mtx_skip_blanks(c);
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
        mtx_token_text(c->p, c->end, tok, sizeof tok);
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
int mtx_parse_real(cursor *c, double *v)
{
    mtx_skip_blanks(c);
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
        mtx_token_text(c->p, c->end, tok, sizeof tok);
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
int mtx_end_of_line(cursor *c, const char *after)
{
    mtx_skip_blanks(c);
    if (c->p < c->end && *c->p != '\n') {
        char tok[32];
        mtx_token_text(c->p, c->end, tok, sizeof tok);
        spmvlab_errf(c->err, "%s line %ld: unexpected '%s' after %s", c->path, c->line, tok, after);
        return -1;
    }
    if (c->p < c->end) {
        c->p++;
        c->line++;
    }
    return 0;
}
