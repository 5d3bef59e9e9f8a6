/*
 * The options of bcsr: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "bcsr.h"

const spmvlab_option bcsr_options[] = {
    SPMVLAB_OPTION(bcsr_opts, r, SPMVLAB_OPT_INT_AUTO, "auto", "1..8", "rows of a block; auto: the shape with the fewest device bytes"),
    SPMVLAB_OPTION(bcsr_opts, c, SPMVLAB_OPT_INT_AUTO, "auto", "1..8", "columns of a block; auto: the shape with the fewest device bytes"),
    SPMVLAB_OPTION(bcsr_opts, max_fill, SPMVLAB_OPT_FLOAT, "1.5", "1..64", "keep a block when r*c <= max_fill * its entries; the rest go to the CSR remainder"),
    SPMVLAB_OPTION(bcsr_opts, min_saving, SPMVLAB_OPT_FLOAT, "0.1", "0..0.9", "auto refuses (limit) unless its shape saves this share of plain CSR's device bytes"),
    SPMVLAB_OPTION(bcsr_opts, kernel, SPMVLAB_OPT_ENUM, "auto", "", "the SpMV kernel (the rule in README.md)"),
    SPMVLAB_CHOICE(bcsr_opts, kernel, BCSR_KERNEL_AUTO, "auto", "", "slice unless its padding or the remainder costs too much"),
    SPMVLAB_CHOICE(bcsr_opts, kernel, BCSR_KERNEL_WARP, "warp", "", "a warp per block row"),
    SPMVLAB_CHOICE(bcsr_opts, kernel, BCSR_KERNEL_SLICE, "slice", "", "a lane per row, block rows interleaved in slices"),
    SPMVLAB_OPTION(bcsr_opts, x_share, SPMVLAB_OPT_BOOL, "false", "", "slice kernel with r >= c > 1: a block row's lanes load a block's x once and share it"),
    SPMVLAB_KEYED_OPTION(bcsr_opts, "x_window", x_window, SPMVLAB_OPT_BOOL, "false", "", "slice kernel: each thread block stages the x its blocks read in shared memory (at most 48 KiB)", SPMVLAB_OPT_EXPERT),
    SPMVLAB_OPTION(bcsr_opts, values, SPMVLAB_OPT_ENUM, "native", "", "how the values are stored (all lossless)"),
    SPMVLAB_CHOICE(bcsr_opts, values, SPMVLAB_VALUES_NATIVE, "native", "", "values in the run's dtype"),
    SPMVLAB_CHOICE(bcsr_opts, values, SPMVLAB_VALUES_INDEXED, "indexed", "", SPMVLAB_VALUES_INDEXED_HELP),
    SPMVLAB_CHOICE(bcsr_opts, values, SPMVLAB_VALUES_PATTERN, "pattern", "", SPMVLAB_VALUES_PATTERN_HELP " (full blocks)"),
    SPMVLAB_CHOICE(bcsr_opts, values, SPMVLAB_VALUES_AUTO, "auto", "", SPMVLAB_VALUES_AUTO_HELP),
    SPMVLAB_CODE_BITS_OPTION(bcsr_opts, "whole bytes (4 bits gained nothing on the corpus)"),
    {NULL},
};
