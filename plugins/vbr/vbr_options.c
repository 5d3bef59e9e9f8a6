/*
 * The options of vbr: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "vbr.h"

const spmvlab_option vbr_options[] = {
    SPMVLAB_OPTION(vbr_opts, max_bytes_ratio, SPMVLAB_OPT_FLOAT, VBR_TEXT(VBR_MIN_SAVING), "0..4", "refuse (limit) unless vbr's bytes per non-zero are at most this times CSR's; 4: never"),
    SPMVLAB_OPTION(vbr_opts, min_block_rows, SPMVLAB_OPT_INT, "16384", "0..2147483647", "refuse (limit) a matrix of fewer block rows (too few to fill the device); 0: off"),
    SPMVLAB_OPTION(vbr_opts, min_block_entries, SPMVLAB_OPT_FLOAT, "4.1", "0..1000000", "refuse (limit) when the blocks hold at most this many entries on average (no dense blocks); 0: off"),
    SPMVLAB_OPTION(vbr_opts, values, SPMVLAB_OPT_ENUM, "native", "", "how the block and remainder values are stored"),
    SPMVLAB_CHOICE(vbr_opts, values, VBR_VALUES_NATIVE, "native", "", "in the run's dtype"),
    SPMVLAB_CHOICE(vbr_opts, values, VBR_VALUES_F32, "f32", "", "f32 for an f64 run (declared; computes in f64)"),
    SPMVLAB_CHOICE(vbr_opts, values, SPMVLAB_VALUES_INDEXED, "indexed", "", SPMVLAB_VALUES_INDEXED_HELP " (blocks; remainder native)"),
    SPMVLAB_CHOICE(vbr_opts, values, SPMVLAB_VALUES_PATTERN, "pattern", "", SPMVLAB_VALUES_PATTERN_HELP " (blocks; remainder native)"),
    SPMVLAB_CHOICE(vbr_opts, values, SPMVLAB_VALUES_AUTO, "auto", "", SPMVLAB_VALUES_AUTO_HELP),
    SPMVLAB_OPTION(vbr_opts, remainder, SPMVLAB_OPT_ENUM, "auto", "", "how the CSR remainder is summed"),
    SPMVLAB_CHOICE(vbr_opts, remainder, VBR_REM_AUTO, "auto", "", "merge when the remainder's row lengths vary (std/mean > 1) or a row passes 8192, else vector"),
    SPMVLAB_CHOICE(vbr_opts, remainder, VBR_REM_VECTOR, "vector", "", "rem_lanes lanes a row, beside the block kernel"),
    SPMVLAB_CHOICE(vbr_opts, remainder, VBR_REM_MERGE, "merge", "", "load-balanced merge-path CSR of all rows first; the block kernel then adds its rows"),
    SPMVLAB_EXPERT(vbr_opts, min_height, SPMVLAB_OPT_INT, "1", "1..1024", "rows of one column pattern a block row needs; 1: every short row (pure 1D-VBL)"),
    SPMVLAB_EXPERT(vbr_opts, rem_lanes, SPMVLAB_OPT_INT_AUTO, "auto", "1..32", "lanes per remainder row, a power of two; auto: from the remainder's mean row length"),
    SPMVLAB_EXPERT(vbr_opts, steps, SPMVLAB_OPT_INT, "4", "2..8", "block kernel: steps (value and x loads) a lane issues per iteration: 2, 4 or 8"),
    {NULL},
};
