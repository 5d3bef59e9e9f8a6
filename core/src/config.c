/*
 * INI reading through inih. Debian's build passes no line numbers to the
 * handler, so the reader callback counts lines, notes section headers (an
 * empty section is still an instance) and refuses what inih would silently
 * cut: lines over INI_MAX_LINE and section or key names over its limits.
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
    int indented;       /* the current line is an indented continuation */
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

/* Looks at each raw line before inih does: counts it, checks its length and
 * the length of any name on it, and notes section headers with their line. */
static void inspect_line(reader_state *st, const char *line, size_t len, int complete)
{
    st->line++;
    if (!complete) {
        fail_at(st, st->line, "the line is longer than %d characters", INI_MAX_LINE - 1);
        return;
    }
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    st->indented = p > line && *p && *p != '\n' && *p != '\r' && *p != ';' && *p != '#';
    if (p > line || *p == ';' || *p == '#' || *p == '\n' || *p == '\r' || !*p)
        return; /* indented continuation, comment or blank */
    if (*p == '[') {
        const char *close = strchr(p, ']');
        if (!close) {
            fail_at(st, st->line, "section header without a closing ']'");
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
        return;
    }
    const char *eq = strpbrk(p, "=:");
    if (eq) {
        const char *end = eq;
        while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        if ((size_t)(end - p) > SPMVLAB_NAME_MAX)
            fail_at(st, st->line, "key name is longer than %d characters", SPMVLAB_NAME_MAX);
    }
    (void)len;
}

static char *read_line(char *str, int num, void *stream)
{
    reader_state *st = stream;
    size_t n = 0;
    int complete = 0;
    if (st->fp) {
        if (!fgets(str, num, st->fp))
            return NULL;
        n = strlen(str);
        complete = (n && str[n - 1] == '\n') || feof(st->fp);
        if (!complete) { /* drop the rest of the over-long line */
            int c;
            while ((c = fgetc(st->fp)) != EOF && c != '\n')
                ;
        }
    } else {
        if (!*st->text)
            return NULL;
        const char *nl = strchr(st->text, '\n');
        size_t len = nl ? (size_t)(nl - st->text + 1) : strlen(st->text);
        complete = len < (size_t)num;
        n = complete ? len : (size_t)num - 1;
        memcpy(str, st->text, n);
        str[n] = '\0';
        st->text += len;
    }
    inspect_line(st, str, n, complete);
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
    if (kv->value && st->indented) {
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
    reader_state st = {cfg, path, fp, NULL, 0, 0, 0, err};
    int rc = parse(cfg, &st);
    fclose(fp);
    return rc;
}

int spmvlab_config_read_string(spmvlab_config *cfg, const char *text, const char *name, spmvlab_err *err)
{
    reader_state st = {cfg, name, NULL, text, 0, 0, 0, err};
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
