/*
 * The options of bccoo: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "bccoo_format.h"

const spmvlab_option bccoo_options[] = {
    SPMVLAB_OPTION(bccoo_opts, height, SPMVLAB_OPT_INT_AUTO, "auto", "1..4", "block height: 1, 2 or 4; auto: the shape of fewest device bytes"),
    SPMVLAB_OPTION(bccoo_opts, width, SPMVLAB_OPT_INT_AUTO, "auto", "1..4", "block width: 1, 2 or 4; auto: the shape of fewest device bytes"),
    SPMVLAB_OPTION(bccoo_opts, min_chunks, SPMVLAB_OPT_INT, "64", "0..2147483647", "auto: a shape whose blocks fill fewer chunks (thread blocks) than this gives way to 1x1, which fills more; 0: off"),
    {NULL},
};
