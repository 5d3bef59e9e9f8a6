/* spmvlab list [-v [--all]] [--plugin-dir DIR]: the plugins found and their
 * options; expert options only with --all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "host_options.h"
#include "spmvlab/core.h"

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const spmvlab_loaded *const *)a)->desc->name, (*(const spmvlab_loaded *const *)b)->desc->name);
}

static void print_refusal(const char *path, const char *why, void *arg)
{
    (void)path;
    int *refused = arg;
    (*refused)++;
    fprintf(stderr, "spmvlab list: %s.\n", why);
}

static const char *type_name(spmvlab_opt_type t)
{
    static const char *const names[] = {"int", "float", "bool", "enum", "string", "int|auto", "const"};
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "?";
}

/* One option row, then its choice rows indented under it. */
static void print_option(const spmvlab_option *o)
{
    char range[160] = "";
    if (o->type == SPMVLAB_OPT_ENUM)
        spmvlab_option_choices(o, range, sizeof range);
    else if (o->type == SPMVLAB_OPT_INT || o->type == SPMVLAB_OPT_INT_AUTO)
        snprintf(range, sizeof range, "%.0f..%.0f", o->min, o->max);
    else if (o->type == SPMVLAB_OPT_FLOAT)
        snprintf(range, sizeof range, "%g..%g", o->min, o->max);
    printf("    %-16s %-8s default %-10s %-18s %s%s\n", o->key, type_name(o->type), o->def ? o->def : "", range,
           o->flags & SPMVLAB_OPT_EXPERT ? "(expert) " : "", o->help ? o->help : "");
    for (const spmvlab_option *c = o + 1; o->type == SPMVLAB_OPT_ENUM && c->key && c->type == SPMVLAB_OPT_CONST; c++)
        printf("        %-14s %s\n", c->key, c->help ? c->help : "");
}

/* The plugin's options, expert ones only when all is set; says how many
 * were left out. */
static void print_options(const spmvlab_plugin *p, int all)
{
    if (!p->options || !p->options[0].key) {
        printf("    (no options)\n");
        return;
    }
    int hidden = 0;
    for (const spmvlab_option *o = p->options; o->key; o++) {
        if (o->type == SPMVLAB_OPT_CONST)
            continue;
        if ((o->flags & SPMVLAB_OPT_EXPERT) && !all)
            hidden++;
        else
            print_option(o);
    }
    if (hidden)
        printf("    (%d expert option%s: spmvlab list -v --all)\n", hidden, hidden == 1 ? "" : "s");
}

static const char intro[] =
    "usage: spmvlab list [-v [--all]] [--plugin-dir DIR]\n"
    "Lists the plugins on the search path (--plugin-dir, SPMVLAB_PLUGIN_PATH, the build\n"
    "tree, the install folder); -v adds the options with type, default, range, help and\n"
    "choices; --all adds the expert ones (settable either way).\n";

int cmd_list(int argc, char **argv)
{
    spmvlab_flags f;
    host_options_init(&f, HOST_LIST, "spmvlab list");
    int rc = host_options_read(&f, argc, argv, intro);
    if (!rc && f.noperands) {
        fprintf(stderr, "spmvlab list: unexpected argument '%s'; see spmvlab list --help.\n", f.operands[0]);
        rc = -1;
    }
    int verbose = spmvlab_flags_given(&f, OPT_VERBOSE) > 0, all = spmvlab_flags_given(&f, OPT_ALL) > 0;
    spmvlab_registry *reg = spmvlab_registry_new();
    int at = 0;
    for (const spmvlab_flag_use *u; (u = spmvlab_flags_next(&f, OPT_PLUGIN_DIR, &at));)
        spmvlab_registry_add_dir(reg, u->text);
    spmvlab_flags_free(&f);
    if (rc) {
        spmvlab_registry_free(reg);
        return rc > 0 ? EXIT_OK : EXIT_USAGE;
    }
    int refused = 0;
    spmvlab_registry_scan(reg, print_refusal, &refused);
    int n = spmvlab_registry_count(reg);
    if (n == 0) {
        char sp[2048];
        spmvlab_registry_search_path(reg, sp, sizeof sp);
        fprintf(stderr, "spmvlab list: no plugins found on the search path %s.\n", sp);
        spmvlab_registry_free(reg);
        return refused ? EXIT_FAILED : EXIT_USAGE;
    }
    const spmvlab_loaded *sorted[256];
    if (n > 256)
        n = 256;
    for (int i = 0; i < n; i++)
        sorted[i] = spmvlab_registry_at(reg, i);
    qsort(sorted, (size_t)n, sizeof *sorted, by_name);
    for (int i = 0; i < n; i++) {
        const spmvlab_loaded *l = sorted[i];
        const spmvlab_plugin *p = l->desc;
        char dtypes[32] = "";
        for (int d = 0; d < 3; d++)
            if (p->dtypes & SPMVLAB_DTYPE_BIT(d))
                snprintf(dtypes + strlen(dtypes), sizeof dtypes - strlen(dtypes), "%s%s", dtypes[0] ? "," : "",
                         spmvlab_dtype_name((spmvlab_dtype)d));
        printf("%-10s %-12s %s\n", p->name, dtypes, p->summary);
        if (verbose) {
            printf("    version %s, ABI %u.%u, %s\n    reference: %s\n", p->version, p->abi_major, p->abi_minor,
                   l->path, p->reference);
            print_options(p, all);
            printf("\n");
        }
    }
    spmvlab_registry_free(reg);
    /* A plugin the loader refuses is a failure of what was examined (1). */
    return refused ? EXIT_FAILED : EXIT_OK;
}
