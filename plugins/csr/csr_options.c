/*
 * The options of csr: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "csr_format.h"

const spmvlab_option csr_options[] = {
    SPMVLAB_OPTION(csr_opts, kernel, SPMVLAB_OPT_ENUM, "auto", "", "the SpMV kernel"),
    SPMVLAB_CHOICE(csr_opts, kernel, CSR_AUTO, "auto", "", "chosen by the row lengths"),
    SPMVLAB_CHOICE(csr_opts, kernel, CSR_SCALAR, "scalar", "", "a thread per row"),
    SPMVLAB_CHOICE(csr_opts, kernel, CSR_VECTOR, "vector", "", "width lanes per row"),
    SPMVLAB_CHOICE(csr_opts, kernel, CSR_ADAPTIVE, "adaptive", "", "binned row blocks, long rows split"),
    SPMVLAB_OPTION(csr_opts, width, SPMVLAB_OPT_INT_AUTO, "auto", "1..32", "lanes per row of the vector kernel (power of two); auto: from the mean row length"),
    SPMVLAB_OPTION(csr_opts, block_rows, SPMVLAB_OPT_INT_AUTO, "auto", "8..1024", "adaptive: most rows of a row block (power of two, 8 to 1024); auto: 1024"),
    SPMVLAB_OPTION(csr_opts, values, SPMVLAB_OPT_ENUM, "native", "", "how the values are stored (all lossless)"),
    SPMVLAB_CHOICE(csr_opts, values, SPMVLAB_VALUES_NATIVE, "native", "", "values in the run's dtype"),
    SPMVLAB_CHOICE(csr_opts, values, SPMVLAB_VALUES_INDEXED, "indexed", "", SPMVLAB_VALUES_INDEXED_HELP " (CSR-VI)"),
    SPMVLAB_CHOICE(csr_opts, values, SPMVLAB_VALUES_PATTERN, "pattern", "", SPMVLAB_VALUES_PATTERN_HELP),
    SPMVLAB_CHOICE(csr_opts, values, SPMVLAB_VALUES_AUTO, "auto", "", SPMVLAB_VALUES_AUTO_NO_CODES_HELP),
    {NULL},
};
