/* The corpus (sets/corpus.ini) and its split: the set loads with at least
 * 400 generated members, the small members generate at their target size
 * and load back through the cache, and the tune / held-out split by name
 * is stable and holds about a third out. SPMVLAB_CORPUS_ALL=1 checks every
 * member's size (minutes; the large ones need gigabytes). */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/cache.h"
#include "spmvlab/gen.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/spmvlab-test-corpus-XXXXXX";

/* The target non-zeros a member's name ends with ("...-6e4"), or 0. */
static double target_of(const char *name)
{
    const char *tag = strrchr(name, '-');
    char *end;
    long mant = tag ? strtol(tag + 1, &end, 10) : 0;
    if (!tag || end == tag + 1 || *end != 'e')
        return 0;
    return mant * pow(10, atoi(end + 1));
}

static void corpus_has_400_generated_members(spmvlab_set *s)
{
    int generated = 0, sized = 0;
    for (int i = 0; i < s->count; i++) {
        generated += s->entries[i].kind[0] != '\0';
        sized += target_of(s->entries[i].name) > 0;
    }
    TEST_CHECK(generated >= 400);
    TEST_CHECK(sized >= generated - 20); /* all but the R-MAT graphs name their size */
}

/* Generates member i and checks its size against the target in its name:
 * within a factor of 1.6 and inside the corpus's 10^4 .. 3 * 10^7. */
static void member_has_its_size(const spmvlab_set *s, int i)
{
    const spmvlab_set_entry *e = &s->entries[i];
    spmvlab_csr A;
    spmvlab_err err;
    if (spmvlab_gen(e->kind, &e->params, &A, &err)) {
        fprintf(stderr, "%s: %s\n", e->name, err.msg);
        test_failures++;
        return;
    }
    double target = target_of(e->name), nnz = A.nnz;
    if (!(nnz >= 1e4 && nnz <= 3.1e7 && (target == 0 || (nnz > target / 1.6 && nnz < target * 1.6)))) {
        fprintf(stderr, "%s: %.0f non-zeros for a target of %.0f\n", e->name, nnz, target);
        test_failures++;
    }
    spmvlab_csr_free(&A);
}

/* Materialises member i into the cache and loads it: the matrix read back
 * is the generator's, bit for bit. */
static void member_loads(const spmvlab_set *s, int i)
{
    const spmvlab_set_entry *e = &s->entries[i];
    char path[4096];
    spmvlab_csr direct, loaded;
    spmvlab_err err;
    if (spmvlab_set_materialize(s, i, path, sizeof path, &err) != 0 ||
        spmvlab_matrix_load(path, &loaded, &err) != 0) {
        fprintf(stderr, "%s: %s\n", e->name, err.msg);
        test_failures++;
        return;
    }
    if (spmvlab_gen(e->kind, &e->params, &direct, &err) == 0) {
        TEST_CHECK(spmvlab_csr_hash(&direct) == spmvlab_csr_hash(&loaded));
        spmvlab_csr_free(&direct);
    }
    spmvlab_csr_free(&loaded);
}

static void small_members_generate_and_load(const spmvlab_set *s)
{
    int all = getenv("SPMVLAB_CORPUS_ALL") != NULL, checked = 0;
    for (int i = 0; i < s->count; i++) {
        double target = target_of(s->entries[i].name);
        if (!s->entries[i].kind[0] || (!all && (target == 0 || target > 6e4)))
            continue;
        member_has_its_size(s, i);
        if (checked++ % 4 == 0)
            member_loads(s, i);
    }
    printf("checked the size of %d members\n", checked);
    TEST_CHECK(checked >= 40);
}

static void split_is_stable_and_about_a_third(const spmvlab_set *corpus)
{
    /* Pinned: a change here would move members between the parts. */
    TEST_CHECK(spmvlab_split_part("stencil2d5-s") == SPMVLAB_PART_HELDOUT);
    TEST_CHECK(spmvlab_split_part("stencil3d7-s") == SPMVLAB_PART_TUNE);
    TEST_CHECK(spmvlab_split_part("PGPgiantcompo") == SPMVLAB_PART_HELDOUT);
    TEST_CHECK(spmvlab_split_part("cage10") == SPMVLAB_PART_TUNE);
    /* A reordered copy is in its source's part, never the other one. */
    static const char *const derived[] = {"@rcm", "@degree", "@rcm+call", "@degree+call", "@none"};
    for (size_t k = 0; k < sizeof derived / sizeof *derived; k++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "cage10%s", derived[k]);
        snprintf(b, sizeof b, "PGPgiantcompo%s", derived[k]);
        TEST_CHECK(spmvlab_split_part(a) == SPMVLAB_PART_TUNE);
        TEST_CHECK(spmvlab_split_part(b) == SPMVLAB_PART_HELDOUT);
    }
    int held = 0;
    for (int i = 0; i < 6000; i++) {
        char name[32];
        snprintf(name, sizeof name, "m%d", i);
        held += spmvlab_split_part(name) == SPMVLAB_PART_HELDOUT;
    }
    TEST_CHECK(held > 1800 && held < 2200); /* 2000 expected, sd 37 */
    /* keep_part splits the corpus into two disjoint parts covering it. */
    spmvlab_set tune, out;
    spmvlab_err err;
    if (spmvlab_set_load(corpus->file, &tune, &err) || spmvlab_set_load(corpus->file, &out, &err))
        return;
    spmvlab_set_keep_part(&tune, SPMVLAB_PART_TUNE);
    spmvlab_set_keep_part(&out, SPMVLAB_PART_HELDOUT);
    TEST_CHECK(tune.count + out.count == corpus->count);
    TEST_CHECK(out.count > corpus->count / 4 && out.count < corpus->count * 2 / 5);
    for (int i = 0; i < out.count; i++)
        TEST_CHECK(spmvlab_split_part(out.entries[i].name) == SPMVLAB_PART_HELDOUT);
    spmvlab_set_free(&tune);
    spmvlab_set_free(&out);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 77;
    }
    setenv("SPMVLAB_CACHE_DIR", tmpdir, 1);
    spmvlab_set corpus;
    spmvlab_err err;
    if (spmvlab_set_load("corpus", &corpus, &err)) {
        fprintf(stderr, "corpus: %s\n", err.msg);
        return 1;
    }
    corpus_has_400_generated_members(&corpus);
    small_members_generate_and_load(&corpus);
    split_is_stable_and_about_a_third(&corpus);
    spmvlab_set_free(&corpus);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_done("test_corpus");
}
