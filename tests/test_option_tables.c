/*
 * Option tables a user can hold in mind: every in-tree plugin (a folder of
 * plugins/ with a <name>.c) shows at most 8 options in `spmvlab list -v`
 * (the rest marked expert), every help fits 120 characters, and every enum
 * declares its choices as rows. Also the engine's side of choice rows, on
 * the test plugin probe: the member gets the row's value, not a position.
 */
#include <dirent.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"

#define SHOWN_MAX 8
#define HELP_MAX 120

/* The figures for one loaded plugin. */
static void check_table(const spmvlab_plugin *p)
{
    int shown = 0;
    for (const spmvlab_option *o = p->options; o && o->key; o++) {
        size_t help = o->help ? strlen(o->help) : 0;
        if (help == 0 || help > HELP_MAX) {
            fprintf(stderr, "%s: option or choice %s has a help of %zu characters (1 to %d)\n", p->name, o->key,
                    help, HELP_MAX);
            test_failures++;
        }
        if (o->type == SPMVLAB_OPT_CONST)
            continue;
        shown += !(o->flags & SPMVLAB_OPT_EXPERT);
        if (o->type == SPMVLAB_OPT_ENUM && (o->choices || o[1].type != SPMVLAB_OPT_CONST)) {
            fprintf(stderr, "%s: enum option %s lists its choices as text, not as choice rows\n", p->name, o->key);
            test_failures++;
        }
    }
    if (shown > SHOWN_MAX) {
        fprintf(stderr, "%s: %d options shown by list -v, at most %d (mark the rest expert)\n", p->name, shown,
                SHOWN_MAX);
        test_failures++;
    }
}

/* Every folder of plugins/ with a <name>.c, loaded from the build tree. */
static void in_tree_plugins_fit_the_figures(void)
{
    const char *tests = getenv("SPMVLAB_TESTS_DIR");
    char root[PATH_MAX], source[2 * PATH_MAX + 300];
    snprintf(root, sizeof root, "%s/../plugins", tests ? tests : "tests");
    DIR *d = opendir(root);
    TEST_CHECK(d != NULL);
    if (!d)
        return;
    spmvlab_registry *r = spmvlab_registry_new();
    int checked = 0;
    for (struct dirent *e; (e = readdir(d));) {
        snprintf(source, sizeof source, "%s/%s/%s.c", root, e->d_name, e->d_name);
        if (e->d_name[0] == '.' || access(source, R_OK) != 0)
            continue;
        spmvlab_err err = {{0}};
        const spmvlab_loaded *l = spmvlab_registry_get(r, e->d_name, &err);
        if (!l) {
            fprintf(stderr, "plugin %s did not load: %s\n", e->d_name, err.msg);
            test_failures++;
            continue;
        }
        check_table(l->desc);
        checked++;
    }
    closedir(d);
    printf("checked the option tables of %d in-tree plugins\n", checked);
    TEST_CHECK(checked >= 12);
    spmvlab_registry_free(r);
}

/* probe's level: choice rows low = 10, high = 20 (its table is the old,
 * positional kind otherwise). */
static void choice_rows_give_their_value(void)
{
    const char *dir = getenv("SPMVLAB_TEST_PLUGIN_DIR");
    spmvlab_registry *r = spmvlab_registry_new();
    if (dir)
        spmvlab_registry_add_dir(r, dir);
    spmvlab_err err = {{0}};
    const spmvlab_loaded *l = spmvlab_registry_get(r, "probe", &err);
    TEST_CHECK(l != NULL);
    if (!l) {
        spmvlab_registry_free(r);
        return;
    }
    spmvlab_optset o;
    TEST_CHECK(spmvlab_optset_init(&o, l->desc, &err) == 0);
    TEST_CHECK(spmvlab_opt_int(&o.opts, "level") == 10);
    TEST_CHECK(spmvlab_optset_set(&o, "probe", "level", "high", &err) == 0);
    TEST_CHECK(spmvlab_opt_int(&o.opts, "level") == 20);
    TEST_CHECK(strcmp(spmvlab_opt_str(&o.opts, "level"), "high") == 0);
    TEST_CHECK(spmvlab_opt(&o.opts, "high") == NULL); /* a choice is not an option */
    TEST_CHECK(spmvlab_optset_set(&o, "probe", "level", "medium", &err) == -1);
    TEST_CONTAINS(err.msg, "option probe.level = 'medium' is invalid: expected one of low|high");
    TEST_CHECK(spmvlab_optset_set(&o, "probe", "mode", "slow", &err) == 0);
    TEST_CHECK(spmvlab_opt_int(&o.opts, "mode") == 1); /* choices text: the position */
    spmvlab_optset_free(&o);
    spmvlab_registry_free(r);
}

typedef struct range_opts {
    int n;
    double share;
} range_opts;

/* Adopts a one-option table (row range text, type) and returns 0 or -1. */
static int adopt_range(spmvlab_opt_type type, const char *range, double *min, double *max, spmvlab_err *err)
{
    spmvlab_option rows[] = {
        {"n", type, "1", 0, 0, NULL, "a count", SPMVLAB_FIELD(range_opts, n), NULL, 0, 0, range},
        {NULL},
    };
    if (type == SPMVLAB_OPT_FLOAT) /* a double member */
        rows[0].field_offset = offsetof(range_opts, share), rows[0].field_size = sizeof(double);
    spmvlab_plugin d = {.abi_major = SPMVLAB_ABI_MAJOR, .abi_minor = SPMVLAB_ABI_MINOR,
                        .struct_size = sizeof d, .option_row_size = sizeof(spmvlab_option),
                        .options = rows, .options_size = sizeof(range_opts)};
    spmvlab_option *owned = NULL;
    int rc = spmvlab_option_table_adopt(&d, "ranges.so", &owned, err);
    if (rc == 0) {
        *min = d.options[0].min;
        *max = d.options[0].max;
    }
    free(owned);
    return rc;
}

/* Range text is read into min and max when the table is adopted, and a
 * malformed one is refused by name. */
static void range_text_is_read_or_refused(void)
{
    spmvlab_err err = {{0}};
    double lo = -1, hi = -1;
    TEST_CHECK(adopt_range(SPMVLAB_OPT_INT, "1..8", &lo, &hi, &err) == 0 && lo == 1 && hi == 8);
    TEST_CHECK(adopt_range(SPMVLAB_OPT_FLOAT, "0.5..1e6", &lo, &hi, &err) == 0 && lo == 0.5 && hi == 1e6);
    TEST_CHECK(adopt_range(SPMVLAB_OPT_INT_AUTO, "-4..-2", &lo, &hi, &err) == 0 && lo == -4 && hi == -2);
    const char *bad[] = {"8..1", "1..", "..8", "1-8", "1..8x", "a..b", "1...8"};
    for (int k = 0; k < 7; k++) {
        TEST_CHECK(adopt_range(SPMVLAB_OPT_INT, bad[k], &lo, &hi, &err) == -1);
        TEST_CONTAINS(err.msg, "refusing plugin ranges.so: option n has range");
    }
    TEST_CHECK(adopt_range(SPMVLAB_OPT_BOOL, "0..1", &lo, &hi, &err) == -1); /* a bool has no range */
    TEST_CHECK(adopt_range(SPMVLAB_OPT_INT, "", &lo, &hi, &err) == 0);       /* no text: min and max as set */
}

int main(void)
{
    in_tree_plugins_fit_the_figures();
    choice_rows_give_their_value();
    range_text_is_read_or_refused();
    return test_done("test_option_tables");
}
