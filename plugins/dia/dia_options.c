/*
 * The options of dia: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "dia.h"

const spmvlab_option dia_options[] = {
    SPMVLAB_OPTION(dia_opts, max_fill, SPMVLAB_OPT_FLOAT, "1.5", "1..1000000", "refuse when the stored entries (diagonal lengths) exceed max_fill * nnz"),
    SPMVLAB_OPTION(dia_opts, max_diags, SPMVLAB_OPT_INT, "256", "1..1000000", "refuse a matrix with more diagonals"),
    SPMVLAB_OPTION(dia_opts, min_rows_per_diag, SPMVLAB_OPT_INT, "16", "0..1000000", "refuse a matrix of fewer rows than this times its diagonals (a thread walks every diagonal of its row); 0: off"),
    SPMVLAB_OPTION(dia_opts, x_reuse, SPMVLAB_OPT_ENUM, "auto", "", "where the kernel reads x from"),
    SPMVLAB_CHOICE(dia_opts, x_reuse, DIA_REUSE_AUTO, "auto", "", "shared when the band spans at most 256 columns, else l1"),
    SPMVLAB_CHOICE(dia_opts, x_reuse, DIA_REUSE_SHARED, "shared", "", "the block's x window staged in shared memory"),
    SPMVLAB_CHOICE(dia_opts, x_reuse, DIA_REUSE_L1, "l1", "", "x read through the L1 cache"),
    SPMVLAB_CHOICE(dia_opts, x_reuse, DIA_REUSE_SHUFFLE, "shuffle", "", "codes: x loaded once per run of consecutive offsets, passed between lanes (native values: l1); slower where measured"),
    SPMVLAB_OPTION(dia_opts, values, SPMVLAB_OPT_ENUM, "native", "", "how the values are stored (all lossless)"),
    SPMVLAB_CHOICE(dia_opts, values, SPMVLAB_VALUES_NATIVE, "native", "", "values in the run's dtype"),
    SPMVLAB_CHOICE(dia_opts, values, SPMVLAB_VALUES_INDEXED, "indexed", "", SPMVLAB_VALUES_INDEXED_HELP),
    SPMVLAB_CHOICE(dia_opts, values, SPMVLAB_VALUES_PATTERN, "pattern", "", SPMVLAB_VALUES_PATTERN_HELP " (no fill)"),
    SPMVLAB_CHOICE(dia_opts, values, SPMVLAB_VALUES_AUTO, "auto", "", "pattern, else indexed from 2^22 non-zeros (in f32 also 2^19 rows; tables of at most 4,096 values), else native"),
    SPMVLAB_OPTION(dia_opts, batch, SPMVLAB_OPT_ENUM, "auto", "", "coded kernel: diagonals whose loads are in flight together"),
    SPMVLAB_CHOICE(dia_opts, batch, DIA_BATCH_AUTO, "auto", "", "4 with an x window in shared memory and over 16 diagonals, else 2"),
    SPMVLAB_CHOICE(dia_opts, batch, DIA_BATCH_1, "1", "", "one diagonal at a time"),
    SPMVLAB_CHOICE(dia_opts, batch, DIA_BATCH_2, "2", "", "2 diagonals a batch"),
    SPMVLAB_CHOICE(dia_opts, batch, DIA_BATCH_4, "4", "", "4 diagonals a batch"),
    SPMVLAB_CHOICE(dia_opts, batch, DIA_BATCH_8, "8", "", "8 diagonals a batch"),
    SPMVLAB_OPTION(dia_opts, rows_per_thread, SPMVLAB_OPT_ENUM, "auto", "", "coded kernel: rows a thread, whose codes of a diagonal are one word"),
    SPMVLAB_CHOICE(dia_opts, rows_per_thread, DIA_ROWS_AUTO, "auto", "", "8 from 2^19 rows (4 with a shared window and over 16 diagonals), else 4"),
    SPMVLAB_CHOICE(dia_opts, rows_per_thread, DIA_ROWS_2, "2", "", "2 rows a thread"),
    SPMVLAB_CHOICE(dia_opts, rows_per_thread, DIA_ROWS_4, "4", "", "4 rows a thread"),
    SPMVLAB_CHOICE(dia_opts, rows_per_thread, DIA_ROWS_8, "8", "", "8 rows a thread (shuffles keep 4)"),
    SPMVLAB_CODE_BITS_OPTION(dia_opts, "4 bits for tables of at most 16 values, unless x is in shared memory with 2 or 4 rows a thread; else whole bytes"),
    {NULL},
};
