/*
 * spmvlab merge and -o by extension: parts of one build merge into one CSV
 * and summary; a part given twice (a duplicate cell), a part of other
 * columns, of another commit or device, and a label with other options
 * are refused with a sentence naming the files, and nothing is written; -o chooses CSV or JSON by the
 * extension and refuses any other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merge.h"
#include "test_cli_util.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/spmvlab-test-merge-XXXXXX";
static char a[4200], b[4200], out[4200];

/* Copies src to dst replacing the first occurrence of from by to. */
static int copy_edited(const char *src, const char *dst, const char *from, const char *to)
{
    FILE *f = fopen(src, "r");
    static char buf[1 << 20];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    char *at = strstr(buf, from);
    FILE *g = fopen(dst, "w");
    if (!g || !at) {
        if (g)
            fclose(g);
        return -1;
    }
    fwrite(buf, 1, (size_t)(at - buf), g);
    fputs(to, g);
    fputs(at + strlen(from), g);
    fclose(g);
    return 0;
}

static void parts_merge_into_one(void)
{
    char *parts[] = {a, b};
    spmvlab_err err;
    int rows = 0;
    TEST_CHECK(merge_parts(out, parts, 2, 0, &rows, &err) == 0);
    TEST_CHECK(rows == 4);
    char sp[4300];
    snprintf(sp, sizeof sp, "%.4200s", out);
    strcpy(sp + strlen(sp) - 4, "-summary.csv");
    TEST_CHECK(access(sp, R_OK) == 0);
    /* Merging again onto the merged file loses nothing: allowed. */
    TEST_CHECK(merge_parts(out, parts, 2, MERGE_NEW_OUTPUT, &rows, &err) == 0 && rows == 4);
}

static void refusals_name_the_files(void)
{
    char *twice[] = {a, a}, other[4300], *schema[] = {a, other}, *commit[] = {a, other};
    spmvlab_err err;
    unlink(out);
    TEST_CHECK(merge_parts(out, twice, 2, 0, NULL, &err) != 0);
    TEST_CONTAINS(err.msg, "is in both");
    TEST_CHECK(access(out, F_OK) != 0);
    snprintf(other, sizeof other, "%s/other_columns.csv", tmpdir);
    TEST_CHECK(copy_edited(b, other, "gflops", "gflops_then") == 0); /* the header comes first */
    TEST_CHECK(merge_parts(out, schema, 2, 0, NULL, &err) != 0);
    TEST_CONTAINS(err.msg, "other columns");
    /* another build: b with its first row's commit rewritten */
    snprintf(other, sizeof other, "%s/other_commit.csv", tmpdir);
    FILE *f = fopen(b, "r");
    static char fields[200][1024];
    int nf = f ? csv_fields(f, fields, 200) : 0, ic = -1;
    for (int k = 0; k < nf; k++)
        ic = strcmp(fields[k], "commit") == 0 ? k : ic;
    nf = f ? csv_fields(f, fields, 200) : 0;
    if (f)
        fclose(f);
    TEST_CHECK(ic >= 0 && ic < nf && fields[ic][0]);
    if (ic >= 0 && ic < nf && fields[ic][0]) {
        char from[1100], to[1100];
        snprintf(from, sizeof from, ",%s,", fields[ic]);
        snprintf(to, sizeof to, ",0000000-elsewhere,");
        TEST_CHECK(copy_edited(b, other, from, to) == 0);
        TEST_CHECK(merge_parts(out, commit, 2, 0, NULL, &err) != 0);
        TEST_CONTAINS(err.msg, "at commit 0000000-elsewhere");
        TEST_CONTAINS(err.msg, "one build");
    }
    /* another device, and one label with two option sets */
    snprintf(other, sizeof other, "%s/other_device.csv", tmpdir);
    TEST_CHECK(copy_edited(b, other, ",cpu,", ",Tesla X,") == 0);
    TEST_CHECK(merge_parts(out, commit, 2, 0, NULL, &err) != 0);
    TEST_CONTAINS(err.msg, "holds results measured on Tesla X, but");
    TEST_CONTAINS(err.msg, "one device only");
    snprintf(other, sizeof other, "%s/other_options.csv", tmpdir);
    TEST_CHECK(copy_edited(b, other, "kernel=auto", "kernel=scalar") == 0);
    TEST_CHECK(merge_parts(out, commit, 2, 0, NULL, &err) != 0);
    TEST_CONTAINS(err.msg, "holds instance csr with the options");
    TEST_CONTAINS(err.msg, "one label must name one configuration");
    TEST_CHECK(access(out, F_OK) != 0);
    TEST_CHECK(cli_run("merge %s/m.txt %s", tmpdir, a) == 2);
    TEST_CONTAINS(cli_out, "not a .csv file name");
    TEST_CHECK(cli_run("merge %s/m.csv %s %s", tmpdir, a, a) == 2);
    TEST_CONTAINS(cli_out, "is in both");
}

static void output_format_follows_the_extension(const char *data)
{
    TEST_CHECK(cli_run("run -p csr -o %s/r.json %s/lp_e226.mtx.gz", tmpdir, data) == 0);
    char p[4300];
    snprintf(p, sizeof p, "%s/r.json", tmpdir);
    FILE *f = fopen(p, "r");
    int c = f ? fgetc(f) : EOF;
    if (f)
        fclose(f);
    TEST_CHECK(c == '{');
    TEST_CHECK(cli_run("run -p csr -o %s/r.txt %s/lp_e226.mtx.gz", tmpdir, data) == 2);
    TEST_CONTAINS(cli_out, "-o ");
    TEST_CONTAINS(cli_out, "writes .csv or .json");
    snprintf(p, sizeof p, "%s/r.txt", tmpdir);
    TEST_CHECK(access(p, F_OK) != 0);
}

int main(void)
{
    const char *data = getenv("SPMVLAB_DATA_DIR");
    if (!getenv("SPMVLAB_HOST") || !data) {
        printf("test_merge: skipped, SPMVLAB_HOST or SPMVLAB_DATA_DIR is not set\n");
        return 77;
    }
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 77;
    }
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    setenv("SPMVLAB_CACHE_DIR", cache, 1);
    snprintf(a, sizeof a, "%s/a.csv", tmpdir);
    snprintf(b, sizeof b, "%s/b.csv", tmpdir);
    snprintf(out, sizeof out, "%s/merged.csv", tmpdir);
    TEST_CHECK(cli_run("run -p csr,coo -o %s %s/lp_e226.mtx.gz", a, data) == 0);
    TEST_CHECK(cli_run("run -p csr,coo -o %s %s/1138_bus.mtx.gz", b, data) == 0);
    parts_merge_into_one();
    refusals_name_the_files();
    output_format_follows_the_extension(data);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_done("test_merge");
}
