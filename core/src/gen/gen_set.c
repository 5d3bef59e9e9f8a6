/*
 * Benchmark sets: INI files naming matrices by generator or by path (the
 * format is described in sets/README.md), read with inih and validated key
 * by key so every refusal names the file and line; and materialisation of
 * generated members into the cache directory.
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
    int has_gen, has_path, has_dir, has_optional;
    unsigned char *is_dir;       /* per entry: 1 when it lists a folder (dir =) */
    int key_line[SPMVLAB_GEN_MAX_PARAMS]; /* line of each parameter of cur */
    char root[SPMVLAB_PATH_LEN]; /* [set] root, "" when not given */
} set_parser;

/* snprintf without the compiler's truncation guesses; returns -1 when the
 * text did not fit (it is then cut). */
static int textf(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, len, fmt, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

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

static int name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || strchr("_.+-", *s)))
            return 0;
    return 1;
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
    if (strlen(name) >= SPMVLAB_SET_NAME_LEN || !name_ok(name)) {
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
    sp->has_gen = sp->has_path = sp->has_dir = sp->has_optional = 0;
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
            textf(sp->set->description, sizeof sp->set->description, "%s", value);
        else if (strcmp(key, "root") == 0)
            textf(sp->root, sizeof sp->root, "%s", value);
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
        textf(e->kind, sizeof e->kind, "%s", value);
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
        textf(e->path, sizeof e->path, "%s", value);
    } else if (strcmp(key, "optional") == 0) {
        if (sp->has_optional++ || parse_bool(value, &e->optional))
            return fail_at(sp, sp->line, "optional = '%s' is not true or false (or given twice)",
                           value);
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

/* Joins dir and a relative path; absolute paths stay as they are.
 * Returns -1 when the result does not fit. */
static int join(char *out, size_t len, const char *dir, const char *path)
{
    if (path[0] == '/' || !dir[0])
        return textf(out, len, "%s", path);
    return textf(out, len, "%s/%s", dir, path);
}

/* Relative paths resolve against [set] root, itself relative to the set
 * file's folder (default: that folder). */
static int resolve_paths(set_parser *sp)
{
    spmvlab_set *s = sp->set;
    char *abs = realpath(sp->file, NULL), dir[SPMVLAB_PATH_LEN], base[SPMVLAB_PATH_LEN];
    textf(dir, sizeof dir, "%s", abs ? abs : sp->file);
    free(abs);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        strcpy(dir, ".");
    if (join(base, sizeof base, dir, sp->root[0] ? sp->root : "."))
        return spmvlab_errf(sp->err, "%s: the root folder's path is too long", sp->file), -1;
    char *clean = realpath(base, NULL); /* drops "..", when the folder exists */
    if (clean)
        textf(base, sizeof base, "%s", clean);
    free(clean);
    for (int i = 0; i < s->count; i++) {
        spmvlab_set_entry *e = &s->entries[i];
        char raw[SPMVLAB_PATH_LEN];
        memcpy(raw, e->path, sizeof raw);
        if (e->kind[0])
            continue;
        if (join(e->path, sizeof e->path, base, raw))
            return spmvlab_errf(sp->err, "%s:%d: the path of [%s] is too long", sp->file, e->line,
                                e->name), -1;
        clean = realpath(e->path, NULL);
        if (clean)
            textf(e->path, sizeof e->path, "%s", clean);
        free(clean);
    }
    return 0;
}

static int is_matrix_file(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && ((n > 4 && strcmp(name + n - 4, ".mtx") == 0) ||
                              (n > 7 && strcmp(name + n - 7, ".mtx.gz") == 0));
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the matrix files of folder entry e (sorted by name) to list. */
static int list_folder(set_parser *sp, const spmvlab_set_entry *e, spmvlab_set_entry **list,
                       int *n, int *cap)
{
    DIR *d = opendir(e->path);
    if (!d) {
        if (e->optional)
            return 0;
        return spmvlab_errf(sp->err, "%s:%d: [%s]: cannot read folder %s: %s", sp->file, e->line,
                            e->name, e->path, strerror(errno)), -1;
    }
    char **names = NULL;
    int count = 0, rc = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (!is_matrix_file(de->d_name))
            continue;
        char **grown = realloc(names, (size_t)(count + 1) * sizeof *names);
        char *copy = grown ? strdup(de->d_name) : NULL;
        if (grown)
            names = grown;
        if (!copy) {
            rc = -1;
            spmvlab_errf(sp->err, "out of host memory listing %s", e->path);
            break;
        }
        names[count++] = copy;
    }
    closedir(d);
    if (count)
        qsort(names, (size_t)count, sizeof *names, cmp_names);
    for (int i = 0; i < count && rc == 0; i++) {
        if (*n == *cap) {
            int c = *cap ? 2 * *cap : 64;
            spmvlab_set_entry *grown = realloc(*list, (size_t)c * sizeof *grown);
            if (!grown) {
                rc = -1;
                spmvlab_errf(sp->err, "out of host memory listing %s", e->path);
                break;
            }
            *list = grown;
            *cap = c;
        }
        spmvlab_set_entry *m = &(*list)[(*n)++];
        memset(m, 0, sizeof *m);
        char label[256];
        spmvlab_matrix_label(names[i], label, sizeof label);
        if (strlen(label) >= sizeof m->name || !name_ok(label)) {
            rc = -1;
            spmvlab_errf(sp->err, "%s:%d: [%s]: file %s does not give a matrix name [A-Za-z0-9_.+-]+",
                         sp->file, e->line, e->name, names[i]);
            break;
        }
        strcpy(m->name, label);
        if (join(m->path, sizeof m->path, e->path, names[i])) {
            rc = -1;
            spmvlab_errf(sp->err, "%s:%d: [%s]: a path is too long", sp->file, e->line, e->name);
        }
        m->optional = e->optional;
        m->line = e->line;
    }
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* Replaces each folder entry by one entry per matrix file in it, then
 * refuses names that now appear twice. */
static int expand_folders(set_parser *sp)
{
    spmvlab_set *s = sp->set;
    spmvlab_set_entry *list = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < s->count; i++) {
        if (sp->is_dir[i]) {
            if (list_folder(sp, &s->entries[i], &list, &n, &cap)) {
                free(list);
                return -1;
            }
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            spmvlab_set_entry *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown) {
                free(list);
                return spmvlab_errf(sp->err, "out of host memory"), -1;
            }
            list = grown;
        }
        list[n++] = s->entries[i];
    }
    free(s->entries);
    s->entries = list;
    s->count = n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(list[i].name, list[j].name) == 0)
                return spmvlab_errf(sp->err, "%s:%d: matrix %s appears twice (also from line %d)",
                                    sp->file, list[i].line, list[i].name, list[j].line), -1;
    if (n == 0)
        return spmvlab_errf(sp->err, "%s: the set holds no matrices", sp->file), -1;
    return 0;
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
    if (!sp.failed && (resolve_paths(&sp) || expand_folders(&sp)))
        sp.failed = 1;
    free(sp.is_dir);
    return sp.failed ? -1 : 0;
}

/* Finds NAME.ini on the search path into out. Returns 0, or -1 naming the
 * folders searched. */
static int find_set(const char *name, char *out, size_t len, spmvlab_err *err)
{
    char dirs[4][SPMVLAB_PATH_LEN], tried[2048] = "";
    int n = 0;
    const char *env = getenv("SPMVLAB_SETS_DIR");
    if (env && *env)
        textf(dirs[n++], sizeof dirs[0], "%s", env);
#ifdef SPMVLAB_SOURCE_DIR
    textf(dirs[n++], sizeof dirs[0], "%s/sets", SPMVLAB_SOURCE_DIR);
#endif
#ifdef SPMVLAB_INSTALL_SETS_DIR
    textf(dirs[n++], sizeof dirs[0], "%s", SPMVLAB_INSTALL_SETS_DIR);
#elif defined(SPMVLAB_INSTALL_DATA_DIR)
    textf(dirs[n++], sizeof dirs[0], "%s/sets", SPMVLAB_INSTALL_DATA_DIR);
#endif
    for (int i = 0; i < n; i++) {
        textf(out, len, "%s/%s.ini", dirs[i], name);
        if (access(out, R_OK) == 0)
            return 0;
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%.400s", i ? ":" : "", dirs[i]);
    }
    return spmvlab_errf(err, "no set '%s' (looked for %s.ini in %s; SPMVLAB_SETS_DIR adds a folder)",
                        name, name, n ? tried : "no folder"), -1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int spmvlab_set_load(const char *name, spmvlab_set *out, spmvlab_err *err)
{
    memset(out, 0, sizeof *out);
    if (!name || !*name)
        return spmvlab_errf(err, "no set name given"), -1;
    if (strchr(name, '/') || ends_with(name, ".ini"))
        textf(out->file, sizeof out->file, "%s", name);
    else if (find_set(name, out->file, sizeof out->file, err))
        return -1;
    const char *base = strrchr(out->file, '/');
    textf(out->name, sizeof out->name, "%s", base ? base + 1 : out->file);
    if (ends_with(out->name, ".ini"))
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

/* ---- materialisation ----------------------------------------------------------- */

int spmvlab_set_materialize(const spmvlab_set *s, int index, char *path_out, size_t len,
                            spmvlab_err *err)
{
    path_out[0] = '\0';
    if (index < 0 || index >= s->count)
        return spmvlab_errf(err, "set %s has no matrix %d", s->name, index), -1;
    const spmvlab_set_entry *e = &s->entries[index];
    if (!e->kind[0]) {
        if (access(e->path, R_OK) == 0) {
            textf(path_out, len, "%s", e->path);
            return 0;
        }
        spmvlab_errf(err, "set %s: %s %s: cannot read %s: %s", s->name,
                     e->optional ? "optional matrix" : "matrix", e->name, e->path, strerror(errno));
        return e->optional ? 1 : -1;
    }
    char desc[1024], dir[SPMVLAB_PATH_LEN], path[SPMVLAB_PATH_LEN + 128], tmp[sizeof path + 32];
    if (spmvlab_gen_describe(e->kind, &e->params, desc, sizeof desc, err))
        return -1;
    const spmvlab_gen_kind *kind = spmvlab_gen_kind_find(e->kind);
    size_t used = strlen(desc);
    /* The version is part of the folder hash, not of the recipe line. */
    char hashed[1100];
    snprintf(hashed, sizeof hashed, "%s (generator version %d)", desc, kind->version);
    (void)used;
    if (spmvlab_cache_dir(dir, sizeof dir - 32, 1, err))
        return -1;
    /* <cache>/gen/<hash>/<name>.mtx: the folder pins the parameters, the
     * file keeps the matrix's own name (reports label matrices by file). */
    size_t n = strlen(dir);
    textf(dir + n, sizeof dir - n, "/gen");
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return spmvlab_errf(err, "cannot create %s: %s", dir, strerror(errno)), -1;
    n = strlen(dir);
    textf(dir + n, sizeof dir - n, "/%016llx",
          (unsigned long long)spmvlab_hash64(hashed, strlen(hashed), 0));
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return spmvlab_errf(err, "cannot create %s: %s", dir, strerror(errno)), -1;
    textf(path, sizeof path, "%s/%s" SPMVLAB_RECIPE_SUFFIX, dir, e->name);
    if (textf(path_out, len, "%s", path))
        return spmvlab_errf(err, "path %s does not fit %zu bytes", path, len), -1;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return 0;
    spmvlab_csr A;
    spmvlab_err why;
    if (spmvlab_gen(e->kind, &e->params, &A, &why)) {
        path_out[0] = '\0';
        return spmvlab_errf(err, "set %s: matrix %s: %s", s->name, e->name, why.msg), -1;
    }
    /* The recipe is written under a temporary name and renamed, so a reader
     * never sees half of it. */
    textf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", dir, e->name, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int bad = !f || fprintf(f, "%s\n", desc) < 0;
    if (f && fclose(f) != 0)
        bad = 1;
    if (bad)
        spmvlab_errf(&why, "cannot write %s: %s", tmp, strerror(errno));
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        spmvlab_errf(&why, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    }
    if (bad) {
        unlink(tmp);
        spmvlab_csr_free(&A);
        path_out[0] = '\0';
        return spmvlab_errf(err, "set %s: matrix %s: %s", s->name, e->name, why.msg), -1;
    }
    /* Seed the binary cache so the first load skips parsing; a failure here
     * only costs that parse later. */
    spmvlab_cache_store(path, &A, NULL, 0, &why);
    spmvlab_csr_free(&A);
    return 0;
}

/* ---- recipe files ---------------------------------------------------------------- */

int spmvlab_is_recipe(const char *path) { return ends_with(path, SPMVLAB_RECIPE_SUFFIX); }

int spmvlab_recipe_read(const char *path, spmvlab_csr *A, spmvlab_err *err)
{
    memset(A, 0, sizeof *A);
    FILE *f = fopen(path, "r");
    if (!f)
        return spmvlab_errf(err, "cannot open recipe %s: %s", path, strerror(errno)), -1;
    char line[1200];
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (!ok)
        return spmvlab_errf(err, "%s line 1: the recipe is empty", path), -1;
    line[strcspn(line, "\r\n")] = '\0';
    char kind[32];
    size_t n = strcspn(line, " \t");
    if (n == 0 || n >= sizeof kind)
        return spmvlab_errf(err, "%s line 1: expected a generator kind first", path), -1;
    memcpy(kind, line, n);
    kind[n] = '\0';
    spmvlab_gen_params p;
    memset(&p, 0, sizeof p);
    spmvlab_err why;
    if (spmvlab_gen_params_parse(&p, line + n, &why) || spmvlab_gen(kind, &p, A, &why))
        return spmvlab_errf(err, "%s line 1: %s", path, why.msg), -1;
    return 0;
}
