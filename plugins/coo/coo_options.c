/*
 * The options of coo: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "coo.h"

const spmvlab_option coo_options[] = {
    SPMVLAB_OPTION(coo_opts, kernel, SPMVLAB_OPT_ENUM, "auto", "", "the SpMV kernel (the auto rule in README.md)"),
    SPMVLAB_CHOICE(coo_opts, kernel, COO_KERNEL_BLOCKED, "blocked", "", "items consecutive entries a lane, a warp scan per tile"),
    SPMVLAB_CHOICE(coo_opts, kernel, COO_KERNEL_SEGMENTED, "segmented", "", "a warp scan per 32 entries"),
    SPMVLAB_CHOICE(coo_opts, kernel, COO_KERNEL_ATOMIC, "atomic", "", "one atomicAdd per non-zero"),
    SPMVLAB_CHOICE(coo_opts, kernel, COO_KERNEL_AUTO, "auto", "", "blocked or segmented by size and row lengths"),
    SPMVLAB_OPTION(coo_opts, items, SPMVLAB_OPT_INT_AUTO, "auto", "4..8", "blocked: consecutive entries per lane, 4 or 8; auto: by row length and columns (README.md)"),
    SPMVLAB_OPTION(coo_opts, zero, SPMVLAB_OPT_ENUM, "auto", "", "blocked, segmented: how y's rows get their first value"),
    SPMVLAB_CHOICE(coo_opts, zero, COO_ZERO_MEMSET, "memset", "", "y zeroed before the kernel"),
    SPMVLAB_CHOICE(coo_opts, zero, COO_ZERO_OWNER, "owner", "", "each row stored once by its chunk, a carry pass"),
    SPMVLAB_CHOICE(coo_opts, zero, COO_ZERO_AUTO, "auto", "", "owner for edges at row starts, small y or large sparse rows"),
    SPMVLAB_OPTION(coo_opts, chunk, SPMVLAB_OPT_INT_AUTO, "auto", "32..1073741824", "blocked, segmented: entries per warp's chunk, whole tiles; auto: see README.md"),
    SPMVLAB_OPTION(coo_opts, loads, SPMVLAB_OPT_ENUM, "auto", "", "blocked, segmented: how the matrix arrays are loaded"),
    SPMVLAB_CHOICE(coo_opts, loads, COO_LOADS_CACHED, "cached", "", "through the read-only cache"),
    SPMVLAB_CHOICE(coo_opts, loads, COO_LOADS_STREAM, "stream", "", "evict-first: read once, the caches left to x"),
    SPMVLAB_CHOICE(coo_opts, loads, COO_LOADS_AUTO, "auto", "", "stream when the arrays are larger than L2"),
    SPMVLAB_OPTION(coo_opts, edges, SPMVLAB_OPT_ENUM, "auto", "", "segmented: where the warps' chunks begin"),
    SPMVLAB_CHOICE(coo_opts, edges, COO_EDGES_ROWS, "rows", "", "moved on to row starts when no row is too long"),
    SPMVLAB_CHOICE(coo_opts, edges, COO_EDGES_EVEN, "even", "", "every chunk entries"),
    SPMVLAB_CHOICE(coo_opts, edges, COO_EDGES_AUTO, "auto", "", "rows with the owner write below 2^20 non-zeros"),
    {NULL},
};
