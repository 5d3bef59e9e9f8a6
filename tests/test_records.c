/*
 * Honest records (issue 25, part 3): refusals counted apart from wrong and
 * failed in every summary; skipped and unreadable inputs as rows with their
 * status, counted in the summary; the plugin's file, version and hash in
 * every row; a --plugin-dir plugin that shadows an in-tree one refused
 * unless named with its folder; one name, one plugin file in a run; check
 * taking DIR/NAME; an installed copy of one's own plugin not "in-tree".
 * Needs SPMVLAB_HOST and SPMVLAB_DATA_DIR.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "status.h"
#include "summary.h"
#include "testlib_cli.h"
#include "testlib_rows.h"

/* FNV-1a 64 of a file, computed here independently of the registry. */
static int fnv1a_file(const char *path, char hex[17])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint64_t h = 0xcbf29ce484222325ull;
    int ch;
    while ((ch = fgetc(f)) != EOF)
        h = (h ^ (unsigned char)ch) * 0x100000001b3ull;
    fclose(f);
    snprintf(hex, 17, "%016llx", (unsigned long long)h);
    return 0;
}

/* Each status lands in its own class; an unknown one is never a success. */
static void statuses_fall_into_their_classes(void)
{
    TEST_CHECK(run_status_class("ok") == RUN_CLASS_OK);
    TEST_CHECK(run_status_class("wrong") == RUN_CLASS_WRONG);
    TEST_CHECK(run_status_class("limit") == RUN_CLASS_REFUSED);
    TEST_CHECK(run_status_class("unsupported") == RUN_CLASS_REFUSED);
    TEST_CHECK(run_status_class("crash") == RUN_CLASS_FAILED);
    TEST_CHECK(run_status_class("oom") == RUN_CLASS_FAILED);
    TEST_CHECK(run_status_class("device-fault") == RUN_CLASS_FAILED);
    TEST_CHECK(run_status_class("skipped") == RUN_CLASS_SKIPPED);
    TEST_CHECK(run_status_class("unreadable") == RUN_CLASS_UNREADABLE);
    TEST_CHECK(!run_status_fails_run("unreadable") && !run_status_fails_run("limit"));
    TEST_CHECK(run_status_fails_run("wrong") && run_status_fails_run("crash"));
}

/* The summary keeps refusals apart and counts each input not run once, even
 * when a resumed run wrote its row twice, and not once it was measured. */
static void summary_counts_refusals_and_inputs(void)
{
    run_rows rows = {0};
    const char *cells[][3] = {{"a", "dia", "limit"}, {"b", "dia", "unsupported"}, {"c", "dia", "ok"},
                              {"a", "csr", "ok"},    {"b", "csr", "wrong"},       {"c", "csr", "crash"},
                              {"d", "", "skipped"},  {"d", "", "skipped"},        {"e", "", "unreadable"},
                              {"c", "", "unreadable"}};
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
        run_row r = test_row(cells[i][0], cells[i][1], cells[i][2]);
        TEST_CHECK(run_rows_push(&rows, &r) == 0);
    }
    run_summary s;
    TEST_CHECK(summary_build(&rows, "", 1, &s) == 0);
    TEST_CHECK(s.ninst == 2 && s.nmat == 3);
    for (int k = 0; k < s.ninst; k++) {
        const sum_instance *si = &s.inst[k];
        if (!strcmp(si->instance, "dia"))
            TEST_CHECK(si->cells == 3 && si->ok == 1 && si->refused == 2 && si->wrong == 0 && si->failed == 0);
        else
            TEST_CHECK(si->cells == 3 && si->ok == 1 && si->refused == 0 && si->wrong == 1 && si->failed == 1);
    }
    TEST_CHECK(s.ninputs == 1 && s.inputs[0].skipped == 1 && s.inputs[0].unreadable == 1);
    summary_free(&s);
    run_rows_free(&rows);
}

/* A run over a good, a complex and a malformed file: a row for each input
 * that did not run, counted in the summary CSV and the JSON; exit 2 for the
 * unreadable one, the good matrix's rows kept. */
static void skipped_and_unreadable_inputs_are_rows(void)
{
    char a[8192], p[600];
    const char *corpus = getenv("SPMVLAB_TESTS_DIR");
    if (!corpus)
        return;
    snprintf(a, sizeof a, "run -p csr -o %s/in.csv --json %s/in.json %s/lp_e226.mtx.gz %s/fuzz/corpus/mtx/complex.mtx "
             "%s/fuzz/corpus/mtx/above.mtx", tmp, tmp, data, corpus, corpus);
    TEST_CHECK(spmvlab(a) == 2);
    snprintf(p, sizeof p, "%s/in.csv", tmp);
    csv c;
    TEST_CHECK(csv_load(p, &c) == 0);
    int skipped = 0, unreadable = 0, ok = 0;
    for (int r = 1; r < c.nrec; r++) {
        const char *st = cell(&c, r, "status");
        if (!strcmp(st, "skipped") || !strcmp(st, "unreadable")) {
            TEST_CHECK(!cell(&c, r, "instance")[0] && !cell(&c, r, "plugin")[0] && isnan(num(&c, r, "nnz")));
            TEST_CHECK(cell(&c, r, "message")[0] && cell(&c, r, "source")[0] && cell(&c, r, "commit")[0]);
        }
        if (!strcmp(st, "skipped")) {
            skipped++;
            TEST_CHECK(!strcmp(cell(&c, r, "matrix"), "complex"));
            TEST_CONTAINS(cell(&c, r, "message"), "complex");
        } else if (!strcmp(st, "unreadable")) {
            unreadable++;
            TEST_CHECK(!strcmp(cell(&c, r, "matrix"), "above"));
            TEST_CONTAINS(cell(&c, r, "message"), "above the diagonal");
        } else {
            ok += !strcmp(st, "ok");
        }
    }
    TEST_CHECK(skipped == 1 && unreadable == 1 && ok == 1);
    csv_free(&c);
    snprintf(p, sizeof p, "%s/in-summary.csv", tmp);
    TEST_CHECK(csv_load(p, &c) == 0);
    TEST_CHECK(c.nrec == 2 && atoi(cell(&c, 1, "skipped_inputs")) == 1 && atoi(cell(&c, 1, "unreadable_inputs")) == 1);
    csv_free(&c);
    TEST_CONTAINS(out_text, "inputs not run (f64): 1 skipped, 1 unreadable");
    snprintf(p, sizeof p, "%s/in.json", tmp);
    char *json = slurp(p);
    TEST_CHECK(json && json_value(ws(json)) != NULL);
    if (json)
        TEST_CONTAINS(json, "\"inputs_not_run\": [\n      {\"dtype\": \"f64\", \"skipped\": 1, \"unreadable\": 1}");
    free(json);
}

/* dia's fill guard refuses cleanly: the summary counts those cells as
 * refused, never as failed, in the table, the CSV and the JSON. */
static void refusals_are_counted_apart(void)
{
    char a[8192], p[600];
    snprintf(a, sizeof a, "run -p csr,dia -o %s/ref.csv --json %s/ref.json %s", tmp, tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    snprintf(p, sizeof p, "%s/ref.csv", tmp);
    csv c;
    TEST_CHECK(csv_load(p, &c) == 0);
    int refused = 0, dia = 0;
    for (int r = 1; r < c.nrec; r++)
        if (!strcmp(cell(&c, r, "instance"), "dia")) {
            dia++;
            refused += run_status_class(cell(&c, r, "status")) == RUN_CLASS_REFUSED;
        }
    csv_free(&c);
    TEST_CHECK(dia == bundled_count() && refused >= 1);
    snprintf(p, sizeof p, "%s/ref-summary.csv", tmp);
    TEST_CHECK(csv_load(p, &c) == 0);
    for (int r = 1; r < c.nrec; r++)
        if (!strcmp(cell(&c, r, "instance"), "dia"))
            TEST_CHECK(atoi(cell(&c, r, "refused")) == refused && atoi(cell(&c, r, "failed")) == 0 &&
                       atoi(cell(&c, r, "ok")) == dia - refused);
    csv_free(&c);
    char line[128], okall[24];
    snprintf(okall, sizeof okall, "%d/%d", dia - refused, dia);
    snprintf(line, sizeof line, "%7s %6d %7d %6d", okall, 0, refused, 0);
    TEST_CONTAINS(out_text, line);
    snprintf(p, sizeof p, "%s/ref.json", tmp);
    char *json = slurp(p);
    snprintf(line, sizeof line, "\"instance\": \"dia\", \"cells\": %d, \"ok\": %d, \"wrong\": 0, \"refused\": %d, "
             "\"failed\": 0", dia, dia - refused, refused);
    TEST_CHECK(json != NULL);
    if (json)
        TEST_CONTAINS(json, line);
    free(json);
}

/* Every row names the plugin file that ran, its version and its hash. */
static void rows_record_the_plugin_build(void)
{
    char a[8192], p[600], want[17];
    snprintf(a, sizeof a, "run -p csr -o %s/build.csv %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    snprintf(p, sizeof p, "%s/build.csv", tmp);
    csv c;
    TEST_CHECK(csv_load(p, &c) == 0 && c.nrec == 2);
    const char *file = cell(&c, 1, "plugin_file");
    TEST_CHECK(strstr(file, "/libspmvlab_csr.so") != NULL);
    TEST_CHECK(fnv1a_file(file, want) == 0 && !strcmp(cell(&c, 1, "plugin_hash"), want));
    TEST_CHECK(cell(&c, 1, "plugin_version")[0] != '\0');
    csv_free(&c);
}

/* A copy of the in-tree csr in a --plugin-dir is refused with a sentence;
 * named with its folder it runs, and its row names the copy. */
static void a_shadowing_plugin_needs_its_folder(void)
{
    char a[8192], p[600];
    snprintf(a, sizeof a, "sh -c 'mkdir -p %s/mine && cp \"$(dirname %s)\"/../plugins/libspmvlab_csr.so %s/mine/'",
             tmp, host, tmp);
    if (system(a) != 0) {
        fprintf(stderr, "the in-tree csr plugin was not found beside the program: shadowing checks skipped\n");
        return;
    }
    snprintf(a, sizeof a, "run --plugin-dir %s/mine -p csr %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "has the name of the in-tree plugin");
    TEST_CONTAINS(err_text, "/mine/csr'");
    snprintf(a, sizeof a, "run --plugin-dir %s/mine -p %s/mine/csr -o %s/mine.csv %s/lp_e226.mtx.gz", tmp, tmp, tmp,
             data);
    TEST_CHECK(spmvlab(a) == 0);
    snprintf(p, sizeof p, "%s/mine.csv", tmp);
    csv c;
    TEST_CHECK(csv_load(p, &c) == 0 && c.nrec == 2);
    TEST_CHECK(!strcmp(cell(&c, 1, "status"), "ok") && !strcmp(cell(&c, 1, "plugin"), "csr"));
    TEST_CONTAINS(cell(&c, 1, "plugin_file"), "/mine/libspmvlab_csr.so");
    csv_free(&c);
    /* One name, one plugin file in a run, in either order of -p. */
    snprintf(a, sizeof a, "run -p %s/mine/csr,csr -o %s/both.csv %s/lp_e226.mtx.gz", tmp, tmp, data);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "one name, one plugin file in a run");
    TEST_CONTAINS(err_text, "/mine/libspmvlab_csr.so");
    snprintf(a, sizeof a, "run -p csr,%s/mine/csr -o %s/both.csv %s/lp_e226.mtx.gz", tmp, tmp, data);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "one name, one plugin file in a run");
    /* check takes what run -p takes: DIR/NAME too */
    snprintf(a, sizeof a, "check %s/mine/csr --no-edge-cases --matrix %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CONTAINS(out_text, "/mine/libspmvlab_csr.so");
    TEST_CONTAINS(out_text, "PASSED");
}

/* "In-tree" is the build's own plugins: a copy of one's own plugin in the
 * install folder beside the program (cmake --install) does not make the
 * build folder's file a shadow of it. */
static void an_installed_plugin_is_not_in_tree(void)
{
    const char *tests = getenv("SPMVLAB_TEST_PLUGIN_DIR");
    char a[8192];
    if (!tests) {
        fprintf(stderr, "SPMVLAB_TEST_PLUGIN_DIR is not set: the installed-copy check is skipped\n");
        return;
    }
    snprintf(a, sizeof a, "sh -c 'mkdir -p %s/inst/bin %s/inst/lib/spmvlab %s/myfmt && cp %s %s/inst/bin/spmvlab && "
             "cp %s/libspmvlab_probe.so %s/inst/lib/spmvlab/ && cp %s/libspmvlab_probe.so %s/myfmt/'",
             tmp, tmp, tmp, host, tmp, tests, tmp, tests, tmp);
    TEST_CHECK(system(a) == 0);
    snprintf(a, sizeof a, "%s/inst/bin/spmvlab check probe --plugin-dir %s/myfmt --no-edge-cases --matrix "
             "%s/lp_e226.mtx.gz >%s/out 2>&1", tmp, tmp, data, tmp);
    int st = system(a);
    snprintf(a, sizeof a, "%s/out", tmp);
    char *out = slurp(a);
    TEST_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    TEST_CHECK(out && strstr(out, "/myfmt/libspmvlab_probe.so") && !strstr(out, "in-tree"));
    if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0))
        fprintf(stderr, "check of the build folder's probe beside an installed copy:\n%s\n", out ? out : "");
    free(out);
}

int main(void)
{
    statuses_fall_into_their_classes();
    summary_counts_refusals_and_inputs();
    if (cli_setup()) {
        fprintf(stderr, "SPMVLAB_HOST and SPMVLAB_DATA_DIR are needed: the run checks are skipped\n");
        return test_done("records");
    }
    skipped_and_unreadable_inputs_are_rows();
    refusals_are_counted_apart();
    rows_record_the_plugin_build();
    a_shadowing_plugin_needs_its_folder();
    an_installed_plugin_is_not_in_tree();
    cli_cleanup("records");
    return test_done("records");
}
