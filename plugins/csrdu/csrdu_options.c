/*
 * The options of csrdu: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "csrdu_format.h"

const spmvlab_option csrdu_options[] = {
    SPMVLAB_OPTION(csrdu_opts, kernel, SPMVLAB_OPT_ENUM, "auto", "", "the SpMV kernel"),
    SPMVLAB_CHOICE(csrdu_opts, kernel, CSRDU_KERNEL_AUTO, "auto", "", "vector for rows of 128 and more from 2^17 non-zeros, else stream"),
    SPMVLAB_CHOICE(csrdu_opts, kernel, CSRDU_KERNEL_STREAM, "stream", "", "block tiles of 1024 entries staged in shared memory"),
    SPMVLAB_CHOICE(csrdu_opts, kernel, CSRDU_KERNEL_VECTOR, "vector", "", "lanes lanes a row, loads batched over rows"),
    SPMVLAB_CHOICE(csrdu_opts, kernel, CSRDU_KERNEL_TILES, "tiles", "", "the first kernel: warp tiles"),
    SPMVLAB_OPTION(csrdu_opts, delta_bits, SPMVLAB_OPT_ENUM, "16", "", "bits of a stored column offset from its chunk's base"),
    SPMVLAB_CHOICE(csrdu_opts, delta_bits, CSRDU_DELTA_BITS_8, "8", "", "8-bit offsets"),
    SPMVLAB_CHOICE(csrdu_opts, delta_bits, CSRDU_DELTA_BITS_16, "16", "", "16-bit offsets"),
    SPMVLAB_OPTION(csrdu_opts, values, SPMVLAB_OPT_ENUM, "native", "", "value storage"),
    SPMVLAB_CHOICE(csrdu_opts, values, CSRDU_VALUES_NATIVE, "native", "", "values in the run's dtype"),
    SPMVLAB_CHOICE(csrdu_opts, values, CSRDU_VALUES_F32, "f32", "", "f32 values for an f64 run (declared; computes in f64)"),
    SPMVLAB_CHOICE(csrdu_opts, values, SPMVLAB_VALUES_INDEXED, "indexed", "", SPMVLAB_VALUES_INDEXED_HELP " (CSR-DU-VI)"),
    SPMVLAB_CHOICE(csrdu_opts, values, SPMVLAB_VALUES_PATTERN, "pattern", "", SPMVLAB_VALUES_PATTERN_HELP),
    SPMVLAB_CHOICE(csrdu_opts, values, SPMVLAB_VALUES_AUTO, "auto", "", SPMVLAB_VALUES_AUTO_NO_CODES_HELP),
    SPMVLAB_EXPERT(csrdu_opts, tile, SPMVLAB_OPT_ENUM, "256", "", "tiles kernel: entries of a row tile (one warp)"),
    SPMVLAB_CHOICE(csrdu_opts, tile, CSRDU_TILE_128, "128", "", "128 entries"),
    SPMVLAB_CHOICE(csrdu_opts, tile, CSRDU_TILE_256, "256", "", "256 entries"),
    SPMVLAB_CHOICE(csrdu_opts, tile, CSRDU_TILE_512, "512", "", "512 entries"),
    SPMVLAB_OPTION(csrdu_opts, lanes, SPMVLAB_OPT_INT_AUTO, "auto", "1..32", "lanes per row (power of two; vector: 2 to 32); auto: vector from the 90th-percentile row"),
    SPMVLAB_OPTION(csrdu_opts, batch, SPMVLAB_OPT_INT_AUTO, "auto", "1..4", "vector kernel, 32 lanes: entries of a row a lane loads per batch (1, 2, 4); auto: by row length"),
    SPMVLAB_KEYED_OPTION(csrdu_opts, "long", long_len, SPMVLAB_OPT_INT_AUTO, "auto", "8..1048576", "vector, stream: rows longer than this are warp pieces; auto: max(32, 2 lanes batch), stream 256", SPMVLAB_OPT_EXPERT),
    SPMVLAB_EXPERT(csrdu_opts, steps, SPMVLAB_OPT_INT, "4", "1..64", "vector kernel: row groups a warp runs in turn, the next one's row bounds loaded ahead"),
    SPMVLAB_EXPERT(csrdu_opts, tile_rows, SPMVLAB_OPT_INT_AUTO, "auto", "8..256", "stream kernel: most rows of a tile (4 entries a row, 256 to 1024); auto: 256, halved below 2 tiles an SM"),
    SPMVLAB_EXPERT(csrdu_opts, piece, SPMVLAB_OPT_INT, "512", "512..1048576", "longest row piece of one warp; longer rows are split"),
    {NULL},
};
