/*
 * INI reading through inih. Debian's build passes no line numbers to the
 * handler, so the reader callback counts lines and looks at each raw line
 * before inih does: it refuses what inih would silently cut or misread —
 * lines over INI_MAX_LINE - 1 characters, NUL bytes, section or key names
 * over SPMVLAB_NAME_MAX, text after a section header, keys without a name,
 * a key given twice in one section of one file — and notes section headers
 * (an empty section is still an instance) and whether inih will take the
 * line as a continuation of the previous value (joined with a space).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/config.h"

typedef struct reader_state {
    spmvlab_config *cfg;
    const char *file;
    FILE *fp;           /* file input, or */
    const char *text;   /* string input */
    int line;
    int err_line;       /* first error we found, 0 if none */
    int prev_key;       /* inih holds a previous key (a pair since the last header) */
    int continuation;   /* inih takes the current line as a continuation */
    spmvlab_err *err;
} reader_state;

static void fail_at(reader_state *st, int line, const char *fmt, ...)
{
    if (st->err_line && st->err_line <= line)
        return;
    char cause[SPMVLAB_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cause, sizeof cause, fmt, ap);
    va_end(ap);
    st->err_line = line;
    spmvlab_errf(st->err, "%s:%d: %s", st->file, line, cause);
}

spmvlab_section *spmvlab_config_section(spmvlab_config *cfg, const char *label)
{
    for (int i = 0; i < cfg->nsections; i++)
        if (strcmp(cfg->sections[i].label, label) == 0)
            return &cfg->sections[i];
    return NULL;
}

spmvlab_section *spmvlab_config_section_add(spmvlab_config *cfg, const char *label)
{
    spmvlab_section *s = spmvlab_config_section(cfg, label);
    if (s)
        return s;
    spmvlab_section *grown = realloc(cfg->sections, (size_t)(cfg->nsections + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    cfg->sections = grown;
    s = &cfg->sections[cfg->nsections++];
    memset(s, 0, sizeof *s);
    snprintf(s->label, sizeof s->label, "%s", label);
    return s;
}

const spmvlab_kv *spmvlab_section_get(const spmvlab_section *s, const char *key)
{
    for (int i = 0; s && i < s->nkv; i++)
        if (strcmp(s->kv[i].key, key) == 0)
            return &s->kv[i];
    return NULL;
}

static spmvlab_kv *section_put(spmvlab_section *s, const char *key)
{
    for (int i = 0; i < s->nkv; i++)
        if (strcmp(s->kv[i].key, key) == 0)
            return &s->kv[i];
    spmvlab_kv *grown = realloc(s->kv, (size_t)(s->nkv + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    s->kv = grown;
    spmvlab_kv *kv = &s->kv[s->nkv++];
    memset(kv, 0, sizeof *kv);
    snprintf(kv->key, sizeof kv->key, "%s", key);
    return kv;
}

int spmvlab_section_set(spmvlab_section *s, const char *key, const char *value, spmvlab_err *err)
{
    spmvlab_kv *kv = section_put(s, key);
    char *v = strdup(value);
    if (!kv || !v) {
        free(v);
        return spmvlab_errf(err, "out of host memory for configuration"), -1;
    }
    free(kv->value);
    kv->value = v;
    kv->file[0] = '\0';
    kv->line = 0;
    return 0;
}

static int valid_label(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

/* The section header on a line (p at '['): registers the section with its
 * line, or refuses the header. */
static void inspect_header(reader_state *st, const char *p)
{
    const char *close = strchr(p, ']');
    if (!close) {
        fail_at(st, st->line, "section header without a closing ']'");
        return;
    }
    const char *after = close + 1;
    while (*after == ' ' || *after == '\t' || *after == '\r')
        after++;
    if (*after && *after != ';' && *after != '#') {
        fail_at(st, st->line, "unexpected '%.20s' after the section header", after);
        return;
    }
    char label[128];
    size_t n = (size_t)(close - p - 1);
    if (n > SPMVLAB_NAME_MAX) {
        fail_at(st, st->line, "section name is longer than %d characters", SPMVLAB_NAME_MAX);
        return;
    }
    memcpy(label, p + 1, n);
    label[n] = '\0';
    if (!valid_label(label)) {
        fail_at(st, st->line, "section name '%s' may hold only letters, digits, '_', '-' and '.'", label);
        return;
    }
    spmvlab_section *s = spmvlab_config_section(st->cfg, label);
    if (!s) {
        s = spmvlab_config_section_add(st->cfg, label);
        if (s) {
            snprintf(s->file, sizeof s->file, "%s", st->file);
            s->line = st->line;
        }
    }
}

/* Looks at each raw line before inih does (inih's rules: a comment starts
 * with ';' or '#'; an indented line after a key continues its value; else
 * '[' opens a header and '=' or ':' splits a pair). */
static void inspect_line(reader_state *st, const char *line, int too_long, int has_nul)
{
    st->line++;
    st->continuation = 0;
    if (too_long) {
        fail_at(st, st->line, "the line is longer than %d characters", INI_MAX_LINE - 1);
        return;
    }
    if (has_nul) {
        fail_at(st, st->line, "the line holds a NUL byte; configuration files are text");
        return;
    }
    if (st->line == 1 && strncmp(line, "\xEF\xBB\xBF", 3) == 0)
        line += 3; /* a UTF-8 byte order mark, which inih skips too */
    const char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p || *p == ';' || *p == '#')
        return; /* blank or comment */
    if (p > line && st->prev_key) {
        st->continuation = 1;
        return;
    }
    if (*p == '[') {
        st->prev_key = 0;
        inspect_header(st, p);
        return;
    }
    const char *eq = strpbrk(p, "=:");
    if (!eq)
        return; /* inih reports the line */
    const char *end = eq;
    while (end > p && isspace((unsigned char)end[-1]))
        end--;
    if (end == p) {
        st->prev_key = 0;
        fail_at(st, st->line, "a key name is missing before '%c'", *eq);
        return;
    }
    if ((size_t)(end - p) > SPMVLAB_NAME_MAX)
        fail_at(st, st->line, "key name is longer than %d characters", SPMVLAB_NAME_MAX);
    st->prev_key = 1;
}

/* Next byte of the input, or EOF. */
static int next_byte(reader_state *st)
{
    if (st->fp)
        return getc(st->fp);
    return *st->text ? (unsigned char)*st->text++ : EOF;
}

/* inih's reader: hands over one line without its line break (CRLF too),
 * at most num - 1 characters; a longer line is cut and refused, the rest of
 * it skipped, so line numbers stay right. */
static char *read_line(char *str, int num, void *stream)
{
    reader_state *st = stream;
    size_t n = 0, len = 0;
    int c, any = 0, has_nul = 0, last = 0;
    while ((c = next_byte(st)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        has_nul |= c == '\0';
        if (n + 1 < (size_t)num)
            str[n++] = (char)c;
        len++;
        last = c;
    }
    if (!any)
        return NULL;
    if (last == '\r') { /* CRLF: the CR is no character of the line */
        len--;
        if (n > len)
            n = len;
    }
    str[n] = '\0';
    inspect_line(st, str, len + 1 > (size_t)num, has_nul);
    return str;
}

static int on_pair(void *user, const char *section, const char *name, const char *value)
{
    reader_state *st = user;
    if (!section[0]) {
        fail_at(st, st->line, "'%s' comes before any [section]", name);
        return 0;
    }
    spmvlab_section *s = spmvlab_config_section_add(st->cfg, section);
    if (!s) {
        fail_at(st, st->line, "out of host memory");
        return 0;
    }
    spmvlab_kv *kv = section_put(s, name);
    if (!kv) {
        fail_at(st, st->line, "out of host memory");
        return 0;
    }
    /* inih calls again, with the same name, for an indented continuation
     * line directly below: join it to the value. */
    if (st->continuation && kv->value) {
        size_t a = strlen(kv->value), b = strlen(value);
        char *joined = realloc(kv->value, a + b + 2);
        if (!joined) {
            fail_at(st, st->line, "out of host memory");
            return 0;
        }
        joined[a] = ' ';
        memcpy(joined + a + 1, value, b + 1);
        kv->value = joined;
        kv->cont_line = st->line;
        return 1;
    }
    if (kv->value && kv->line > 0 && strcmp(kv->file, st->file) == 0) {
        fail_at(st, st->line, "'%s' is set twice in [%s]; first on line %d", name, section, kv->line);
        return 0;
    }
    char *v = strdup(value);
    if (!v) {
        fail_at(st, st->line, "out of host memory");
        return 0;
    }
    free(kv->value);
    kv->value = v;
    snprintf(kv->file, sizeof kv->file, "%s", st->file);
    kv->line = st->line;
    kv->cont_line = st->line;
    return 1;
}

static int parse(spmvlab_config *cfg, reader_state *st)
{
    int rc = ini_parse_stream(read_line, st, on_pair, st);
    if (rc > 0 && (!st->err_line || rc < st->err_line))
        fail_at(st, rc, "expected '[section]' or 'key = value'");
    if (rc < 0 && !st->err_line)
        spmvlab_errf(st->err, "%s: out of memory while parsing", st->file);
    return st->err_line || rc ? -1 : 0;
}

int spmvlab_config_read(spmvlab_config *cfg, const char *path, spmvlab_err *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return spmvlab_errf(err, "cannot open configuration file %s: %s", path, strerror(errno)), -1;
    reader_state st = {cfg, path, fp, NULL, 0, 0, 0, 0, err};
    int rc = parse(cfg, &st);
    if (ferror(fp) && !st.err_line) {
        spmvlab_errf(err, "cannot read configuration file %s: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(fp);
    return rc;
}

int spmvlab_config_read_string(spmvlab_config *cfg, const char *text, const char *name, spmvlab_err *err)
{
    reader_state st = {cfg, name, NULL, text, 0, 0, 0, 0, err};
    return parse(cfg, &st);
}

void spmvlab_config_free(spmvlab_config *cfg)
{
    for (int i = 0; i < cfg->nsections; i++) {
        for (int k = 0; k < cfg->sections[i].nkv; k++)
            free(cfg->sections[i].kv[k].value);
        free(cfg->sections[i].kv);
    }
    free(cfg->sections);
    memset(cfg, 0, sizeof *cfg);
}
