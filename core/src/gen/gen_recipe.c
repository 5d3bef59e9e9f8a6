/*
 * Generated matrices as files: a set member is materialised as a recipe
 * (NAME.gen, one line "KIND key=value ...") in <cache>/gen/<hash>/, and a
 * recipe reads back as the matrix it describes (gen.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_internal.h"
#include "spmvlab/cache.h"
#include "spmvlab/core.h"

int spmvlab_set_materialize(const spmvlab_set *s, int index, char *path_out, size_t len,
                            spmvlab_err *err)
{
    path_out[0] = '\0';
    if (index < 0 || index >= s->count)
        return spmvlab_errf(err, "set %s has no matrix %d", s->name, index), -1;
    const spmvlab_set_entry *e = &s->entries[index];
    if (!e->kind[0]) {
        if (access(e->path, R_OK) == 0) {
            gen_textf(path_out, len, "%s", e->path);
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
    gen_textf(dir + n, sizeof dir - n, "/gen");
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return spmvlab_errf(err, "cannot create %s: %s", dir, strerror(errno)), -1;
    n = strlen(dir);
    gen_textf(dir + n, sizeof dir - n, "/%016llx",
          (unsigned long long)spmvlab_hash64(hashed, strlen(hashed), 0));
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return spmvlab_errf(err, "cannot create %s: %s", dir, strerror(errno)), -1;
    gen_textf(path, sizeof path, "%s/%s" SPMVLAB_RECIPE_SUFFIX, dir, e->name);
    if (gen_textf(path_out, len, "%s", path))
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
    gen_textf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", dir, e->name, (long)getpid());
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

int spmvlab_is_recipe(const char *path) { return gen_ends_with(path, SPMVLAB_RECIPE_SUFFIX); }

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
