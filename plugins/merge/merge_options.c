/*
 * The options of merge: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "merge_format.h"

const spmvlab_option merge_options[] = {
    SPMVLAB_OPTION(merge_opts, items, SPMVLAB_OPT_INT_AUTO, "auto", "4..14", "path items (row ends + non-zeros) a thread: 4, 6, 7, 10 or 14; auto: see products"),
    SPMVLAB_OPTION(merge_opts, search, SPMVLAB_OPT_ENUM, "auto", "", "where the tiles' starts on the merge path are found"),
    SPMVLAB_CHOICE(merge_opts, search, MERGE_SEARCH_AUTO, "auto", "", "convert (fitted on the corpus's tune part)"),
    SPMVLAB_CHOICE(merge_opts, search, MERGE_SEARCH_BLOCK, "block", "", "two warps of every tile block search its ends: no extra launch"),
    SPMVLAB_CHOICE(merge_opts, search, MERGE_SEARCH_LAUNCH, "launch", "", "by a kernel before every SpMV"),
    SPMVLAB_CHOICE(merge_opts, search, MERGE_SEARCH_CONVERT, "convert", "", "once on the host at convert"),
    SPMVLAB_EXPERT(merge_opts, products, SPMVLAB_OPT_ENUM, "auto", "", "how a tile's products val * x[col] are made"),
    SPMVLAB_CHOICE(merge_opts, products, MERGE_PRODUCTS_AUTO, "auto", "", "direct products, 4 items in f64, 6 in f32, 10 on 2^20 non-zeros and more with local columns"),
    SPMVLAB_CHOICE(merge_opts, products, MERGE_PRODUCTS_STAGED, "staged", "", "the tile's products in shared memory by coalesced loads first"),
    SPMVLAB_CHOICE(merge_opts, products, MERGE_PRODUCTS_DIRECT, "direct", "", "each thread loads its own non-zeros before it walks"),
    {NULL},
};
