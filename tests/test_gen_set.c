/* Benchmark set files (spmvlab/gen.h): the repository's sets parse, bad
 * files are refused with file and line, generated members materialise once
 * into the cache and read back as the generator's matrix. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spmvlab/cache.h"
#include "spmvlab/gen.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/spmvlab-test-gen-set-XXXXXX";

/* Writes text to tmpdir/name and returns the path. */
static const char *write_file(const char *name, const char *text)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

/* The error of loading a set file with text (must fail). */
static const char *set_error(const char *text)
{
    static spmvlab_err err;
    spmvlab_set s;
    if (spmvlab_set_load(write_file("bad.ini", text), &s, &err) == 0) {
        spmvlab_set_free(&s);
        snprintf(err.msg, sizeof err.msg, "(no error)");
    }
    return err.msg;
}

static void repository_sets_parse(void)
{
    spmvlab_set s;
    spmvlab_err err;
    const char *kinds_seen[16] = {0};
    int nk = 0;
    int rc = spmvlab_set_load("small", &s, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    TEST_CHECK(rc == 0);
    if (rc == 0) {
        TEST_CHECK(s.count >= 9 && strcmp(s.name, "small") == 0);
        for (int i = 0; i < s.count; i++)
            if (s.entries[i].kind[0]) {
                TEST_CHECK(spmvlab_gen_check(s.entries[i].kind, &s.entries[i].params, &err) == 0);
                int seen = 0;
                for (int k = 0; k < nk; k++)
                    seen |= strcmp(kinds_seen[k], s.entries[i].kind) == 0;
                if (!seen && nk < 16)
                    kinds_seen[nk++] = spmvlab_gen_kind_find(s.entries[i].kind)->name;
            }
        int kinds = 0;
        while (spmvlab_gen_kind_at(kinds))
            kinds++;
        TEST_CHECK(nk == kinds); /* every generator appears */
        TEST_CHECK(s.count > nk); /* and the bundled data/ matrices */
        spmvlab_set_free(&s);
    }
    rc = spmvlab_set_load("large", &s, &err);
    TEST_CHECK(rc == 0);
    if (rc == 0) {
        TEST_CHECK(s.count >= 12 && s.count <= 30);
        int optional_path = 0, few = 0, pattern = 0;
        for (int i = 0; i < s.count; i++) {
            optional_path += !s.entries[i].kind[0] && s.entries[i].optional &&
                             strstr(s.entries[i].path, "G3_circuit.mtx.gz") != NULL;
            const char *values = spmvlab_gen_params_get(&s.entries[i].params, "values");
            few += values && strncmp(values, "few:", 4) == 0;
            pattern += values && strcmp(values, "ones") == 0;
        }
        TEST_CHECK(optional_path == 1);
        TEST_CHECK(few == 6 && pattern == 1); /* the regular matrices few-valued, a pattern graph */
        spmvlab_set_free(&s);
    }
    TEST_CHECK(spmvlab_set_load("no_such_set", &s, &err) != 0);
    TEST_CONTAINS(err.msg, "no set 'no_such_set'");
}

static void bad_set_files_name_file_and_line(void)
{
    TEST_CONTAINS(set_error("[a]\ngen = uniform\nn = 10\nkk = 3\n"), "bad.ini:4: uniform has no parameter 'kk'");
    TEST_CONTAINS(set_error("[a]\ngen = cubic\n"), "bad.ini:2: unknown generator 'cubic'");
    TEST_CONTAINS(set_error("[a]\nn = 10\n"), "bad.ini:1: [a] needs exactly one of");
    TEST_CONTAINS(set_error("[a]\ngen = uniform\n[b]\n"), "bad.ini:3: [b] needs exactly one of");
    TEST_CONTAINS(set_error("[a]\ngen = uniform\n\n[a]\ngen = banded\n"), "bad.ini:4: matrix [a] is defined twice");
    TEST_CONTAINS(set_error("n = 3\n[a]\ngen = uniform\n"), "bad.ini:1: 'n' outside a matrix section");
    TEST_CONTAINS(set_error("[a]\ngen = uniform\nn = x\n"), "bad.ini:3: uniform: n = 'x' is not a number");
    TEST_CONTAINS(set_error("[a]\ngen = uniform\nn = 10\nk = 20\n"), "bad.ini:1: [a]: uniform: k = 20 exceeds");
    TEST_CONTAINS(set_error("[a]\npath = x.mtx\nn = 10\n"), "bad.ini:3: 'n' is a generator parameter");
    TEST_CONTAINS(set_error("[a]\npath = x.mtx\noptional = maybe\n"), "bad.ini:3: optional = 'maybe'");
    TEST_CONTAINS(set_error("[set]\nroots = ..\n[a]\ngen = uniform\n"), "bad.ini:2: [set] has no key 'roots'");
    TEST_CONTAINS(set_error("[a b]\ngen = uniform\n"), "bad.ini:1: matrix name [a b]");
    TEST_CONTAINS(set_error("[a]\ngen = uniform\nthis is no key\n"), "bad.ini:3: not a [section]");
    TEST_CONTAINS(set_error("[a]\ngen = uniform\nn = 10\nn = 20\n"), "bad.ini:4: [a] sets 'n' twice");
    TEST_CONTAINS(set_error("[a]\ndir = no_such_folder\n"), "bad.ini:1: [a]: cannot read folder");
    TEST_CONTAINS(set_error("; nothing\n"), "defines no matrices");
    char longline[400];
    memset(longline, 'x', sizeof longline);
    memcpy(longline, "[a]\ngen = uniform\n; ", 20);
    longline[sizeof longline - 1] = '\0';
    TEST_CONTAINS(set_error(longline), "bad.ini:3: line longer than");
}

static void set_members_resolve_and_materialise(void)
{
    char dir[4200], cache[4200], path[4096], again[4096];
    snprintf(dir, sizeof dir, "%s/mats", tmpdir);
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    mkdir(dir, 0755);
    setenv("SPMVLAB_CACHE_DIR", cache, 1);
    write_file("mats/b.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 3.0\n");
    write_file("mats/a.mtx.gz.txt", "not a matrix file name\n");
    const char *file = write_file("s.ini",
                                  "[set]\ndescription = test set\nroot = mats\n\n"
                                  "[grid]\ngen = stencil2d5\nn = 7\n\n"
                                  "[one]\npath = b.mtx\n\n"
                                  "[gone]\npath = missing.mtx\noptional = yes\n\n"
                                  "[folder]\ndir = .\n");
    spmvlab_set s;
    spmvlab_err err;
    /* b.mtx appears as [one] and, from the folder, as "b": distinct names.
     * The folder yields b only (a.mtx.gz.txt is no matrix file). */
    int rc = spmvlab_set_load(file, &s, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    TEST_CHECK(rc == 0);
    if (rc != 0)
        return;
    TEST_CHECK(s.count == 4 && strcmp(s.description, "test set") == 0);
    TEST_CHECK(strcmp(s.entries[3].name, "b") == 0);
    TEST_CHECK(strcmp(s.name, "s") == 0);
    /* generated: written once into the cache, equal to spmvlab_gen */
    TEST_CHECK(spmvlab_set_materialize(&s, 0, path, sizeof path, &err) == 0);
    TEST_CHECK(strncmp(path, cache, strlen(cache)) == 0);
    TEST_CONTAINS(path, "/grid.gen");
    spmvlab_csr A, B;
    /* the recipe regenerates exactly the matrix of the set entry */
    spmvlab_gen_params p;
    memset(&p, 0, sizeof p);
    TEST_CHECK(spmvlab_gen_params_parse(&p, "n=7", &err) == 0);
    if (spmvlab_recipe_read(path, &A, &err) == 0 && spmvlab_gen("stencil2d5", &p, &B, &err) == 0) {
        TEST_CHECK(spmvlab_csr_hash(&A) == spmvlab_csr_hash(&B));
        spmvlab_csr_free(&A);
        spmvlab_csr_free(&B);
    }
    struct stat st1, st2;
    stat(path, &st1);
    TEST_CHECK(spmvlab_set_materialize(&s, 0, again, sizeof again, &err) == 0);
    stat(again, &st2);
    TEST_CHECK(strcmp(path, again) == 0 && st1.st_mtim.tv_nsec == st2.st_mtim.tv_nsec &&
               st1.st_ino == st2.st_ino);
    /* its binary cache was seeded: the first load is a hit */
    spmvlab_load_info info;
    if (spmvlab_matrix_load_ex(path, &A, &info, &err) == 0) {
        TEST_CHECK(info.from_cache == 1);
        spmvlab_csr_free(&A);
    }
    /* file entries: the path, resolved against root */
    TEST_CHECK(spmvlab_set_materialize(&s, 1, path, sizeof path, &err) == 0);
    TEST_CONTAINS(path, "/mats/b.mtx");
    TEST_CHECK(spmvlab_set_materialize(&s, 2, path, sizeof path, &err) == 1 && path[0] == '\0');
    TEST_CONTAINS(err.msg, "optional matrix gone");
    spmvlab_set_free(&s);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 77;
    }
    repository_sets_parse();
    bad_set_files_name_file_and_line();
    set_members_resolve_and_materialise();
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_done("test_gen_set");
}
