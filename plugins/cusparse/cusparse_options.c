/*
 * The options of cusparse: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "cusparse_layout.h"

const spmvlab_option cusparse_options[] = {
    SPMVLAB_OPTION(cusparse_opts, format, SPMVLAB_OPT_ENUM, "csr", "", "the cuSPARSE matrix format"),
    SPMVLAB_CHOICE(cusparse_opts, format, CUSPARSE_FAMILY_CSR, "csr", "", "cusparseCreateCsr"),
    SPMVLAB_CHOICE(cusparse_opts, format, CUSPARSE_FAMILY_COO, "coo", "", "cusparseCreateCoo"),
    SPMVLAB_CHOICE(cusparse_opts, format, CUSPARSE_FAMILY_SELL, "sell", "", "Sliced-ELL, cusparseCreateSlicedEll"),
    SPMVLAB_CHOICE(cusparse_opts, format, CUSPARSE_FAMILY_BSR, "bsr", "", "blocked CSR, cusparseCreateBsr"),
    SPMVLAB_OPTION(cusparse_opts, alg, SPMVLAB_OPT_ENUM, "alg1", "", "the SpMV algorithm of csr and coo (sell and bsr have one)"),
    SPMVLAB_CHOICE(cusparse_opts, alg, CUSPARSE_ALGO_1, "alg1", "", "CUSPARSE_SPMV_CSR_ALG1 / COO_ALG1"),
    SPMVLAB_CHOICE(cusparse_opts, alg, CUSPARSE_ALGO_2, "alg2", "", "CSR_ALG2 / COO_ALG2, deterministic"),
    SPMVLAB_OPTION(cusparse_opts, slice, SPMVLAB_OPT_INT, "32", "1..1024", "sell: rows per slice (cuSPARSE's sliceSize)"),
    SPMVLAB_OPTION(cusparse_opts, block, SPMVLAB_OPT_INT_AUTO, "auto", "2..8", "bsr: block dimension b (b x b blocks); auto: the b moving the fewest bytes within max_fill"),
    SPMVLAB_OPTION(cusparse_opts, max_fill, SPMVLAB_OPT_FLOAT, "8.0", "1..1000000000", "sell and bsr: refuse (limit) when stored values, padding included, exceed max_fill x nnz"),
    SPMVLAB_OPTION(cusparse_opts, values, SPMVLAB_OPT_ENUM, "native", "", "value storage"),
    SPMVLAB_CHOICE(cusparse_opts, values, CUSPARSE_VALUES_NATIVE, "native", "", "values in the run's dtype"),
    SPMVLAB_CHOICE(cusparse_opts, values, CUSPARSE_VALUES_F32, "f32", "", "f32 values; x, y and compute stay f64 in f64 runs"),
    {NULL},
};
