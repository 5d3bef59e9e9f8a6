/*
 * The options of csr5: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "csr5_format.h"

const spmvlab_option csr5_options[] = {
    SPMVLAB_OPTION(csr5_opts, sigma, SPMVLAB_OPT_INT_AUTO, "auto", "1..32", "entries per lane of a 32-lane tile; auto: 4 up to mean row length 4, the rounded mean up to 32, then 32"),
    SPMVLAB_OPTION(csr5_opts, min_tiles, SPMVLAB_OPT_INT, "512", "0..2147483647", "sigma = auto: 4 when the mean's sigma fills fewer tiles than this; 0: the mean rule alone"),
    SPMVLAB_OPTION(csr5_opts, calibrate, SPMVLAB_OPT_ENUM, "kernel", "", "how rows crossing tiles are finished"),
    SPMVLAB_CHOICE(csr5_opts, calibrate, CSR5_CAL_KERNEL, "kernel", "", "a second kernel, one thread per tile"),
    SPMVLAB_CHOICE(csr5_opts, calibrate, CSR5_CAL_INLINE, "inline", "", "the last tile to arrive, one launch"),
    SPMVLAB_EXPERT(csr5_opts, arrive, SPMVLAB_OPT_ENUM, "release", "", "calibrate=inline: the memory order of the arrival counter"),
    SPMVLAB_CHOICE(csr5_opts, arrive, CSR5_ARRIVE_RELEASE, "release", "", "release; the last arrival reads pieces from L2"),
    SPMVLAB_CHOICE(csr5_opts, arrive, CSR5_ARRIVE_ACQ_REL, "acq_rel", "", "acquire too; invalidates L1 at every arrival"),
    SPMVLAB_EXPERT(csr5_opts, occupancy, SPMVLAB_OPT_ENUM, "3", "", "f64 with sigma >= 12: blocks of 256 threads per SM the main kernel targets"),
    SPMVLAB_CHOICE(csr5_opts, occupancy, CSR5_OCCUPANCY_3, "3", "", "up to 80 registers"),
    SPMVLAB_CHOICE(csr5_opts, occupancy, CSR5_OCCUPANCY_4, "4", "", "up to 64 registers"),
    SPMVLAB_EXPERT(csr5_opts, launch, SPMVLAB_OPT_ENUM, "overlap", "", "calibrate=kernel on sm_90+: when the calibration starts"),
    SPMVLAB_CHOICE(csr5_opts, launch, CSR5_LAUNCH_OVERLAP, "overlap", "", "programmatic dependent launch as the main kernel ends"),
    SPMVLAB_CHOICE(csr5_opts, launch, CSR5_LAUNCH_SERIAL, "serial", "", "after the main kernel"),
    SPMVLAB_OPTION(csr5_opts, stores, SPMVLAB_OPT_ENUM, "auto", "", "how rows complete inside a tile are stored"),
    SPMVLAB_CHOICE(csr5_opts, stores, CSR5_STORES_AUTO, "auto", "", "staged for sigma <= 12 without empty rows, else direct"),
    SPMVLAB_CHOICE(csr5_opts, stores, CSR5_STORES_DIRECT, "direct", "", "by the lane that finished each row (the paper)"),
    SPMVLAB_CHOICE(csr5_opts, stores, CSR5_STORES_STAGED, "staged", "", "through shared memory, consecutive rows by the warp"),
    SPMVLAB_OPTION(csr5_opts, empty, SPMVLAB_OPT_ENUM, "offsets", "", "how tiles treat empty rows"),
    SPMVLAB_CHOICE(csr5_opts, empty, CSR5_EMPTY_OFFSETS, "offsets", "", "flagged tiles with empty_offset (the paper)"),
    SPMVLAB_CHOICE(csr5_opts, empty, CSR5_EMPTY_COMPRESS, "compress", "", "tiles over non-empty rows, a row map, empty runs zeroed"),
    SPMVLAB_EXPERT(csr5_opts, sigma_mean, SPMVLAB_OPT_ENUM, "all", "", "sigma = auto with empty = compress: the rows the mean length is over"),
    SPMVLAB_CHOICE(csr5_opts, sigma_mean, CSR5_MEAN_ALL, "all", "", "all rows of A"),
    SPMVLAB_CHOICE(csr5_opts, sigma_mean, CSR5_MEAN_STORED, "stored", "", "the stored, non-empty rows"),
    SPMVLAB_EXPERT(csr5_opts, verify_convert, SPMVLAB_OPT_BOOL, "false", "", "after a GPU conversion, also convert on the host and require identical arrays"),
    {NULL},
};
