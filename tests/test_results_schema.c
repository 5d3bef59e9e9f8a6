/*
 * `spmvlab run` without a GPU, as CI sees it: the notice, status ok for
 * every bundled matrix, the CSV schema (every column of issue 7, in order),
 * numbers that follow their definitions, valid JSON with rows and summary,
 * resume (no cell measured twice or lost) and `spmvlab report`. The run's
 * statuses and refusals: test_run_cli.c. Needs SPMVLAB_HOST and
 * SPMVLAB_DATA_DIR (skipped without them).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib_cli.h"

static const char *expected_columns =
    "matrix,source,rows,cols,nnz,instance,plugin,options,dtype,value_storage,status,ms,ms_p10,ms_p90,single_ms,single_p10,"
    "single_p90,batch_ms,batch_p10,batch_p90,batch_launches,batch_method,reps,gflops,gbs,peak_frac,baseline,speedup,"
    "speedup_lo,speedup_hi,outcome,min_bytes,device_bytes,bytes_per_nnz,csr_bytes,rel_csr,convert_ms,convert_spmvs,"
    "convert_peak_bytes,tune_ms,tune_spmvs,tune_peak_bytes,tune_best,error_ratio,fits_l2,describe,message,timing,"
    "flush_l2,warmup,seed,noise,peak_gbs,l2_bytes,device,cc,driver,cuda_runtime,commit,version,date,command,"
    "plugin_file,plugin_version,plugin_hash,"
    "bound_us,bound_kind,bound_frac,"
    "ordering,reorder_ms,bandwidth_before,bandwidth_after,sectors_before,sectors_after,part,"
    "row_mean,row_cv,row_max,empty_share,bandwidth,locality,block_fill";

static void cpu_run_prints_the_notice_and_ok(void)
{
    char a[8192];
    snprintf(a, sizeof a, "run -p csr -o %s/a.csv --json %s/a.json %s", tmp, tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CHECK(count(err_text, "no CUDA device found") == 1);
    TEST_CONTAINS(out_text, "lp_e226");
    TEST_CHECK(count(out_text, "f64  ok ") >= bundled_count());
    TEST_CONTAINS(out_text, "functional check only");
}

static void csv_has_every_column_and_consistent_numbers(void)
{
    char p[600];
    snprintf(p, sizeof p, "%s/a.csv", tmp);
    char *text = slurp(p);
    TEST_CHECK(text != NULL);
    if (!text)
        return;
    TEST_CHECK(!strncmp(text, expected_columns, strlen(expected_columns)) && text[strlen(expected_columns)] == '\n');
    free(text);
    csv c;
    csv_load(p, &c);
    int n = bundled_count();
    TEST_CHECK(c.nrec == 1 + n);
    for (int r = 1; r < c.nrec; r++) {
        TEST_CHECK(c.nf[r] == c.nf[0]);
        TEST_CHECK(!strcmp(cell(&c, r, "status"), "ok"));
        TEST_CHECK(!strcmp(cell(&c, r, "instance"), "csr") && !strcmp(cell(&c, r, "dtype"), "f64"));
        TEST_CHECK(!strcmp(cell(&c, r, "timing"), "none") && !strcmp(cell(&c, r, "device"), "cpu"));
        TEST_CHECK(isnan(num(&c, r, "ms")) && isnan(num(&c, r, "speedup")) && isnan(num(&c, r, "gflops")));
        /* no GPU, no ceilings, no time: the bound columns stay blank */
        TEST_CHECK(!cell(&c, r, "bound_us")[0] && !cell(&c, r, "bound_kind")[0] && !cell(&c, r, "bound_frac")[0]);
        double rows = num(&c, r, "rows"), cols = num(&c, r, "cols"), nnz = num(&c, r, "nnz");
        TEST_CHECK(nnz > 0);
        /* the structure features, as select computes them */
        TEST_CHECK(fabs(num(&c, r, "row_mean") - nnz / rows) < 1e-3 * nnz / rows);
        TEST_CHECK(num(&c, r, "row_max") >= num(&c, r, "row_mean") && num(&c, r, "row_cv") >= 0);
        TEST_CHECK(num(&c, r, "empty_share") >= 0 && num(&c, r, "empty_share") <= 1);
        TEST_CHECK(num(&c, r, "bandwidth") >= 0 && num(&c, r, "bandwidth") <= 1);
        TEST_CHECK(num(&c, r, "locality") >= 0 && num(&c, r, "locality") <= 1);
        TEST_CHECK(num(&c, r, "block_fill") > 0 && num(&c, r, "block_fill") <= 1);
        TEST_CHECK(num(&c, r, "min_bytes") == nnz * 12 + (rows + 1) * 4 + cols * 8 + rows * 8);
        TEST_CHECK(num(&c, r, "csr_bytes") == (rows + 1) * 4 + nnz * 12);
        /* csr stores CSR plus at most its adaptive path's row-block table */
        TEST_CHECK(num(&c, r, "device_bytes") >= num(&c, r, "csr_bytes"));
        TEST_CHECK(fabs(num(&c, r, "rel_csr") - num(&c, r, "device_bytes") / num(&c, r, "csr_bytes")) < 1e-3);
        TEST_CHECK(fabs(num(&c, r, "bytes_per_nnz") - num(&c, r, "device_bytes") / nnz) < 1e-3);
        TEST_CHECK(num(&c, r, "convert_peak_bytes") >= num(&c, r, "device_bytes"));
        TEST_CHECK(num(&c, r, "error_ratio") >= 0 && num(&c, r, "error_ratio") <= 1);
        TEST_CHECK(num(&c, r, "convert_ms") >= 0);
        TEST_CHECK(cell(&c, r, "options")[0] && cell(&c, r, "describe")[0]);
        TEST_CHECK(cell(&c, r, "commit")[0] && cell(&c, r, "date")[0] && cell(&c, r, "version")[0]);
        TEST_CONTAINS(cell(&c, r, "command"), "run -p csr");
    }
    csv_free(&c);
    snprintf(p, sizeof p, "%s/a-summary.csv", tmp);
    csv s;
    TEST_CHECK(csv_load(p, &s) == 0);
    TEST_CHECK(s.nrec == 2 && col(&s, "geomean_speedup") >= 0 && col(&s, "within_1.25") >= 0);
    TEST_CHECK(s.nrec < 2 || atoi(cell(&s, 1, "ok")) == n);
    csv_free(&s);
}

static void json_holds_rows_and_summary(void)
{
    char p[600];
    snprintf(p, sizeof p, "%s/a.json", tmp);
    char *j = slurp(p);
    TEST_CHECK(j != NULL);
    if (!j)
        return;
    const char *end = json_value(j);
    TEST_CHECK(end && *ws(end) == '\0');
    TEST_CONTAINS(j, "\"rows\": [");
    TEST_CONTAINS(j, "\"summary\": {");
    TEST_CONTAINS(j, "\"meta\": {");
    TEST_CONTAINS(j, "\"samples\": {\"single_ms\": []");
    TEST_CHECK(count(j, "\"matrix\": ") == 2 * bundled_count()); /* rows and the summary's matrices */
    free(j);
}

static void resume_measures_each_cell_once(void)
{
    char a[8192], p[600];
    snprintf(p, sizeof p, "%s/r.csv", tmp);
    snprintf(a, sizeof a, "run -p csr -o %s %s/lp_e226.mtx.gz %s/1138_bus.mtx.gz", p, data, data);
    TEST_CHECK(spmvlab(a) == 0);
    char *before = slurp(p);
    /* three matrices now: only dw8192 is new */
    snprintf(a, sizeof a, "run -p csr --resume %s %s/lp_e226.mtx.gz %s/1138_bus.mtx.gz %s/dw8192.mtx.gz", p, data, data,
             data);
    TEST_CHECK(spmvlab(a) == 0);
    char *after = slurp(p);
    TEST_CHECK(before && after && !strncmp(before, after, strlen(before))); /* old rows kept byte for byte */
    TEST_CHECK(rows_of(p, "lp_e226", NULL) == 1 && rows_of(p, "1138_bus", NULL) == 1 && rows_of(p, "dw8192", NULL) == 1);
    TEST_CHECK(count(out_text, "f64  ok ") == 1);
    /* the summary covers all three */
    TEST_CONTAINS(out_text, "3 matrices");
    /* again: nothing left to measure */
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CHECK(count(out_text, "f64  ok ") == 0);
    TEST_CHECK(rows_of(p, "dw8192", NULL) == 1);
    /* other options under the same label would be a second configuration
     * called csr: refused, the file as it was */
    snprintf(a, sizeof a, "run -p csr --option csr.kernel=scalar --resume %s %s/lp_e226.mtx.gz", p, data);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "one label must name one configuration");
    TEST_CHECK(rows_of(p, "lp_e226", "csr") == 1);
    /* a second instance on the same file: only its cells are measured */
    snprintf(a, sizeof a, "run -p csr,csr_b -c %s/ab.ini --resume %s %s/lp_e226.mtx.gz %s/1138_bus.mtx.gz", tmp, p, data,
             data);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CHECK(rows_of(p, "1138_bus", "csr") == 1 && rows_of(p, "1138_bus", "csr_b") == 1);
    TEST_CHECK(count(out_text, "f64  ok ") == 2);
    free(before);
    free(after);
}

static void report_summarises_and_plots(void)
{
    /* A timed results file, as a GPU run writes it. */
    char p[600], a[8192];
    snprintf(p, sizeof p, "%s/timed.csv", tmp);
    FILE *f = fopen(p, "w");
    if (!f)
        return;
    fprintf(f, "%s\n", expected_columns);
    const char *mats[] = {"m1", "m2", "m3"};
    int ncols = 1;
    for (int k = 0; expected_columns[k]; k++)
        ncols += expected_columns[k] == ',';
    for (int m = 0; m < 3; m++)
        for (int i = 0; i < 2; i++) {
            double ms = i ? 0.5 + 0.1 * m : 1.0, sp = 1.0 / ms, lo = i ? sp * 0.98 : 1, hi = i ? sp * 1.02 : 1;
            /* only the columns report reads; the rest stay empty */
            fprintf(f, "%s,,%d,%d,%d,%s,csr,,f64,f64,ok,%g,,,,,,%g,,,,,10,%g,,,csr,%g,%g,%g,%s", mats[m], 100, 100,
                    1000 * (m + 1), i ? "fast" : "csr", ms, ms, 2.0 * 1000 * (m + 1) / (ms * 1e-3) / 1e9, sp, lo, hi,
                    i ? "win" : "baseline");
            for (int k = 31; k < ncols; k++)
                fputc(',', f);
            fputc('\n', f);
        }
    fclose(f);
    snprintf(a, sizeof a, "report %s -o %s/rep", p, tmp);
    int rc = spmvlab(a);
    TEST_CHECK(rc == 0);
    TEST_CONTAINS(out_text, "baseline csr");
    TEST_CONTAINS(out_text, "fast");
    char q[700];
    snprintf(q, sizeof q, "%s/rep/summary.csv", tmp);
    TEST_CHECK(access(q, R_OK) == 0);
    snprintf(q, sizeof q, "%s/rep/plots-f64.gp", tmp);
    TEST_CHECK(access(q, R_OK) == 0);
    if (access("/usr/bin/gnuplot", X_OK) == 0 && !getenv("SPMVLAB_GNUPLOT")) {
        const char *imgs[] = {"profile-f64.svg", "profile-f64.png", "gflops-f64.svg", "gflops-f64.png",
                              "speedup-f64.svg", "speedup-f64.png"};
        for (int k = 0; k < 6; k++) {
            snprintf(q, sizeof q, "%s/rep/%s", tmp, imgs[k]);
            struct stat sb;
            TEST_CHECK(stat(q, &sb) == 0 && sb.st_size > 100);
        }
    }
    /* without gnuplot: said once, summary still printed */
    setenv("SPMVLAB_GNUPLOT", "/nonexistent/gnuplot", 1);
    snprintf(a, sizeof a, "report %s -o %s/rep2", p, tmp);
    TEST_CHECK(spmvlab(a) == 0);
    unsetenv("SPMVLAB_GNUPLOT");
    TEST_CONTAINS(err_text, "gnuplot was not found");
    TEST_CONTAINS(out_text, "fast");
    /* not a results file */
    snprintf(a, sizeof a, "report %s/run.ini", tmp);
    TEST_CHECK(spmvlab(a) == 2);
}

int main(void)
{
    if (cli_setup()) {
        fprintf(stderr, "SPMVLAB_HOST and SPMVLAB_DATA_DIR are needed: skipped\n");
        return 77;
    }
    cpu_run_prints_the_notice_and_ok();
    csv_has_every_column_and_consistent_numbers();
    json_holds_rows_and_summary();
    resume_measures_each_cell_once();
    report_summarises_and_plots();
    cli_cleanup("results_schema");
    return test_done("results_schema");
}
