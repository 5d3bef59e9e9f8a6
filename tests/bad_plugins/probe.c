/* Test plugin: a correct plain-CSR plugin (CPU only) whose option table has
 * one option of every type and a cross-option check, so the configuration
 * tests can exercise validation without depending on a real format. Its
 * rows are positional, but for level, an enum with choice rows
 * whose values are not their positions. */
#include <stdio.h>

#include "bad_common.h"

static const spmvlab_option options[] = {
    {"count", SPMVLAB_OPT_INT, "4", 1, 64, NULL, "an integer from 1 to 64", 0, 0, NULL, 0, 0, NULL},
    {"ratio", SPMVLAB_OPT_FLOAT, "0.5", 0, 1, NULL, "a number from 0 to 1", 0, 0, NULL, 0, 0, NULL},
    {"flag", SPMVLAB_OPT_BOOL, "false", 0, 0, NULL, "a switch", 0, 0, NULL, 0, 0, NULL},
    {"mode", SPMVLAB_OPT_ENUM, "fast", 0, 0, "fast|slow|auto", "one of three words", 0, 0, NULL, 0, 0, NULL},
    {"tag", SPMVLAB_OPT_STRING, "none", 0, 0, NULL, "free text (commas included)", 0, 0, NULL, 0, 0, NULL},
    {"width", SPMVLAB_OPT_INT_AUTO, "auto", 1, 32, NULL, "auto or 1 to 32, at most count", 0, 0, NULL, 0, 0, NULL},
    {.key = "level", .type = SPMVLAB_OPT_ENUM, .def = "low", .help = "one of two choice rows"},
    {.key = "low", .type = SPMVLAB_OPT_CONST, .help = "the value 10", .unit = "level", .value = 10},
    {.key = "high", .type = SPMVLAB_OPT_CONST, .help = "the value 20", .unit = "level", .value = 20},
    {NULL},
};

static spmvlab_status probe_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    long long w = spmvlab_opt_int(opts, "width"), c = spmvlab_opt_int(opts, "count");
    if (!spmvlab_opt_is_auto(opts, "width") && w > c) {
        snprintf(err->msg, sizeof err->msg, "probe option width = %lld exceeds count = %lld", w, c);
        return SPMVLAB_INVALID_OPTION;
    }
    return SPMVLAB_OK;
}

static void probe_describe(const void *fmt, char *buf, size_t len)
{
    const plain_format *f = fmt;
    snprintf(buf, len, "rows=%d nnz=%d", f->rows, f->nnz);
}

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("probe", "plain CSR on the CPU with one option of every type"),
    .options = options,
    .check_options = probe_check_options,
    PLAIN_FUNCTIONS,
    .describe = probe_describe,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
