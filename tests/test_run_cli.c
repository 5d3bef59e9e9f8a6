/*
 * `spmvlab run`'s statuses and refusals without a GPU: --isolate turning
 * crashes, aborts, hangs, wrong results and allocation failures into
 * statuses; Ctrl-C (prompt, exit 130, unfinished matrices not written);
 * bad input (one sentence, exit 2, rows already written kept); the [run]
 * section and its flags. Needs SPMVLAB_HOST and SPMVLAB_DATA_DIR.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib_cli.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Ctrl-C while a cell hangs: the child is killed at once, the matrix under
 * way is not written (resume measures it), the output keeps its name's
 * .partial, the run exits with 130. */
static void ctrl_c_ends_at_once_and_exits_130(void)
{
    char p[600], cfg[600];
    snprintf(p, sizeof p, "%s/int.csv", tmp);
    snprintf(cfg, sizeof cfg, "%s/faults.ini", tmp);
    char m1[4200], m2[4200];
    snprintf(m1, sizeof m1, "%s/lp_e226.mtx.gz", data);
    snprintf(m2, sizeof m2, "%s/1138_bus.mtx.gz", data);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(126);
        execl(host, host, "run", "--plugin-dir", plugdir, "-c", cfg, "-p", "ok,hang", "--isolate", "--timeout", "30",
              "-o", p, m1, m2, (char *)NULL);
        _exit(127);
    }
    sleep(1);
    double t0 = now_s();
    kill(pid, SIGINT);
    int st = 0;
    waitpid(pid, &st, 0);
    TEST_CHECK(now_s() - t0 < 5); /* not after the hanging child's time limit */
    TEST_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 130);
    /* Nothing finished: the rows so far (none) wait in int.csv.partial. */
    char partial[700];
    snprintf(partial, sizeof partial, "%s.partial", p);
    TEST_CHECK(rows_of(partial, "lp_e226", NULL) == 0 && rows_of(partial, "1138_bus", NULL) == 0);
    TEST_CHECK(access(p, F_OK) != 0);
}

static void isolate_turns_faults_into_statuses(void)
{
    char a[8192], p[600];
    snprintf(p, sizeof p, "%s/iso.csv", tmp);
    snprintf(a, sizeof a, "run --plugin-dir %s -c %s/faults.ini -p ok,crash,abort,hang,wrong,nomem --isolate --timeout 1 "
                          "-o %s %s/lp_e226.mtx.gz", plugdir, tmp, p, data);
    TEST_CHECK(spmvlab(a) == 1); /* wrong, crash and timeout are failures */
    csv c;
    TEST_CHECK(csv_load(p, &c) == 0);
    TEST_CHECK(c.nrec == 7);
    const char *want[][2] = {{"ok", "ok"},      {"crash", "crash"}, {"abort", "crash"},
                             {"hang", "timeout"}, {"wrong", "wrong"}, {"nomem", "oom"}};
    for (int r = 1; r < c.nrec && r < 7; r++) {
        TEST_CHECK(!strcmp(cell(&c, r, "instance"), want[r - 1][0]));
        TEST_CHECK(!strcmp(cell(&c, r, "status"), want[r - 1][1]));
    }
    if (c.nrec == 7) {
        TEST_CONTAINS(cell(&c, 2, "message"), "signal 11");
        TEST_CONTAINS(cell(&c, 3, "message"), "signal 6");
        TEST_CONTAINS(cell(&c, 4, "message"), "within 1 s");
        TEST_CONTAINS(cell(&c, 5, "message"), "beyond the error bound");
    }
    csv_free(&c);
    /* in one process the same wrong result is caught too */
    snprintf(a, sizeof a, "run --plugin-dir %s -c %s/faults.ini -p ok,wrong %s/lp_e226.mtx.gz", plugdir, tmp, data);
    TEST_CHECK(spmvlab(a) == 1);
    TEST_CONTAINS(out_text, "wrong: spmv_host");
}

static void bad_input_is_one_sentence_and_exit_2(void)
{
    char a[8192];
    struct {
        const char *args, *says;
    } cases[] = {
        {"run -p nosuchplugin %s/lp_e226.mtx.gz", "nosuchplugin"},
        {"run -p csr %s/no_such_matrix.mtx", "does not exist"},
        {"run -p csr --dtype f128 %s/lp_e226.mtx.gz", "f128"},
        {"run -p csr --reps 0 %s/lp_e226.mtx.gz", "--reps"},
        {"run -p csr --frobnicate %s/lp_e226.mtx.gz", "--frobnicate"},
        {"run -p csr --baseline coo %s/lp_e226.mtx.gz", "baseline 'coo'"},
        {"run -p csr --matrix-set nosuchset %s/lp_e226.mtx.gz", "nosuchset"},
        {"run %s/lp_e226.mtx.gz", "-p"},
        {"run -p csr", "no matrices"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char args[4096];
        snprintf(args, sizeof args, cases[k].args, data);
        TEST_CHECK(spmvlab(args) == 2);
        TEST_CONTAINS(err_text, cases[k].says);
        TEST_CHECK(count(err_text, "\n") == 1);
    }
    /* unknown [run] key: file and line */
    snprintf(a, sizeof a, "run -c %s/badrun.ini %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "badrun.ini:3");
    TEST_CONTAINS(err_text, "colour");
    /* a malformed matrix mid-run: the others are measured and kept, exit 2 */
    char p[600];
    snprintf(p, sizeof p, "%s/bad.csv", tmp);
    snprintf(a, sizeof a, "run -p csr -o %s %s/lp_e226.mtx.gz %s/broken.mtx %s/1138_bus.mtx.gz", p, data, tmp, data);
    TEST_CHECK(spmvlab(a) == 2);
    TEST_CONTAINS(err_text, "broken.mtx");
    TEST_CHECK(rows_of(p, "lp_e226", NULL) == 1 && rows_of(p, "1138_bus", NULL) == 1);
    /* resume from a file that is not ours */
    snprintf(a, sizeof a, "run -p csr --resume %s/broken.mtx %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 2);
}

static void run_section_settings_and_flags(void)
{
    char a[8192], p[600];
    snprintf(p, sizeof p, "%s/fromini.csv", tmp);
    snprintf(a, sizeof a, "run -c %s/run.ini", tmp);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CHECK(rows_of(p, "lp_e226", "csr") == 1 && rows_of(p, "lp_e226", "csr_b") == 1);
    csv c;
    csv_load(p, &c);
    TEST_CHECK(c.nrec == 3 && !strcmp(cell(&c, 1, "dtype"), "f32") && !strcmp(cell(&c, 1, "seed"), "5"));
    csv_free(&c);
    /* without -p or plugins =, every section of the file is an instance */
    snprintf(a, sizeof a, "run -c %s/ab.ini %s/lp_e226.mtx.gz", tmp, data);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CHECK(count(out_text, "f64  ok ") == 1);
    TEST_CONTAINS(out_text, "csr_b ");
    /* flags win over the file */
    snprintf(a, sizeof a, "run -c %s/run.ini --dtype f64 -p csr", tmp);
    TEST_CHECK(spmvlab(a) == 0);
    csv_load(p, &c);
    TEST_CHECK(c.nrec == 2 && !strcmp(cell(&c, 1, "dtype"), "f64"));
    csv_free(&c);
}

int main(void)
{
    if (cli_setup()) {
        fprintf(stderr, "SPMVLAB_HOST and SPMVLAB_DATA_DIR are needed: skipped\n");
        return 77;
    }
    bad_input_is_one_sentence_and_exit_2();
    run_section_settings_and_flags();
    if (slowcsr_built()) {
        isolate_turns_faults_into_statuses();
        ctrl_c_ends_at_once_and_exits_130();
    } else {
        fprintf(stderr, "the slowcsr test plugin is not built: isolation checks skipped\n");
    }
    cli_cleanup("run_cli");
    return test_done("run_cli");
}
