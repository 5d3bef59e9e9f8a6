/*
 * Sweeps: a value list in an instance's section (or --option LABEL.KEY=V1,V2)
 * expands to one instance per combination, labelled by its values; run
 * measures them all and tune picks one per matrix. Needs the csr plugin
 * (SPMVLAB_PLUGIN_PATH) and, for the command-line part, SPMVLAB_HOST.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "spmvlab/config.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/spmvlab-sweep-XXXXXX";

/* Runs cmd with stdout and stderr into files of tmpdir; returns the exit
 * code and the text of both (static buffers). */
static int sh(const char *cmd, char **out, char **err)
{
    static char obuf[1 << 16], ebuf[1 << 16];
    char full[8192];
    snprintf(full, sizeof full, "%s >%s/out 2>%s/err", cmd, tmpdir, tmpdir);
    int st = system(full);
    char p[512];
    snprintf(p, sizeof p, "%s/out", tmpdir);
    FILE *f = fopen(p, "r");
    size_t n = f ? fread(obuf, 1, sizeof obuf - 1, f) : 0;
    obuf[n] = '\0';
    if (f)
        fclose(f);
    snprintf(p, sizeof p, "%s/err", tmpdir);
    f = fopen(p, "r");
    n = f ? fread(ebuf, 1, sizeof ebuf - 1, f) : 0;
    ebuf[n] = '\0';
    if (f)
        fclose(f);
    if (out)
        *out = obuf;
    if (err)
        *err = ebuf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

/* One registry for the whole test: the specs keep pointers into its
 * descriptors, so it is freed at the end. */
static spmvlab_registry *reg;

static int resolve(const char *ini, const char *labels, spmvlab_instance_spec **specs, spmvlab_err *err)
{
    spmvlab_config cfg = {0};
    if (!reg)
        reg = spmvlab_registry_new();
    int n = -1;
    if (spmvlab_config_read_string(&cfg, ini, "sweep.ini", err) == 0)
        n = spmvlab_config_resolve(&cfg, reg, labels, specs, err);
    spmvlab_config_free(&cfg);
    return n;
}

static void one_list_gives_one_instance_per_value(void)
{
    spmvlab_instance_spec *s = NULL;
    spmvlab_err err = {{0}};
    int n = resolve("[csr]\nwidth = 2, 4, 8\n", "csr", &s, &err);
    TEST_CHECK(n == 3);
    if (n != 3) {
        fprintf(stderr, "  %s\n", err.msg);
        return;
    }
    TEST_CHECK(!strcmp(s[0].label, "csr[width=2]") && !strcmp(s[1].label, "csr[width=4]") &&
               !strcmp(s[2].label, "csr[width=8]"));
    TEST_CONTAINS(s[1].options_text, "width=4");
    for (int i = 0; i < 3; i++)
        TEST_CHECK(!strcmp(s[i].base_label, "csr"));
    spmvlab_instance_specs_free(s, n);
}

static void two_lists_give_the_product_in_order(void)
{
    spmvlab_instance_spec *s = NULL;
    spmvlab_err err = {{0}};
    int n = resolve("[v]\nplugin = csr\nkernel = scalar, vector\nwidth = 2, 4\n[w]\nplugin = csr\n", "v,w", &s, &err);
    TEST_CHECK(n == 5);
    if (n != 5) {
        fprintf(stderr, "  %s\n", err.msg);
        return;
    }
    TEST_CHECK(!strcmp(s[0].label, "v[kernel=scalar,width=2]"));
    TEST_CHECK(!strcmp(s[1].label, "v[kernel=scalar,width=4]"));
    TEST_CHECK(!strcmp(s[2].label, "v[kernel=vector,width=2]"));
    TEST_CHECK(!strcmp(s[3].label, "v[kernel=vector,width=4]"));
    TEST_CHECK(!strcmp(s[4].label, "w") && !strcmp(s[4].base_label, "w"));
    spmvlab_instance_specs_free(s, n);
}

static void a_bad_value_in_a_list_names_its_line(void)
{
    spmvlab_instance_spec *s = NULL;
    spmvlab_err err = {{0}};
    int n = resolve("[csr]\n\nwidth = 2, 40\n", "csr", &s, &err);
    TEST_CHECK(n < 0);
    TEST_CONTAINS(err.msg, "sweep.ini:3");
}

static void run_expands_set_lists_on_the_command_line(const char *host, const char *data)
{
    char cmd[4096], *out, *err;
    snprintf(cmd, sizeof cmd, "%s run -p csr --option csr.width=2,4 -o %s/sweep.csv %s/lp_e226.mtx.gz", host, tmpdir, data);
    int rc = sh(cmd, &out, &err);
    TEST_CHECK(rc == 0);
    TEST_CONTAINS(out, "csr[width=2]");
    TEST_CONTAINS(out, "csr[width=4]");
    char p[512];
    snprintf(p, sizeof p, "%s/sweep.csv", tmpdir);
    TEST_CHECK(count_lines(p) == 3); /* header + two instances */
    /* KEY=VALUES without a label applies to the only instance */
    snprintf(cmd, sizeof cmd, "%s run -p csr --option kernel=scalar,vector %s/lp_e226.mtx.gz", host, data);
    rc = sh(cmd, &out, &err);
    TEST_CHECK(rc == 0);
    TEST_CONTAINS(out, "csr[kernel=vector]");
}

static void overrides_are_checked(const char *host, const char *data)
{
    char cmd[4096], *err;
    struct {
        const char *set, *says;
    } bad[] = {
        {"other.width=2", "not among the instances"},
        {"csr.nokey=1", "nokey"},
        {"csr.width=3", "power of two"},
        {"csr.width=2,2", "width"},
        {"csr.plugin=coo", "plugin"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        snprintf(cmd, sizeof cmd, "%s run -p csr --option %s %s/lp_e226.mtx.gz", host, bad[k].set, data);
        int rc = sh(cmd, NULL, &err);
        TEST_CHECK(rc == 2);
        TEST_CONTAINS(err, bad[k].says);
        TEST_CHECK(strchr(err, '\n') == err + strlen(err) - 1); /* one line */
    }
}

static void tune_measures_every_combination(const char *host, const char *data)
{
    char cmd[4096], *out, *err;
    snprintf(cmd, sizeof cmd, "%s tune -p csr --option csr.width=2,4,8 -o %s/tune.csv %s/lp_e226.mtx.gz %s/1138_bus.mtx.gz",
             host, tmpdir, data, data);
    int rc = sh(cmd, &out, &err);
    TEST_CHECK(rc == 0);
    TEST_CONTAINS(err, "no CUDA device");
    TEST_CONTAINS(out, "tune: no timings");
    char p[512];
    snprintf(p, sizeof p, "%s/tune.csv", tmpdir);
    TEST_CHECK(count_lines(p) == 1 + 2 * 3);
}

int main(void)
{
    one_list_gives_one_instance_per_value();
    two_lists_give_the_product_in_order();
    a_bad_value_in_a_list_names_its_line();
    const char *host = getenv("SPMVLAB_HOST"), *data = getenv("SPMVLAB_DATA_DIR");
    if (host && data && mkdtemp(tmpdir)) {
        run_expands_set_lists_on_the_command_line(host, data);
        overrides_are_checked(host, data);
        tune_measures_every_combination(host, data);
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmpdir);
    } else {
        fprintf(stderr, "SPMVLAB_HOST or SPMVLAB_DATA_DIR not set: command-line checks skipped\n");
    }
    spmvlab_registry_free(reg);
    return test_done("sweep");
}
