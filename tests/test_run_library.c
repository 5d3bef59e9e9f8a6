/*
 * The run engine as a library (spmvlab_run), driven in this process: a
 * group of instances on one matrix ends as rows whose statuses come from
 * the trial's values; an input the dtype cannot hold is "unsupported"; the
 * identity is built once per group; the core's trial engine hands back
 * result records; the status names round-trip; and `run` itself writes its CSV when called as
 * a function. CPU mode (spmv_host), so it runs in CI.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit_codes.h"
#include "run_driver.h"
#include "run_engine.h"
#include "status.h"
#include "testlib.h"

typedef struct fixture {
    spmvlab_registry *reg;
    spmvlab_config cfg;
    spmvlab_instance_spec *specs;
    int nspecs;
    spmvlab_runtime rt;
    run_settings s;
    run_meta meta;
} fixture;

static int fixture_open(fixture *f, const char *labels)
{
    memset(f, 0, sizeof *f);
    spmvlab_err err = {{0}};
    f->reg = spmvlab_registry_new();
    const char *bad = getenv("SPMVLAB_TEST_PLUGIN_DIR");
    if (bad)
        spmvlab_registry_add_dir(f->reg, bad);
    f->nspecs = spmvlab_config_resolve(&f->cfg, f->reg, labels, &f->specs, &err);
    if (f->nspecs < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    spmvlab_runtime_open(&f->rt, 0, 0, &err);
    f->s.seed = 7;
    run_meta_init(&f->meta, "test_run_library");
    run_meta_device(&f->meta, &f->rt);
    return 0;
}

static void fixture_close(fixture *f)
{
    spmvlab_instance_specs_free(f->specs, f->nspecs > 0 ? f->nspecs : 0);
    spmvlab_config_free(&f->cfg);
    spmvlab_runtime_close(&f->rt);
    spmvlab_registry_free(f->reg);
}

/* Runs every spec of f on A in f64 and hands the members back (caller
 * frees them with group_release and free). */
static run_member *run_group_of(fixture *f, const spmvlab_csr *A, const char *name, run_group *g,
                                run_identity *id)
{
    run_member *m = calloc((size_t)f->nspecs, sizeof *m);
    for (int i = 0; i < f->nspecs; i++) {
        m[i].spec = &f->specs[i];
        m[i].emit = 1;
    }
    run_group init = {.rt = &f->rt, .s = &f->s, .meta = &f->meta, .matrix = name, .source = name, .A = A,
                      .dtype = SPMVLAB_F64, .m = m, .n = f->nspecs};
    *g = init;
    group_identity(g, id);
    g->identity = id;
    TEST_CHECK(group_execute(g) == 0);
    return m;
}

static void group_gives_ok_and_wrong_by_value(void)
{
    fixture f;
    spmvlab_csr A;
    if (fixture_open(&f, "csr,bad_wrong") || test_load_csr("lp_e226.mtx.gz", &A)) {
        TEST_CHECK(0);
        return;
    }
    run_group g;
    run_identity id;
    run_member *m = run_group_of(&f, &A, "lp_e226", &g, &id);
    const run_row *ok = &m[0].row, *wrong = &m[1].row;
    TEST_CHECK(strcmp(ok->status, "ok") == 0);
    TEST_CHECK(ok->error_ratio <= 1.0);
    TEST_CHECK(ok->device_bytes > 0);
    TEST_CHECK(strcmp(ok->value_storage, "f64") == 0);
    TEST_CHECK(strcmp(wrong->status, "wrong") == 0);
    TEST_CONTAINS(wrong->message, "spmv_host: ");
    TEST_CHECK(run_status_is_failure(run_status_outcome(wrong->status)));
    TEST_CHECK(!run_status_is_failure(run_status_outcome(ok->status)));
    group_release(&g);
    free(m);
    spmvlab_csr_free(&A);
    fixture_close(&f);
}

static void input_with_nan_is_unsupported(void)
{
    fixture f;
    if (fixture_open(&f, "csr")) {
        TEST_CHECK(0);
        return;
    }
    static const int32_t ri[] = {0, 1, 2}, ci[] = {0, 1, 2};
    const double v[] = {1.0, NAN, 2.0};
    spmvlab_csr A;
    spmvlab_err err = {{0}};
    TEST_CHECK(spmvlab_csr_build(&A, 3, 3, 3, ri, ci, v, &err) == 0);
    run_group g;
    run_identity id;
    run_member *m = run_group_of(&f, &A, "nan3", &g, &id);
    TEST_CHECK(strcmp(m[0].row.status, "unsupported") == 0);
    TEST_CONTAINS(m[0].row.message, "NaN or Inf");
    group_release(&g);
    free(m);
    spmvlab_csr_free(&A);
    fixture_close(&f);
}

/* The identity is built once per group and every member's row carries it
 * beside its own instance columns. */
static void identity_once_per_group(void)
{
    fixture f;
    spmvlab_csr A;
    if (fixture_open(&f, "csr,coo") || test_load_csr("lp_e226.mtx.gz", &A)) {
        TEST_CHECK(0);
        return;
    }
    run_group g;
    run_identity id;
    run_member *m = run_group_of(&f, &A, "lp_e226", &g, &id);
    TEST_CHECK(strcmp(id.row.matrix, "lp_e226") == 0);
    TEST_CHECK(strcmp(id.row.dtype, "f64") == 0);
    TEST_CHECK(id.row.nnz == A.nnz && id.row.min_bytes > 0);
    TEST_CHECK(id.row.instance[0] == '\0');
    for (int i = 0; i < 2; i++) {
        TEST_CHECK(strcmp(m[i].row.matrix, "lp_e226") == 0);
        TEST_CHECK(m[i].row.min_bytes == id.row.min_bytes);
        TEST_CHECK(strcmp(m[i].row.seed, id.row.seed) == 0);
        TEST_CHECK(strcmp(m[i].row.instance, f.specs[i].label) == 0);
        TEST_CHECK(strcmp(m[i].row.plugin, f.specs[i].plugin->desc->name) == 0);
    }
    group_release(&g);
    free(m);
    spmvlab_csr_free(&A);
    fixture_close(&f);
}

/* The core's trial engine hands back one result record per member: the
 * conversion's facts, the check's outcome and sentence; no samples
 * without a GPU. */
static void trial_engine_hands_back_records(void)
{
    fixture f;
    spmvlab_csr A;
    if (fixture_open(&f, "csr,bad_wrong") || test_load_csr("lp_e226.mtx.gz", &A)) {
        TEST_CHECK(0);
        return;
    }
    spmvlab_trial_member m[2];
    memset(m, 0, sizeof m);
    for (int i = 0; i < 2; i++) {
        m[i].plugin = f.specs[i].plugin;
        m[i].label = f.specs[i].label;
        m[i].opts = &f.specs[i].opts;
    }
    spmvlab_trial_group g = {.rt = &f.rt, .A = &A, .name = "lp_e226", .dtype = SPMVLAB_F64, .seed = 7};
    int faulted = 0;
    TEST_CHECK(spmvlab_trial_measure(&g, m, 2, &faulted) == SPMVLAB_RESULT_OK);
    TEST_CHECK(faulted == -1);
    const spmvlab_member_result *ok = &m[0].res, *wrong = &m[1].res;
    TEST_CHECK(ok->outcome == SPMVLAB_RESULT_OK && ok->converted);
    TEST_CHECK(strcmp(ok->storage, "f64") == 0);
    TEST_CHECK(ok->footprint > 0 && ok->error_ratio <= 1.0 && ok->wall_ms >= 0);
    TEST_CHECK(ok->nsamples == 0 && !ok->single && isnan(ok->ms));
    TEST_CHECK(wrong->outcome == SPMVLAB_RESULT_WRONG && wrong->error_ratio > 1.0);
    TEST_CONTAINS(wrong->message, "spmv_host: ");
    spmvlab_csr_free(&A);
    fixture_close(&f);
}

/* A group whose trial cannot open (a value beyond f16's range) gives every
 * member the outcome and the sentence, and no host time. */
static void group_that_cannot_open(void)
{
    fixture f;
    if (fixture_open(&f, "csr,coo")) {
        TEST_CHECK(0);
        return;
    }
    static const int32_t ri[] = {0, 1}, ci[] = {0, 1};
    const double v[] = {1.0, 1e10};
    spmvlab_csr A;
    spmvlab_err err = {{0}};
    TEST_CHECK(spmvlab_csr_build(&A, 2, 2, 2, ri, ci, v, &err) == 0);
    run_member *m = calloc(2, sizeof *m);
    m[0].spec = &f.specs[0];
    m[1].spec = &f.specs[1];
    run_group g = {.rt = &f.rt, .s = &f.s, .meta = &f.meta, .matrix = "big", .source = "big", .A = &A,
                   .dtype = SPMVLAB_F16, .m = m, .n = 2};
    run_identity id;
    group_identity(&g, &id);
    g.identity = &id;
    TEST_CHECK(group_execute(&g) == -1);
    for (int i = 0; i < 2; i++) {
        TEST_CHECK(strcmp(m[i].row.status, "unsupported") == 0);
        TEST_CONTAINS(m[i].row.message, "beyond the range of f16");
        TEST_CHECK(isnan(m[i].row.wall_ms) && isnan(m[i].row.convert_ms));
    }
    group_release(&g);
    free(m);
    spmvlab_csr_free(&A);
    fixture_close(&f);
}

static void status_names_round_trip(void)
{
    static const spmvlab_result all[] = {
        SPMVLAB_RESULT_OK,        SPMVLAB_RESULT_UNSUPPORTED, SPMVLAB_RESULT_INVALID_OPTION, SPMVLAB_RESULT_LIMIT,
        SPMVLAB_RESULT_NOMEM,     SPMVLAB_RESULT_CUDA_ERROR,  SPMVLAB_RESULT_INTERNAL,       SPMVLAB_RESULT_WRONG,
        SPMVLAB_RESULT_IO,        SPMVLAB_RESULT_CRASH,       SPMVLAB_RESULT_TIMEOUT,        SPMVLAB_RESULT_DEVICE_FAULT};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        TEST_CHECK(run_status_outcome(run_status_name(all[k])) == all[k]);
    TEST_CHECK(strcmp(run_status_name(SPMVLAB_RESULT_NOMEM), "oom") == 0);
    TEST_CHECK(strcmp(run_status_name(SPMVLAB_RESULT_BAD_INPUT), "unsupported") == 0);
    TEST_CHECK(strcmp(spmvlab_result_name(SPMVLAB_RESULT_BAD_INPUT), "bad-input") == 0);
    TEST_CHECK(run_status_outcome("no-such-status") == SPMVLAB_RESULT_INTERNAL);
}

static void run_command_writes_its_csv(void)
{
    const char *data = getenv("SPMVLAB_DATA_DIR");
    char matrix[4096], csv[64];
    snprintf(matrix, sizeof matrix, "%s/lp_e226.mtx.gz", data ? data : "data");
    snprintf(csv, sizeof csv, "/tmp/spmvlab_run_library_%d.csv", (int)getpid());
    char *argv[] = {"run", "-p", "csr,coo", "-o", csv, matrix, NULL};
    TEST_CHECK(run_command(6, argv, RUN_MODE_RUN) == EXIT_OK);
    spmvlab_err err = {{0}};
    run_rows rows = {0};
    int same = 0;
    TEST_CHECK(run_rows_read(csv, &rows, &same, &err) == 0);
    TEST_CHECK(rows.n == 2);
    for (int i = 0; i < rows.n; i++)
        TEST_CHECK(strcmp(rows.v[i].status, "ok") == 0);
    run_rows_free(&rows);
    unlink(csv);
    char sum[96];
    snprintf(sum, sizeof sum, "/tmp/spmvlab_run_library_%d-summary.csv", (int)getpid());
    unlink(sum);
}

int main(void)
{
    group_gives_ok_and_wrong_by_value();
    input_with_nan_is_unsupported();
    identity_once_per_group();
    trial_engine_hands_back_records();
    group_that_cannot_open();
    status_names_round_trip();
    run_command_writes_its_csv();
    return test_done("test_run_library");
}
