/*
 * The one option table of every command (host/options) and its reader
 * (spmvlab/flags.h): a flag name is one row wherever it is taken,
 * every default parses, old spellings reach the row of their new name by
 * command and value, typed values are checked against the row's range,
 * and run's [run] keys and flags come from the same rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_options.h"
#include "run_options.h"
#include "run_values.h"
#include "report_plot.h"
#include "select.h"
#include "testlib.h"

enum { ALL_COMMANDS = (HOST_NEW_PLUGIN << 1) - 1 };

/* A flag name (or short spelling) is one row, whichever commands take it;
 * a key of [run] alone (no flag) may share its name with a flag of
 * commands that read no [run]. An old spelling is no row's flag in its
 * commands. */
static void one_meaning_per_name(void)
{
    char a[80], b[80];
    for (int i = 0; i < OPT_COUNT; i++) {
        const spmvlab_flag *r = &host_options[i];
        TEST_CHECK(r->opt.key != NULL);
        spmvlab_flag_name(r, a, sizeof a);
        for (int j = i + 1; j < OPT_COUNT; j++) {
            const spmvlab_flag *q = &host_options[j];
            spmvlab_flag_name(q, b, sizeof b);
            int flags = !(r->flags & SPMVLAB_FLAG_INI_ONLY) && !(q->flags & SPMVLAB_FLAG_INI_ONLY);
            int same = strcmp(a, b) == 0 || (r->alias && q->alias && strcmp(r->alias, q->alias) == 0);
            if (same && (flags || (r->commands & q->commands)))
                fprintf(stderr, "rows %d and %d are both %s\n", i, j, a);
            TEST_CHECK(!same || (!flags && !(r->commands & q->commands)));
        }
        for (const spmvlab_flag_alias *o = host_option_aliases; o->old; o++)
            TEST_CHECK(strcmp(o->old, a) != 0 || !(o->commands & r->commands));
    }
    TEST_CHECK(host_options[OPT_COUNT].opt.key == NULL);
}

/* Every row belongs to a command, names its value or is a switch, and a
 * default it shows parses as its type. */
static void every_row_is_usable(void)
{
    for (int i = 0; i < OPT_COUNT; i++) {
        const spmvlab_flag *r = &host_options[i];
        TEST_CHECK(r->commands && !(r->commands & ~(unsigned)ALL_COMMANDS));
        TEST_CHECK(r->opt.help && r->opt.help[0]);
        TEST_CHECK(r->meta || r->opt.type == SPMVLAB_OPT_BOOL);
        spmvlab_opt_value v;
        if (r->opt.def && r->opt.def[0])
            TEST_CHECK(spmvlab_option_parse(&r->opt, r->opt.def, &v) == SPMVLAB_OPT_FINE);
        for (const char *k = r->opt.key; *k; k++)
            TEST_CHECK((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_');
    }
}

/* Reads argv (a NULL-ended list) for command; returns the reader's code. */
static int read_line(spmvlab_flags *f, unsigned command, const char *const *args, spmvlab_err *err)
{
    int argc = 0;
    while (args[argc])
        argc++;
    host_options_init(f, command, "spmvlab test");
    return spmvlab_flags_parse(f, argc, (char **)args, err);
}

static void flags_values_and_operands(void)
{
    spmvlab_flags f;
    spmvlab_err err;
    const char *line[] = {"run", "--reps=3", "-o", "r.csv", "--isolate", "a.mtx", "--", "--b.mtx", NULL};
    TEST_CHECK(read_line(&f, HOST_RUN, line, &err) == SPMVLAB_FLAGS_GO);
    TEST_CHECK(spmvlab_flags_last(&f, OPT_REPS) && spmvlab_flags_last(&f, OPT_REPS)->v.i == 3);
    TEST_CHECK(strcmp(spmvlab_flags_text(&f, OPT_OUTPUT), "r.csv") == 0);
    TEST_CHECK(spmvlab_flags_given(&f, OPT_ISOLATE) == 1 && spmvlab_flags_last(&f, OPT_ISOLATE)->v.i == 1);
    TEST_CHECK(strcmp(spmvlab_flags_text(&f, OPT_WARMUP), "10") == 0); /* the default */
    TEST_CHECK(f.noperands == 2 && strcmp(f.operands[1], "--b.mtx") == 0);
    spmvlab_flags_free(&f);

    const char *help[] = {"merge", "--help=markdown", NULL};
    TEST_CHECK(read_line(&f, HOST_MERGE, help, &err) == SPMVLAB_FLAGS_MARKDOWN);
    spmvlab_flags_free(&f);
}

/* A bad line is refused with one sentence naming the cause. */
static void refusals_name_the_cause(void)
{
    static const struct {
        unsigned command;
        const char *args[5];
        const char *says;
    } cases[] = {
        {HOST_RUN, {"run", "--reps", "0"}, "--reps '0' is invalid: expected an integer from 1 to 100000000"},
        {HOST_REPORT, {"report", "--table", "html", "r.csv"}, "--table 'html' is invalid: expected one of md|tex"},
        {HOST_RUN, {"run", "--isolate=yes"}, "--isolate is a switch and takes no value"},
        {HOST_CHECK, {"check", "csr", "--seeed", "3"},
         "unknown option '--seeed' (did you mean '--seed'?); see spmvlab test --help"},
        {HOST_LIST, {"list", "--reps", "3"}, "unknown option '--reps'"}, /* a flag of another command */
        {HOST_RUN, {"run", "-p"}, "-p needs a value; see spmvlab test --help"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        spmvlab_flags f;
        spmvlab_err err;
        TEST_CHECK(read_line(&f, cases[k].command, cases[k].args, &err) == -1);
        TEST_CONTAINS(err.msg, cases[k].says);
        spmvlab_flags_free(&f);
    }
}

/* --set's three jobs, check's --timeout and --dtype, info's --device. */
static void old_spellings_reach_their_rows(void)
{
    static const struct {
        unsigned command;
        const char *flag, *value;
        int row;
    } cases[] = {
        {HOST_RUN, "--set", "csr.kernel=scalar", OPT_OPTION}, {HOST_TUNE, "--set", "small", OPT_MATRIX_SET},
        {HOST_CHECK, "--set", "kernel=scalar", OPT_OPTION},   {HOST_GEN, "--set", "small", OPT_MATRIX_SET},
        {HOST_SELECT, "--set", "f.ini", OPT_FAMILIES},        {HOST_CHECK, "--timeout", "5", OPT_CHECK_TIMEOUT},
        {HOST_CHECK, "--dtype", "f32", OPT_CHECK_DTYPE},      {HOST_RUN, "--timeout", "5", OPT_TIMEOUT},
        {HOST_RUN, "--dtype", "f32", OPT_DTYPE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        spmvlab_flags f;
        spmvlab_err err;
        const char *line[] = {"cmd", cases[k].flag, cases[k].value, NULL};
        TEST_CHECK(read_line(&f, cases[k].command, line, &err) == SPMVLAB_FLAGS_GO);
        TEST_CHECK(f.nuses == 1 && f.uses[0].row == cases[k].row);
        spmvlab_flags_free(&f);
    }
    spmvlab_flags f;
    spmvlab_err err;
    const char *info[] = {"info", "--device", NULL};
    TEST_CHECK(read_line(&f, HOST_INFO, info, &err) == SPMVLAB_FLAGS_GO);
    TEST_CHECK(spmvlab_flags_given(&f, OPT_CEILINGS) == 1);
    spmvlab_flags_free(&f);
    /* the old key of [run] too */
    host_options_init(&f, HOST_RUN, "spmvlab run");
    TEST_CHECK(spmvlab_flags_ini_row(&f, "run", "set", "a.ini", 3, &err) == OPT_MATRIX_SET);
    TEST_CHECK(spmvlab_flags_ini_row(&f, "run", "rep", "a.ini", 4, &err) == -1);
    TEST_CONTAINS(err.msg, "a.ini:4: unknown key 'rep' (did you mean 'reps'?) in [run]; known: plugins, matrices,");
    /* a flag that is no [run] key */
    TEST_CHECK(spmvlab_flags_ini_row(&f, "run", "config", "a.ini", 5, &err) == -1);
}

/* run --devices passes flags on to its workers by how many values each takes. */
static void workers_know_the_values(void)
{
    TEST_CHECK(run_flag_values("--reps") == 1);
    TEST_CHECK(run_flag_values("--isolate") == 0);
    TEST_CHECK(run_flag_values("--set") == 1);
    TEST_CHECK(run_flag_values("-o") == 1);
    TEST_CHECK(run_flag_values("--nope") == -1);
}

/* Every row run and tune take has a place in run_settings. */
static void every_run_row_has_a_place(void)
{
    for (int k = 0; k < OPT_COUNT; k++) {
        if (!(host_options[k].commands & (HOST_RUN | HOST_TUNE)))
            continue;
        run_settings s;
        spmvlab_err err = {{0}};
        memset(&s, 0, sizeof s);
        spmvlab_flag_use u = {k, host_options[k].opt.def, {0}, NULL, 0};
        spmvlab_option_parse(&host_options[k].opt, u.text, &u.v);
        u.v.s = u.text;
        if (run_store(&s, &u, &err))
            TEST_CHECK(strstr(err.msg, "is no setting of run") == NULL);
        run_settings_free(&s);
    }
    run_settings s;
    spmvlab_err err;
    memset(&s, 0, sizeof s);
    spmvlab_flag_use other = {OPT_K, "7", {0}, NULL, 0};
    TEST_CHECK(run_store(&s, &other, &err) == -1);
    TEST_CONTAINS(err.msg, "k is no setting of run");
}

/* A [run] file's values are typed by the same rows as the flags. */
static void run_reads_its_ini_by_the_table(void)
{
    char dir[] = "/tmp/spmvlab-test-flags-XXXXXX", ini[4200];
    if (!mkdtemp(dir))
        return;
    snprintf(ini, sizeof ini, "%s/run.ini", dir);
    FILE *fp = fopen(ini, "w");
    if (!fp)
        return;
    fprintf(fp, "[run]\nreps = 7\ntiming = single\nflush_l2 = yes\nmatrix_set = small\n[csr]\n");
    fclose(fp);
    char *argv[] = {"run", "-c", ini, "--reps", "9", NULL};
    run_settings s;
    spmvlab_config cfg;
    spmvlab_err err;
    memset(&cfg, 0, sizeof cfg);
    TEST_CHECK(run_settings_parse(&s, &cfg, RUN_MODE_RUN, 5, argv, &err) == 0);
    TEST_CHECK(s.reps == 9);                     /* the flag wins */
    TEST_CHECK(s.timing == RUN_TIMING_SINGLE && s.flush_l2 == 1);
    TEST_CHECK(s.nset_names == 1 && strcmp(s.set_names[0], "small") == 0);
    TEST_CHECK(s.warmup == 10 && s.timeout_s == 120 && s.ndtypes == 1); /* the table's defaults */
    TEST_CHECK(strcmp(s.labels, "csr") == 0);
    run_settings_free(&s);
    spmvlab_config_free(&cfg);
    fp = fopen(ini, "w");
    if (fp) {
        fprintf(fp, "[run]\nnoise = 2\n[csr]\n");
        fclose(fp);
    }
    memset(&cfg, 0, sizeof cfg);
    char *bad[] = {"run", "-c", ini, "x.mtx", NULL};
    TEST_CHECK(run_settings_parse(&s, &cfg, RUN_MODE_RUN, 4, bad, &err) == -1);
    TEST_CONTAINS(err.msg, "run.ini:2: [run] noise = '2' is invalid: expected a number from 0 to 1");
    run_settings_free(&s);
    spmvlab_config_free(&cfg);
    remove(ini);
    rmdir(dir);
}

/* The value a row's default text gives. */
static double default_of(int row)
{
    spmvlab_opt_value v;
    TEST_CHECK(spmvlab_option_parse(&host_options[row].opt, host_options[row].opt.def, &v) == SPMVLAB_OPT_FINE);
    return v.f;
}

/* select's rules as --help states them are the selector's own defaults
 * and limits (select_params_default, select.h). */
static void select_defaults_agree(void)
{
    select_params p;
    select_params_default(&p);
    TEST_CHECK(default_of(OPT_K) == p.k && host_options[OPT_K].opt.max == SELECT_MAX_K);
    TEST_CHECK(default_of(OPT_WEIGHT_POWER) == p.distance_power);
    TEST_CHECK(default_of(OPT_MIN_SUPPORT) == p.min_support);
    TEST_CHECK(default_of(OPT_MARGIN) == p.margin);
    TEST_CHECK(default_of(OPT_MEASURE) == p.measure && host_options[OPT_MEASURE].opt.max == SELECT_MAX_CANDIDATES - 1);
    char weights[200] = "";
    for (int d = 0; d < SPMVLAB_FEATURE_COUNT; d++)
        snprintf(weights + strlen(weights), sizeof weights - strlen(weights), "%s%g", d ? "," : "", p.feature_weight[d]);
    TEST_CHECK(strcmp(host_options[OPT_FEATURE_WEIGHTS].opt.def, weights) == 0);
}

/* report's image size and font as --help states them are the plots' own. */
static void report_defaults_agree(void)
{
    static const report_style def = REPORT_STYLE_DEFAULT;
    char size[40];
    snprintf(size, sizeof size, "%d,%d", def.width, def.height);
    TEST_CHECK(strcmp(host_options[OPT_SIZE].opt.def, size) == 0);
    TEST_CHECK(default_of(OPT_FONT_SIZE) == def.font);
}

int main(void)
{
    one_meaning_per_name();
    every_row_is_usable();
    flags_values_and_operands();
    refusals_name_the_cause();
    old_spellings_reach_their_rows();
    workers_know_the_values();
    every_run_row_has_a_place();
    run_reads_its_ini_by_the_table();
    select_defaults_agree();
    report_defaults_agree();
    return test_done("test_flags");
}
