/*
 * The options of tilespmv: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "tilespmv.h"

const spmvlab_option tilespmv_options[] = {
    SPMVLAB_OPTION(tilespmv_opts, tile_format, SPMVLAB_OPT_ENUM, "auto", "", "the kind of every tile"),
    SPMVLAB_CHOICE(tilespmv_opts, tile_format, TILESPMV_FORMAT_AUTO, "auto", "", "each tile's kind by the paper's rule"),
    SPMVLAB_CHOICE(tilespmv_opts, tile_format, TILESPMV_FORMAT_CSR, "csr", "", "every tile CSR"),
    SPMVLAB_CHOICE(tilespmv_opts, tile_format, TILESPMV_FORMAT_COO, "coo", "", "every tile COO"),
    SPMVLAB_CHOICE(tilespmv_opts, tile_format, TILESPMV_FORMAT_ELL, "ell", "", "every tile ELL"),
    SPMVLAB_CHOICE(tilespmv_opts, tile_format, TILESPMV_FORMAT_HYB, "hyb", "", "every tile HYB (ELL part plus COO rest)"),
    SPMVLAB_CHOICE(tilespmv_opts, tile_format, TILESPMV_FORMAT_DENSE, "dense", "", "every tile dense"),
    SPMVLAB_OPTION(tilespmv_opts, dense_fill, SPMVLAB_OPT_FLOAT, "0.75", "0..1", "rule: a tile holding this share of its area is dense"),
    SPMVLAB_OPTION(tilespmv_opts, coo_max, SPMVLAB_OPT_INT, "12", "0..256", "rule: a tile with at most this many entries is COO"),
    SPMVLAB_OPTION(tilespmv_opts, ell_variation, SPMVLAB_OPT_FLOAT, "0.2", "0..16", "rule: ELL when the row lengths' std/mean is at most this"),
    SPMVLAB_OPTION(tilespmv_opts, hyb_variation, SPMVLAB_OPT_FLOAT, "1.0", "0..16", "rule: HYB when the row lengths' std/mean exceeds this, else CSR"),
    SPMVLAB_OPTION(tilespmv_opts, defer_max, SPMVLAB_OPT_INT, "32", "0..256", "a tile of at most this many entries goes to the deferred CSR part (0: none)"),
    SPMVLAB_OPTION(tilespmv_opts, deferred, SPMVLAB_OPT_ENUM, "auto", "", "how the deferred CSR part is summed"),
    SPMVLAB_CHOICE(tilespmv_opts, deferred, TILESPMV_DEFER_AUTO, "auto", "", "merge when the deferred rows' lengths vary (std/mean > 1) or 5% of rows have none, else fused"),
    SPMVLAB_CHOICE(tilespmv_opts, deferred, TILESPMV_DEFER_FUSED, "fused", "", "inside the tile kernel, lanes per row; y written once"),
    SPMVLAB_CHOICE(tilespmv_opts, deferred, TILESPMV_DEFER_MERGE, "merge", "", "load-balanced merge-path CSR first, as the paper's CSR5; tiles then added to y"),
    SPMVLAB_OPTION(tilespmv_opts, whole_merge, SPMVLAB_OPT_BOOL, "true", "", "deferred = auto: the whole matrix to the merge pass where the tiles do not pay (README.md)"),
    SPMVLAB_EXPERT(tilespmv_opts, chunk_tiles, SPMVLAB_OPT_INT, "128", "1..65536", "a warp's bound: tiles, and a lane's trips over deferred entries; longer tile rows split"),
    SPMVLAB_EXPERT(tilespmv_opts, defer_lanes, SPMVLAB_OPT_INT_AUTO, "auto", "2..32", "lanes per row over deferred entries, a power of two; auto: mean deferred row length"),
    {NULL},
};
