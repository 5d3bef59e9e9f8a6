/*
 * The options of hyb: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "hyb.h"

const spmvlab_option hyb_options[] = {
    SPMVLAB_OPTION(hyb_opts, ell_width, SPMVLAB_OPT_INT_AUTO, "auto", "0..2147483647", "ELL slots per row K; auto: Bell-Garland width and guard; 0: all COO"),
    SPMVLAB_OPTION(hyb_opts, row_fraction, SPMVLAB_OPT_FLOAT, "0.333333", "0..1", "auto width: at least this fraction of the rows have >= K non-zeros"),
    SPMVLAB_OPTION(hyb_opts, min_rows, SPMVLAB_OPT_INT, "4096", "0..2147483647", "auto width: at least this many rows have >= K non-zeros (else K = 0)"),
    SPMVLAB_EXPERT(hyb_opts, ell_guard, SPMVLAB_OPT_FLOAT, "1", "0..1000", "auto width: all COO when ELL bytes > ell_guard x COO bytes of its entries; 0: no guards"),
    SPMVLAB_EXPERT(hyb_opts, coo_share, SPMVLAB_OPT_FLOAT, "0.25", "0..1", "auto width: all COO when the COO part would hold more than this share of the non-zeros"),
    SPMVLAB_EXPERT(hyb_opts, small_nnz, SPMVLAB_OPT_INT, "1048576", "0..2147483647", "auto width: below this many non-zeros a matrix with a COO part runs as pure COO; 0: off"),
    SPMVLAB_OPTION(hyb_opts, ell_lanes, SPMVLAB_OPT_INT_AUTO, "auto", "1..8", "lanes per row of the ELL kernel: 1, 2, 4 or 8 (f32: at most 4); auto: see README.md"),
    SPMVLAB_OPTION(hyb_opts, coo_kernel, SPMVLAB_OPT_ENUM, "auto", "", "the coo plugin's kernel for the COO part"),
    SPMVLAB_CHOICE(hyb_opts, coo_kernel, HYB_COO_BLOCKED, "blocked", "", "8 entries per lane"),
    SPMVLAB_CHOICE(hyb_opts, coo_kernel, HYB_COO_SEGMENTED, "segmented", "", "a warp scan per 32 entries"),
    SPMVLAB_CHOICE(hyb_opts, coo_kernel, HYB_COO_AUTO, "auto", "", "the coo plugin's rule on the whole matrix"),
    SPMVLAB_EXPERT(hyb_opts, coo_zero, SPMVLAB_OPT_ENUM, "auto", "", "pure COO (K = 0): the coo plugin's zero option"),
    SPMVLAB_CHOICE(hyb_opts, coo_zero, COO_ZERO_MEMSET, "memset", "", "y zeroed first"),
    SPMVLAB_CHOICE(hyb_opts, coo_zero, COO_ZERO_OWNER, "owner", "", "every row stored once by the COO kernel"),
    SPMVLAB_CHOICE(hyb_opts, coo_zero, COO_ZERO_AUTO, "auto", "", "the coo plugin's rule"),
    SPMVLAB_OPTION(hyb_opts, coo_loads, SPMVLAB_OPT_ENUM, "auto", "", "the COO part's loads (the coo plugin's loads option)"),
    SPMVLAB_CHOICE(hyb_opts, coo_loads, COO_LOADS_CACHED, "cached", "", "through the read-only cache"),
    SPMVLAB_CHOICE(hyb_opts, coo_loads, COO_LOADS_STREAM, "stream", "", "evict-first"),
    SPMVLAB_CHOICE(hyb_opts, coo_loads, COO_LOADS_AUTO, "auto", "", "stream when the COO arrays are larger than L2"),
    SPMVLAB_EXPERT(hyb_opts, coo_edges, SPMVLAB_OPT_ENUM, "auto", "", "pure COO, segmented kernel: the coo plugin's edges option"),
    SPMVLAB_CHOICE(hyb_opts, coo_edges, COO_EDGES_ROWS, "rows", "", "chunk edges at row starts when no row is too long"),
    SPMVLAB_CHOICE(hyb_opts, coo_edges, COO_EDGES_EVEN, "even", "", "every chunk entries"),
    SPMVLAB_CHOICE(hyb_opts, coo_edges, COO_EDGES_AUTO, "auto", "", "rows with the owner write below 2^20 entries"),
    SPMVLAB_EXPERT(hyb_opts, coo_chunk, SPMVLAB_OPT_INT_AUTO, "auto", "32..1073741824", "the COO part's entries per warp's chunk (the coo plugin's chunk option)"),
    {NULL},
};
