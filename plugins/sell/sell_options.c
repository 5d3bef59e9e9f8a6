/*
 * The options of sell: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "sell_format.h"

const spmvlab_option sell_options[] = {
    SPMVLAB_OPTION(sell_opts, C, SPMVLAB_OPT_INT_AUTO, "auto", "1..4096", "rows per slice: divides 32 or is a multiple of it; auto: 1 when 8 or more lanes share a row, else 32"),
    SPMVLAB_OPTION(sell_opts, sigma, SPMVLAB_OPT_INT_AUTO, "auto", "1..2147483647", "sorting window in rows: 1 (none), a multiple of C, >= 2^30 (global); auto: see README.md"),
    SPMVLAB_OPTION(sell_opts, threads_per_row, SPMVLAB_OPT_INT_AUTO, "auto", "1..32", "lanes sharing one row (1, 2, 4, ..., 32); auto: from the mean slice width (README.md)"),
    SPMVLAB_OPTION(sell_opts, long_row, SPMVLAB_OPT_INT_AUTO, "auto", "1..2147483647", "rows longer than this take the warp-per-piece path; auto: max(64, 4 x mean row length)"),
    SPMVLAB_OPTION(sell_opts, index, SPMVLAB_OPT_ENUM, "auto", "", "column indices of the slices"),
    SPMVLAB_CHOICE(sell_opts, index, SELL_INDEX_AUTO, "auto", "", "16 when such slices hold at least half the slots, else 32"),
    SPMVLAB_CHOICE(sell_opts, index, SELL_INDEX_32, "32", "", "32-bit column indices"),
    SPMVLAB_CHOICE(sell_opts, index, SELL_INDEX_16, "16", "", "16-bit offsets from a base where the columns span at most 65534"),
    SPMVLAB_OPTION(sell_opts, index_base, SPMVLAB_OPT_ENUM, "auto", "", "what one 32-bit base of 16-bit offsets covers"),
    SPMVLAB_CHOICE(sell_opts, index_base, SELL_BASE_AUTO, "auto", "", "column when that saves more than 1/4 byte a slot"),
    SPMVLAB_CHOICE(sell_opts, index_base, SELL_BASE_SLICE, "slice", "", "one base a slice"),
    SPMVLAB_CHOICE(sell_opts, index_base, SELL_BASE_COLUMN, "column", "", "one base per slot column of a slice"),
    SPMVLAB_OPTION(sell_opts, values, SPMVLAB_OPT_ENUM, "native", "", "value storage of the slices"),
    SPMVLAB_CHOICE(sell_opts, values, SELL_VALUES_NATIVE, "native", "", "values in the run's dtype"),
    SPMVLAB_CHOICE(sell_opts, values, SELL_VALUES_F32, "f32", "", "f32 values for an f64 run; x, y and the adds stay f64"),
    SPMVLAB_CHOICE(sell_opts, values, SPMVLAB_VALUES_INDEXED, "indexed", "", SPMVLAB_VALUES_INDEXED_HELP " (slices; long rows native)"),
    SPMVLAB_CHOICE(sell_opts, values, SPMVLAB_VALUES_PATTERN, "pattern", "", SPMVLAB_VALUES_PATTERN_HELP),
    SPMVLAB_CHOICE(sell_opts, values, SPMVLAB_VALUES_AUTO, "auto", "", SPMVLAB_VALUES_AUTO_HELP),
    SPMVLAB_OPTION(sell_opts, loads, SPMVLAB_OPT_ENUM, "auto", "", "how the slices' columns and values are loaded"),
    SPMVLAB_CHOICE(sell_opts, loads, SELL_LOADS_AUTO, "auto", "", "streaming with one lane a row where a product moves 3/4 of the L2 or more, else cached"),
    SPMVLAB_CHOICE(sell_opts, loads, SELL_LOADS_CACHED, "cached", "", "through L1 (the read-only path)"),
    SPMVLAB_CHOICE(sell_opts, loads, SELL_LOADS_STREAMING, "streaming", "", "past L1 (evict-first), so that x keeps L1; one lane a row only"),
    {NULL},
};
