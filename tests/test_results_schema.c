/*
 * `spmvlab run` without a GPU, as CI sees it: the notice, status ok for
 * every bundled matrix, the CSV schema (every column of issue 7, in order),
 * numbers that follow their definitions, valid JSON with rows and summary,
 * resume (no cell measured twice or lost), Ctrl-C (prompt, exit 130),
 * --isolate turning crashes and hangs into statuses, bad input (one
 * sentence, exit 2, rows already written kept) and `spmvlab report`.
 * Needs SPMVLAB_HOST and SPMVLAB_DATA_DIR (skipped without them).
 */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

static const char *expected_columns =
    "matrix,source,rows,cols,nnz,instance,plugin,options,dtype,value_storage,status,ms,ms_p10,ms_p90,single_ms,single_p10,"
    "single_p90,batch_ms,batch_p10,batch_p90,batch_launches,batch_method,reps,gflops,gbs,peak_frac,baseline,speedup,"
    "speedup_lo,speedup_hi,outcome,min_bytes,device_bytes,bytes_per_nnz,csr_bytes,rel_csr,convert_ms,convert_spmvs,"
    "convert_peak_bytes,tune_ms,tune_spmvs,tune_peak_bytes,tune_best,error_ratio,fits_l2,describe,message,timing,"
    "flush_l2,warmup,seed,noise,peak_gbs,l2_bytes,device,cc,driver,cuda_runtime,commit,version,date,command";

static char tmp[] = "/tmp/spmvlab-results-XXXXXX";
static const char *host, *data;
static char plugdir[4096];

/* ---- helpers ------------------------------------------------------------ */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

static char out_text[1 << 17], err_text[1 << 16];

static void read_into(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* Runs "HOST args" through the shell; stdout / stderr into out_text / err_text. */
static int spmvlab(const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s >%s/out 2>%s/err", host, args, tmp, tmp);
    int st = system(cmd);
    char p[600];
    snprintf(p, sizeof p, "%s/out", tmp);
    read_into(p, out_text, sizeof out_text);
    snprintf(p, sizeof p, "%s/err", tmp);
    read_into(p, err_text, sizeof err_text);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* A parsed CSV: records of fields (quotes handled). */
typedef struct csv {
    int nrec;
    int nf[512];
    char *f[512][64];
} csv;

static int csv_load(const char *path, csv *c)
{
    memset(c, 0, sizeof *c);
    char *s = slurp(path);
    if (!s)
        return -1;
    char field[4096];
    size_t fl = 0;
    int q = 0, rec = 0, nf = 0;
    for (char *p = s;; p++) {
        char ch = *p;
        if (q) {
            if (ch == '"' && p[1] == '"') {
                field[fl++] = '"';
                p++;
            } else if (ch == '"') {
                q = 0;
            } else if (ch) {
                if (fl < sizeof field - 1)
                    field[fl++] = ch;
            }
            if (ch)
                continue;
        }
        if (ch == '"' && !q) {
            q = 1;
            continue;
        }
        if (ch == ',' || ch == '\n' || ch == '\0') {
            if (ch == '\0' && nf == 0 && fl == 0)
                break;
            field[fl] = '\0';
            if (rec < 512 && nf < 64)
                c->f[rec][nf] = strdup(field);
            nf++;
            fl = 0;
            if (ch != ',') {
                if (rec < 512)
                    c->nf[rec] = nf;
                rec++;
                nf = 0;
            }
            if (ch == '\0')
                break;
            continue;
        }
        if (fl < sizeof field - 1)
            field[fl++] = ch;
    }
    c->nrec = rec < 512 ? rec : 512;
    free(s);
    return 0;
}

static void csv_free(csv *c)
{
    for (int r = 0; r < c->nrec; r++)
        for (int k = 0; k < c->nf[r] && k < 64; k++)
            free(c->f[r][k]);
}

static int col(const csv *c, const char *name)
{
    for (int k = 0; k < c->nf[0] && k < 64; k++)
        if (!strcmp(c->f[0][k], name))
            return k;
    return -1;
}

static const char *cell(const csv *c, int rec, const char *name)
{
    int k = col(c, name);
    return k >= 0 && k < c->nf[rec] ? c->f[rec][k] : "";
}

static double num(const csv *c, int rec, const char *name)
{
    const char *s = cell(c, rec, name);
    return s[0] ? strtod(s, NULL) : NAN;
}

/* A small JSON syntax check: returns the end of one value, or NULL. */
static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static const char *json_value(const char *p);

static const char *json_str(const char *p)
{
    if (*p != '"')
        return NULL;
    for (p++; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\')
            p++;
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *json_value(const char *p)
{
    p = ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                p = json_str(ws(p));
                if (!p || *(p = ws(p)) != ':')
                    return NULL;
                p++;
            }
            if (!(p = json_value(p)))
                return NULL;
            p = ws(p);
            if (*p == ',') {
                p++;
                continue;
            }
            return *p == close ? p + 1 : NULL;
        }
    }
    if (*p == '"')
        return json_str(p);
    if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
        return p + 4;
    if (!strncmp(p, "false", 5))
        return p + 5;
    char *end;
    strtod(p, &end);
    return end > p ? end : NULL;
}

static int bundled_count(void)
{
    DIR *d = opendir(data);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        n += l > 7 && !strcmp(e->d_name + l - 7, ".mtx.gz");
    }
    if (d)
        closedir(d);
    return n;
}

/* ---- cases --------------------------------------------------------------- */

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
        double rows = num(&c, r, "rows"), cols = num(&c, r, "cols"), nnz = num(&c, r, "nnz");
        TEST_CHECK(nnz > 0);
        TEST_CHECK(num(&c, r, "min_bytes") == nnz * 12 + (rows + 1) * 4 + cols * 8 + rows * 8);
        TEST_CHECK(num(&c, r, "csr_bytes") == (rows + 1) * 4 + nnz * 12);
        TEST_CHECK(num(&c, r, "device_bytes") == num(&c, r, "csr_bytes")); /* csr stores exactly CSR */
        TEST_CHECK(fabs(num(&c, r, "rel_csr") - 1) < 1e-6);
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

static int rows_of(const char *path, const char *matrix, const char *instance)
{
    csv c;
    if (csv_load(path, &c))
        return -1;
    int n = 0;
    for (int r = 1; r < c.nrec; r++)
        n += !strcmp(cell(&c, r, "matrix"), matrix) && (!instance || !strcmp(cell(&c, r, "instance"), instance));
    csv_free(&c);
    return n;
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
    /* other options are other cells */
    snprintf(a, sizeof a, "run -p csr --set csr.kernel=scalar --resume %s %s/lp_e226.mtx.gz", p, data);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CHECK(rows_of(p, "lp_e226", "csr") == 2);
    /* a second instance on the same file: only its cells are measured */
    snprintf(a, sizeof a, "run -p csr,csr_b -c %s/ab.ini --resume %s %s/lp_e226.mtx.gz %s/1138_bus.mtx.gz", tmp, p, data,
             data);
    TEST_CHECK(spmvlab(a) == 0);
    TEST_CHECK(rows_of(p, "1138_bus", "csr") == 1 && rows_of(p, "1138_bus", "csr_b") == 1);
    TEST_CHECK(count(out_text, "f64  ok ") == 2);
    free(before);
    free(after);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Ctrl-C while a cell hangs: the child is killed at once, the matrix under
 * way is not written (resume measures it), the run exits with 130. */
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
    TEST_CHECK(rows_of(p, "lp_e226", NULL) == 0 && rows_of(p, "1138_bus", NULL) == 0);
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
        {"run -p csr --set nosuchset %s/lp_e226.mtx.gz", "nosuchset"},
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
    for (int m = 0; m < 3; m++)
        for (int i = 0; i < 2; i++) {
            double ms = i ? 0.5 + 0.1 * m : 1.0, sp = 1.0 / ms, lo = i ? sp * 0.98 : 1, hi = i ? sp * 1.02 : 1;
            /* only the columns report reads; the rest stay empty */
            for (int k = 0, c = 0; expected_columns[k]; k++)
                c += expected_columns[k] == ',';
            fprintf(f, "%s,,%d,%d,%d,%s,csr,,f64,f64,ok,%g,,,,,,%g,,,,,10,%g,,,csr,%g,%g,%g,%s", mats[m], 100, 100,
                    1000 * (m + 1), i ? "fast" : "csr", ms, ms, 2.0 * 1000 * (m + 1) / (ms * 1e-3) / 1e9, sp, lo, hi,
                    i ? "win" : "baseline");
            for (int k = 31; k < 62; k++)
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

static void write_file(const char *name, const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", tmp, name);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

int main(void)
{
    host = getenv("SPMVLAB_HOST");
    data = getenv("SPMVLAB_DATA_DIR");
    if (!host || !data || !mkdtemp(tmp)) {
        fprintf(stderr, "SPMVLAB_HOST and SPMVLAB_DATA_DIR are needed: skipped\n");
        return 77;
    }
    /* The test plugins sit in <build>/tests/plugins; the host in <build>/host. */
    snprintf(plugdir, sizeof plugdir, "%s", host);
    for (int up = 0; up < 2; up++) {
        char *s = strrchr(plugdir, '/');
        if (s)
            *s = '\0';
    }
    strncat(plugdir, "/tests/plugins", sizeof plugdir - strlen(plugdir) - 1);
    write_file("faults.ini", "[ok]\nplugin = slowcsr\n[crash]\nplugin = slowcsr\nfault = crash\n[abort]\nplugin = slowcsr\n"
                             "fault = abort\n[hang]\nplugin = slowcsr\nfault = hang\n[wrong]\nplugin = slowcsr\nfault = wrong\n"
                             "[nomem]\nplugin = slowcsr\nfault = nomem\n");
    write_file("ab.ini", "[csr_b]\nplugin = csr\n");
    write_file("badrun.ini", "[run]\nplugins = csr\ncolour = blue\n");
    write_file("broken.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n9 9 2.0\n");
    char runini[8192];
    snprintf(runini, sizeof runini,
             "[run]\nplugins = csr, csr_b\nmatrices = %s/lp_e226.mtx.gz\ndtype = f32\nseed = 5\nreps = 3\n"
             "output = %s/fromini.csv\n[csr_b]\nplugin = csr\nkernel = scalar\n",
             data, tmp);
    write_file("run.ini", runini);

    cpu_run_prints_the_notice_and_ok();
    csv_has_every_column_and_consistent_numbers();
    json_holds_rows_and_summary();
    resume_measures_each_cell_once();
    bad_input_is_one_sentence_and_exit_2();
    run_section_settings_and_flags();
    report_summarises_and_plots();
    struct stat sb;
    char so[4200];
    snprintf(so, sizeof so, "%s/libspmvlab_slowcsr.so", plugdir);
    if (stat(so, &sb) == 0) {
        isolate_turns_faults_into_statuses();
        ctrl_c_ends_at_once_and_exits_130();
    } else {
        fprintf(stderr, "%s not built: isolation checks skipped\n", so);
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (!test_failures && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return test_done("results_schema");
}
