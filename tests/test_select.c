/* The selector (host/select): from the small results file in
 * tests/select/ (bands where dia wins, power laws where dia is refused and
 * sell wins), the nearest members decide, deterministically, and the
 * prediction is the geomean of the chosen instance over them. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"
#include "spmvlab/cache.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/spmvlab-test-select-XXXXXX";
static char results[4096], features[4200];

static int load_corpus(select_corpus *c, int reversed, int only_part)
{
    run_rows rows = {0};
    spmvlab_err err;
    int rc = run_rows_read(results, &rows, NULL, &err);
    for (int i = 0; rc == 0 && reversed && i < rows.n / 2; i++) {
        run_row t = rows.v[i];
        rows.v[i] = rows.v[rows.n - 1 - i];
        rows.v[rows.n - 1 - i] = t;
    }
    if (rc == 0)
        rc = select_corpus_from_rows(&rows, "f64", only_part, c, &err);
    if (rc == 0)
        rc = select_corpus_features(c, results, features, &err);
    if (rc)
        fprintf(stderr, "corpus: %s\n", err.msg);
    TEST_CHECK(rc == 0);
    run_rows_free(&rows);
    return rc;
}

static int features_of(const char *file, spmvlab_features *f)
{
    char path[4200];
    spmvlab_csr A;
    spmvlab_err err;
    snprintf(path, sizeof path, "%s/select/%s", getenv("SPMVLAB_TESTS_DIR"), file);
    if (spmvlab_matrix_load(path, &A, &err)) {
        fprintf(stderr, "%s: %s\n", path, err.msg);
        test_failures++;
        return -1;
    }
    int rc = spmvlab_features_of(&A, f, &err);
    spmvlab_csr_free(&A);
    return rc;
}

/* The geomean speedup of instance over the members whose label starts
 * with prefix, from the corpus's table. */
static double geomean_of(const select_corpus *c, const char *instance, const char *prefix)
{
    double logs = 0;
    int n = 0;
    for (int i = 0; i < c->instances; i++)
        for (int m = 0; m < c->members && strcmp(c->instance[i].instance, instance) == 0; m++)
            if (strncmp(c->member[m].matrix, prefix, strlen(prefix)) == 0) {
                logs += log(c->member[m].speedup[i]);
                n++;
            }
    return n ? exp(logs / n) : NAN;
}

static void a_band_gets_dia_and_a_power_law_gets_sell(const select_corpus *c)
{
    spmvlab_features band, pl;
    select_choice ch;
    spmvlab_err err;
    if (features_of("query-band.gen", &band) || features_of("query-powerlaw.gen", &pl))
        return;
    TEST_CHECK(select_choose(&band, c, 3, NULL, &ch, &err) == 0);
    TEST_CHECK(strcmp(ch.chosen.instance, "dia") == 0 && strcmp(ch.chosen.options, "max_fill=3") == 0);
    TEST_CHECK(fabs(ch.predicted - geomean_of(c, "dia", "band-")) < 1e-12);
    for (int j = 0; j < ch.k; j++)
        TEST_CONTAINS(c->member[ch.neighbour[j]].matrix, "band-");
    TEST_CHECK(select_choose(&pl, c, 3, NULL, &ch, &err) == 0);
    TEST_CHECK(strcmp(ch.chosen.plugin, "sell") == 0 && ch.covered == 3);
    /* the f32 rows (speedup 9) do not count for f64 */
    TEST_CHECK(fabs(ch.predicted - geomean_of(c, "sell", "pl-")) < 1e-12);
    /* with 5 neighbours the power laws, where dia is refused, join the band's:
     * an instance measured ok on all of them wins over one that failed on two */
    TEST_CHECK(select_choose(&band, c, 5, NULL, &ch, &err) == 0);
    TEST_CHECK(strcmp(ch.chosen.instance, "sell") == 0 && ch.covered == 5);
}

static void the_choice_is_deterministic(const select_corpus *c)
{
    spmvlab_features f;
    select_choice a, b, r;
    spmvlab_err err;
    select_corpus reversed;
    if (features_of("query-powerlaw.gen", &f) || load_corpus(&reversed, 1, -1))
        return;
    TEST_CHECK(select_choose(&f, c, 4, NULL, &a, &err) == 0);
    TEST_CHECK(select_choose(&f, c, 4, NULL, &b, &err) == 0);
    TEST_CHECK(select_choose(&f, &reversed, 4, NULL, &r, &err) == 0);
    TEST_CHECK(a.index == b.index && a.predicted == b.predicted);
    TEST_CHECK(strcmp(a.chosen.instance, r.chosen.instance) == 0 && a.predicted == r.predicted);
    for (int j = 0; j < a.k; j++) {
        TEST_CHECK(a.neighbour[j] == b.neighbour[j]);
        TEST_CHECK(strcmp(c->member[a.neighbour[j]].matrix, reversed.member[r.neighbour[j]].matrix) == 0);
    }
    select_corpus_free(&reversed);
}

static void a_member_is_not_its_own_evidence(const select_corpus *c)
{
    spmvlab_features f;
    select_choice ch;
    spmvlab_err err;
    if (features_of("pl-a.gen", &f))
        return;
    TEST_CHECK(select_choose(&f, c, 3, NULL, &ch, &err) == 0);
    TEST_CHECK(strcmp(c->member[ch.neighbour[0]].matrix, "pl-a") == 0 && ch.distance[0] < 1e-9);
    TEST_CHECK(select_choose(&f, c, 3, "pl-a", &ch, &err) == 0);
    for (int j = 0; j < ch.k; j++)
        TEST_CHECK(strcmp(c->member[ch.neighbour[j]].matrix, "pl-a") != 0);
}

static void features_file_is_written_then_read(const select_corpus *c)
{
    FILE *f = fopen(features, "r");
    int lines = 0;
    for (int ch; f && (ch = fgetc(f)) != EOF;)
        lines += ch == '\n';
    if (f)
        fclose(f);
    TEST_CHECK(lines == c->members + 1);
    select_corpus again; /* now read from the file, not computed */
    if (load_corpus(&again, 0, -1))
        return;
    for (int m = 0; m < c->members; m++)
        for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++)
            TEST_CHECK(fabs(again.member[m].z[d] - c->member[m].z[d]) < 1e-9);
    select_corpus_free(&again);
}

static void a_part_keeps_only_its_members(void)
{
    select_corpus part;
    if (load_corpus(&part, 0, SPMVLAB_PART_TUNE))
        return;
    TEST_CHECK(part.members > 0 && part.members < 6);
    for (int m = 0; m < part.members; m++)
        TEST_CHECK(spmvlab_split_part(part.member[m].matrix) == SPMVLAB_PART_TUNE);
    select_corpus_free(&part);
}

int main(void)
{
    if (!getenv("SPMVLAB_TESTS_DIR") || !mkdtemp(tmpdir))
        return 77;
    setenv("SPMVLAB_CACHE_DIR", tmpdir, 1);
    snprintf(results, sizeof results, "%s/select/results.csv", getenv("SPMVLAB_TESTS_DIR"));
    snprintf(features, sizeof features, "%s/features.csv", tmpdir);
    select_corpus c;
    if (load_corpus(&c, 0, -1) == 0) {
        TEST_CHECK(c.members == 6 && c.instances == 4);
        a_band_gets_dia_and_a_power_law_gets_sell(&c);
        the_choice_is_deterministic(&c);
        a_member_is_not_its_own_evidence(&c);
        features_file_is_written_then_read(&c);
        a_part_keeps_only_its_members();
        select_corpus_free(&c);
    }
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_done("test_select");
}
