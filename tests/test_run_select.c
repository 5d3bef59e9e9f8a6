/*
 * A selector instance of `spmvlab run` ([auto] plugin = select) over the
 * corpus of tests/select/, without a GPU: each row runs the instance the
 * selector library chooses for its matrix (a corpus member never on its
 * own evidence), under the selector's label, with the cost of the choice
 * and the prediction; every row names the corpus part of its matrix; a
 * results file that cannot be read stops the run before anything runs.
 * Needs SPMVLAB_HOST, SPMVLAB_DATA_DIR and SPMVLAB_TESTS_DIR.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "select.h"
#include "spmvlab/cache.h"
#include "spmvlab/gen.h"
#include "testlib_cli.h"

static char corpus_dir[4096];

/* What the selector library chooses for a fixture matrix, labelled self. */
static int expected_choice(const char *file, const char *self, select_choice *ch, const select_corpus *c)
{
    char path[4200];
    spmvlab_csr A;
    spmvlab_features f;
    spmvlab_err err;
    snprintf(path, sizeof path, "%s/%s", corpus_dir, file);
    int rc = spmvlab_matrix_load(path, &A, &err);
    if (rc == 0) {
        rc = spmvlab_features_of(&A, &f, &err);
        spmvlab_csr_free(&A);
    }
    if (rc == 0)
        rc = select_choose(&f, c, 3, self, ch, &err);
    if (rc)
        fprintf(stderr, "%s: %s\n", path, err.msg);
    TEST_CHECK(rc == 0);
    return rc;
}

/* The row of matrix in the results, or -1. */
static int row_of(const csv *c, const char *matrix)
{
    for (int r = 1; r < c->nrec; r++)
        if (!strcmp(cell(c, r, "matrix"), matrix))
            return r;
    return -1;
}

static void check_row(const csv *out, const char *matrix, const select_choice *ch)
{
    int r = row_of(out, matrix);
    TEST_CHECK(r > 0);
    if (r < 0)
        return;
    TEST_CHECK(!strcmp(cell(out, r, "instance"), "auto"));
    TEST_CHECK(!strcmp(cell(out, r, "status"), "ok"));
    TEST_CHECK(!strcmp(cell(out, r, "plugin"), ch->chosen.plugin));
    /* every option of the chosen instance, each as the corpus row set it */
    char opts[512];
    snprintf(opts, sizeof opts, "%s", ch->chosen.options);
    for (char *save = NULL, *o = strtok_r(opts, " ", &save); o; o = strtok_r(NULL, " ", &save))
        TEST_CONTAINS(cell(out, r, "options"), o);
    double tune_ms = num(out, r, "tune_ms");
    TEST_CHECK(isfinite(tune_ms) && tune_ms >= 0);
    TEST_CHECK(num(out, r, "tune_spmvs") == 0); /* nothing timed without a GPU */
    char note[128];
    if (ch->covered == ch->k)
        snprintf(note, sizeof note, "select: predicted %.3gx over %d neighbours", ch->predicted, ch->k);
    else
        snprintf(note, sizeof note, "select: predicted %.3gx over %d of %d neighbours", ch->predicted, ch->covered,
                 ch->k);
    TEST_CHECK(!strncmp(cell(out, r, "message"), note, strlen(note)));
    TEST_CHECK(!strcmp(cell(out, r, "part"), spmvlab_part_name(spmvlab_split_part(matrix))));
}

static void run_records_the_choice(const select_corpus *c)
{
    char ini[5000], a[20000], out_path[600];
    snprintf(ini, sizeof ini, "[auto]\nplugin = select\nresults = %s/results.csv\nk = 3\n", corpus_dir);
    write_file("auto.ini", ini);
    snprintf(out_path, sizeof out_path, "%s/auto.csv", tmp);
    snprintf(a, sizeof a, "run -c %s/auto.ini -p auto,csr -o %s %s/query-band.gen %s/query-powerlaw.gen %s/band-a.gen",
             tmp, out_path, corpus_dir, corpus_dir, corpus_dir);
    TEST_CHECK(spmvlab(a) == 0);
    static char table[sizeof out_text];
    memcpy(table, out_text, sizeof table);
    csv out;
    TEST_CHECK(csv_load(out_path, &out) == 0);
    TEST_CHECK(out.nrec == 1 + 3 * 2);
    /* resumed, no cell runs again: the selector's rows match whatever they chose */
    char resume[20800];
    snprintf(resume, sizeof resume, "%s --resume %s", a, out_path);
    char *o = strstr(resume, " -o ");
    memset(o, ' ', 4 + strlen(out_path)); /* the same command, writing through --resume */
    TEST_CHECK(spmvlab(resume) == 0);
    TEST_CHECK(rows_of(out_path, "query-band", NULL) == 2);
    select_choice band, powerlaw, member, as_evidence;
    if (expected_choice("query-band.gen", "query-band", &band, c) == 0) {
        check_row(&out, "query-band", &band);
        /* the table's selector row says what it ran */
        char line[800];
        snprintf(line, sizeof line, "\n    select: chose %s (", band.chosen.plugin);
        TEST_CONTAINS(table, line);
        TEST_CONTAINS(table, "); predicted ");
    }
    if (expected_choice("query-powerlaw.gen", "query-powerlaw", &powerlaw, c) == 0)
        check_row(&out, "query-powerlaw", &powerlaw);
    /* band-a is in the corpus: never its own evidence */
    if (expected_choice("band-a.gen", "band-a", &member, c) == 0 &&
        expected_choice("band-a.gen", NULL, &as_evidence, c) == 0) {
        TEST_CHECK(strcmp(c->member[as_evidence.neighbour[0]].matrix, "band-a") == 0);
        for (int j = 0; j < member.k; j++)
            TEST_CHECK(strcmp(c->member[member.neighbour[j]].matrix, "band-a") != 0);
        check_row(&out, "band-a", &member);
    }
    /* every row, the selector's and the others, names its part */
    for (int r = 1; r < out.nrec; r++)
        TEST_CHECK(!strcmp(cell(&out, r, "part"), spmvlab_part_name(spmvlab_split_part(cell(&out, r, "matrix")))));
    csv_free(&out);
}

/* tests/select/refusing.csv: the corpus with dia at max_diags=1, still the
 * fastest on the bands. With 5 neighbours (two power laws refuse it) sell
 * is built beside it; the query band refuses dia here too, so the
 * selector's row is sell's, ok, and says there were two candidates. */
static void a_refused_candidate_gives_way_to_the_next(void)
{
    char ini[5000], a[20000], out_path[600];
    snprintf(ini, sizeof ini, "[auto]\nplugin = select\nresults = %s/refusing.csv\nk = 5\n", corpus_dir);
    write_file("refusing.ini", ini);
    snprintf(out_path, sizeof out_path, "%s/refusing-out.csv", tmp);
    snprintf(a, sizeof a, "run -c %s/refusing.ini -p auto -o %s %s/query-band.gen", tmp, out_path, corpus_dir);
    TEST_CHECK(spmvlab(a) == 0);
    csv out;
    if (csv_load(out_path, &out) != 0) {
        test_failures++;
        return;
    }
    int r = row_of(&out, "query-band");
    TEST_CHECK(out.nrec == 2 && r == 1);
    if (r == 1) {
        TEST_CHECK(!strcmp(cell(&out, r, "instance"), "auto"));
        TEST_CHECK(!strcmp(cell(&out, r, "status"), "ok"));
        TEST_CHECK(!strcmp(cell(&out, r, "plugin"), "sell"));
        TEST_CONTAINS(cell(&out, r, "message"), "over 3 of 5 neighbours; the fastest accepted of 2 candidates");
        TEST_CHECK(num(&out, r, "tune_ms") >= 0);
    }
    csv_free(&out);
}

static void bad_results_stop_the_run(void)
{
    char a[12000], out_path[600];
    write_file("missing.ini", "[auto]\nplugin = select\nresults = no-such-results.csv\n");
    snprintf(out_path, sizeof out_path, "%s/missing.csv", tmp);
    snprintf(a, sizeof a, "run -c %s/missing.ini -p auto -o %s %s/query-band.gen", tmp, out_path, corpus_dir);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "spmvlab run: selector instance auto: cannot open no-such-results.csv");
    TEST_CHECK(count(err_text, "\n") == 1);
    struct stat sb;
    TEST_CHECK(stat(out_path, &sb) != 0); /* nothing was measured, so nothing written */
}

int main(void)
{
    const char *tests = getenv("SPMVLAB_TESTS_DIR");
    if (cli_setup() || !tests) {
        fprintf(stderr, "SPMVLAB_HOST, SPMVLAB_DATA_DIR and SPMVLAB_TESTS_DIR are needed: skipped\n");
        return 77;
    }
    snprintf(corpus_dir, sizeof corpus_dir, "%s/select", tests);
    select_corpus c = {0};
    char results[4200];
    spmvlab_err err;
    snprintf(results, sizeof results, "%s/results.csv", corpus_dir);
    if (select_corpus_open(results, NULL, "f64", -1, &c, &err)) {
        fprintf(stderr, "corpus: %s\n", err.msg);
        return 1;
    }
    run_records_the_choice(&c);
    a_refused_candidate_gives_way_to_the_next();
    bad_results_stop_the_run();
    select_corpus_free(&c);
    cli_cleanup("run_select");
    return test_done("run_select");
}
