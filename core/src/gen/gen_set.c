/*
 * Benchmark sets: INI files naming matrices by generator or by path (the
 * format is described in sets/README.md), read with inih and validated key
 * by key so every refusal names the file and line. Paths and folders:
 * gen_set_paths.c; generated members as files: gen_recipe.c.
 *
 * inih (Debian's build) does not pass line numbers to the handler and does
 * not report empty sections, so the line reader below counts lines and
 * notices section headers itself; inih processes each line completely
 * before it asks for the next, so the counter is the handler's line.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_internal.h"
#include "spmvlab/cache.h"
#include "spmvlab/core.h"

typedef struct set_parser {
    spmvlab_set *set;
    FILE *fp;
    const char *file;            /* for messages */
    int line;                    /* lines handed to inih so far */
    int failed;                  /* an error is in err; stop reading */
    spmvlab_err *err;
    int in_set;                  /* the current section is [set] */
    int seen_set;                /* a [set] section was read */
    int cap;                     /* entries allocated */
    spmvlab_set_entry *cur;      /* the current matrix section, or NULL */
    int has_gen, has_path, has_dir, has_optional, has_family;
    unsigned char *is_dir;       /* per entry: 1 when it lists a folder (dir =) */
    int key_line[SPMVLAB_GEN_MAX_PARAMS]; /* line of each parameter of cur */
    char root[SPMVLAB_PATH_LEN]; /* [set] root, "" when not given */
} set_parser;

static int fail_at(set_parser *sp, int line, const char *fmt, ...)
{
    if (sp->failed)
        return 0;
    char msg[SPMVLAB_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    spmvlab_errf(sp->err, "%s:%d: %s", sp->file, line, msg);
    sp->failed = 1;
    return 0;
}


/* Validates the matrix section that just ended. */
static void finish_section(set_parser *sp)
{
    spmvlab_set_entry *e = sp->cur;
    sp->cur = NULL;
    if (!e || sp->failed)
        return;
    if (sp->has_gen + sp->has_path + sp->has_dir != 1) {
        fail_at(sp, e->line,
                "[%s] needs exactly one of 'gen = KIND', 'path = FILE' and 'dir = FOLDER'", e->name);
        return;
    }
    if (sp->has_path || sp->has_dir) {
        if (e->params.count)
            fail_at(sp, sp->key_line[0], "'%s' is a generator parameter, but [%s] reads a file",
                    e->params.kv[0].key, e->name);
        return;
    }
    const spmvlab_gen_kind *kind = spmvlab_gen_kind_find(e->kind);
    spmvlab_err why;
    for (int i = 0; i < e->params.count; i++)
        if (gen_check_key(kind, e->params.kv[i].key, e->params.kv[i].value, NULL, &why) < 0) {
            fail_at(sp, sp->key_line[i], "%s", why.msg);
            return;
        }
    if (spmvlab_gen_check(e->kind, &e->params, &why) != 0)
        fail_at(sp, e->line, "[%s]: %s", e->name, why.msg);
}

/* A section header on line sp->line: ends the previous section and starts
 * the next. */
static void start_section(set_parser *sp, const char *name)
{
    finish_section(sp);
    sp->in_set = 0;
    if (sp->failed)
        return;
    if (strcmp(name, "set") == 0) {
        if (sp->seen_set)
            fail_at(sp, sp->line, "a second [set] section");
        sp->in_set = sp->seen_set = 1;
        return;
    }
    if (strlen(name) >= SPMVLAB_SET_NAME_LEN || !gen_name_ok(name)) {
        fail_at(sp, sp->line, "matrix name [%s] is not [A-Za-z0-9_.+-]+ of at most %d characters",
                name, SPMVLAB_SET_NAME_LEN - 1);
        return;
    }
    spmvlab_set *s = sp->set;
    for (int i = 0; i < s->count; i++)
        if (strcmp(s->entries[i].name, name) == 0) {
            fail_at(sp, sp->line, "matrix [%s] is defined twice (first on line %d)", name,
                    s->entries[i].line);
            return;
        }
    if (s->count == sp->cap) {
        int cap = sp->cap ? 2 * sp->cap : 16;
        spmvlab_set_entry *grown = realloc(s->entries, (size_t)cap * sizeof *grown);
        unsigned char *flags = grown ? realloc(sp->is_dir, (size_t)cap) : NULL;
        if (grown)
            s->entries = grown;
        if (!flags) {
            fail_at(sp, sp->line, "out of host memory");
            return;
        }
        sp->is_dir = flags;
        sp->cap = cap;
    }
    sp->cur = &s->entries[s->count++];
    memset(sp->cur, 0, sizeof *sp->cur);
    strcpy(sp->cur->name, name);
    sp->cur->line = sp->line;
    sp->is_dir[s->count - 1] = 0;
    sp->has_gen = sp->has_path = sp->has_dir = sp->has_optional = sp->has_family = 0;
}

/* inih's line source: fgets that counts lines, refuses lines inih would
 * split, and spots section headers the way inih reads them. */
static char *read_line(char *str, int num, void *stream)
{
    set_parser *sp = stream;
    if (sp->failed || !fgets(str, num, sp->fp)) {
        if (!sp->failed)
            finish_section(sp);
        return NULL;
    }
    sp->line++;
    size_t n = strlen(str);
    if (n == (size_t)num - 1 && str[n - 1] != '\n' && !feof(sp->fp)) {
        fail_at(sp, sp->line, "line longer than %d characters", num - 2);
        return NULL;
    }
    const char *p = str;
    while (isspace((unsigned char)*p))
        p++;
    const char *close = *p == '[' ? strchr(p, ']') : NULL;
    if (close) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(close - p - 1), p + 1);
        start_section(sp, name);
    }
    return str;
}

static int parse_bool(const char *v, int *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no", "off", "0"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0)
            return *out = 1, 0;
        if (strcasecmp(v, no[i]) == 0)
            return *out = 0, 0;
    }
    return -1;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    set_parser *sp = user;
    if (sp->failed)
        return 0;
    if (strlen(key) >= SPMVLAB_GEN_KEY_LEN)
        return fail_at(sp, sp->line, "key '%s' is too long", key);
    if (sp->in_set) {
        if (strcmp(key, "description") == 0)
            gen_textf(sp->set->description, sizeof sp->set->description, "%s", value);
        else if (strcmp(key, "root") == 0)
            gen_textf(sp->root, sizeof sp->root, "%s", value);
        else
            return fail_at(sp, sp->line, "[set] has no key '%s' (keys: description, root)", key);
        return 1;
    }
    spmvlab_set_entry *e = sp->cur;
    if (!e)
        return fail_at(sp, sp->line, "'%s' outside a matrix section [%s]", key, section);
    if (strcmp(key, "gen") == 0) {
        if (sp->has_gen++)
            return fail_at(sp, sp->line, "[%s] names its generator twice", e->name);
        if (!spmvlab_gen_kind_find(value)) {
            spmvlab_err why;
            spmvlab_gen_check(value, NULL, &why);
            return fail_at(sp, sp->line, "%s", why.msg);
        }
        gen_textf(e->kind, sizeof e->kind, "%s", value);
    } else if (strcmp(key, "path") == 0 || strcmp(key, "dir") == 0) {
        if (sp->has_path++ + sp->has_dir)
            return fail_at(sp, sp->line, "[%s] names its file or folder twice", e->name);
        if (!*value)
            return fail_at(sp, sp->line, "[%s] has an empty %s", e->name, key);
        if (key[0] == 'd') {
            sp->has_path = 0;
            sp->has_dir = 1;
            sp->is_dir[e - sp->set->entries] = 1;
        }
        gen_textf(e->path, sizeof e->path, "%s", value);
    } else if (strcmp(key, "optional") == 0) {
        if (sp->has_optional++ || parse_bool(value, &e->optional))
            return fail_at(sp, sp->line, "optional = '%s' is not true or false (or given twice)",
                           value);
    } else if (strcmp(key, "family") == 0) {
        if (sp->has_family++ || !gen_name_ok(value) || strlen(value) >= sizeof e->family)
            return fail_at(sp, sp->line, "family = '%s' is not a name [A-Za-z0-9_.+-]+ (or given twice)", value);
        gen_textf(e->family, sizeof e->family, "%s", value);
    } else {
        if (spmvlab_gen_params_get(&e->params, key))
            return fail_at(sp, sp->line, "[%s] sets '%s' twice", e->name, key);
        spmvlab_err why;
        if (spmvlab_gen_params_set(&e->params, key, value, &why))
            return fail_at(sp, sp->line, "%s", why.msg);
        sp->key_line[e->params.count - 1] = sp->line;
    }
    return 1;
}

static int parse_file(const char *file, spmvlab_set *s, spmvlab_err *err)
{
    set_parser sp;
    memset(&sp, 0, sizeof sp);
    sp.set = s;
    sp.file = file;
    sp.err = err;
    sp.fp = fopen(file, "r");
    if (!sp.fp)
        return spmvlab_errf(err, "cannot open set file %s: %s", file, strerror(errno)), -1;
    int rc = ini_parse_stream(read_line, &sp, on_key, &sp);
    fclose(sp.fp);
    if (!sp.failed && rc != 0)
        sp.failed = 1, spmvlab_errf(err, "%s:%d: not a [section], key = value or comment line",
                                    file, rc);
    if (!sp.failed && s->count == 0)
        sp.failed = 1, spmvlab_errf(err, "%s: defines no matrices", file);
    if (!sp.failed && (gen_set_resolve_paths(s, file, sp.root, err) ||
                       gen_set_expand_folders(s, file, sp.is_dir, err)))
        sp.failed = 1;
    free(sp.is_dir);
    return sp.failed ? -1 : 0;
}

/* The "did you mean" of an unknown set name: the nearest NAME.ini of the
 * n folders dirs, into hint ("" when none is near). */
static void set_hint(const char *name, char (*dirs)[SPMVLAB_PATH_LEN], int n, char *hint, size_t len)
{
    enum { MAX_SETS = 128 };
    char names[MAX_SETS][64];
    const char *list[MAX_SETS];
    int count = 0;
    for (int i = 0; i < n; i++) {
        DIR *d = opendir(dirs[i]);
        for (struct dirent *e; d && count < MAX_SETS && (e = readdir(d));)
            if (gen_ends_with(e->d_name, ".ini") && strlen(e->d_name) < sizeof names[0] + 4) {
                snprintf(names[count], sizeof names[count], "%.*s", (int)(strlen(e->d_name) - 4), e->d_name);
                list[count] = names[count];
                count++;
            }
        if (d)
            closedir(d);
    }
    spmvlab_did_you_mean(name, list, count, hint, len);
}

/* Finds NAME.ini on the search path into out. Returns 0, or -1 naming the
 * folders searched and the nearest set name. */
static int find_set(const char *name, char *out, size_t len, spmvlab_err *err)
{
    char dirs[4][SPMVLAB_PATH_LEN], tried[2048] = "";
    int n = 0;
    const char *env = getenv("SPMVLAB_SETS_DIR");
    if (env && *env)
        gen_textf(dirs[n++], sizeof dirs[0], "%s", env);
#ifdef SPMVLAB_SOURCE_DIR
    gen_textf(dirs[n++], sizeof dirs[0], "%s/sets", SPMVLAB_SOURCE_DIR);
#endif
#ifdef SPMVLAB_INSTALL_SETS_DIR
    gen_textf(dirs[n++], sizeof dirs[0], "%s", SPMVLAB_INSTALL_SETS_DIR);
#elif defined(SPMVLAB_INSTALL_DATA_DIR)
    gen_textf(dirs[n++], sizeof dirs[0], "%s/sets", SPMVLAB_INSTALL_DATA_DIR);
#endif
    for (int i = 0; i < n; i++) {
        gen_textf(out, len, "%s/%s.ini", dirs[i], name);
        if (access(out, R_OK) == 0)
            return 0;
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%.400s", i ? ":" : "", dirs[i]);
    }
    char hint[96];
    set_hint(name, dirs, n, hint, sizeof hint);
    return spmvlab_errf(err, "no set '%s'%s (looked for %s.ini in %s; SPMVLAB_SETS_DIR adds a folder)",
                        name, hint, name, n ? tried : "no folder"), -1;
}


int spmvlab_set_load(const char *name, spmvlab_set *out, spmvlab_err *err)
{
    memset(out, 0, sizeof *out);
    if (!name || !*name)
        return spmvlab_errf(err, "no set name given"), -1;
    if (strchr(name, '/') || gen_ends_with(name, ".ini"))
        gen_textf(out->file, sizeof out->file, "%s", name);
    else if (find_set(name, out->file, sizeof out->file, err))
        return -1;
    const char *base = strrchr(out->file, '/');
    gen_textf(out->name, sizeof out->name, "%s", base ? base + 1 : out->file);
    if (gen_ends_with(out->name, ".ini"))
        out->name[strlen(out->name) - 4] = '\0';
    if (parse_file(out->file, out, err)) {
        spmvlab_set_free(out);
        return -1;
    }
    return 0;
}

void spmvlab_set_free(spmvlab_set *s)
{
    if (!s)
        return;
    free(s->entries);
    memset(s, 0, sizeof *s);
}
