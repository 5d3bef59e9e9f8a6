/*
 * merge: the format on the host side, shared by the plugin glue (merge.c)
 * and the CPU execution (merge_host.c).
 */
#ifndef SPMVLAB_MERGE_FORMAT_H
#define SPMVLAB_MERGE_FORMAT_H

#include <spmvlab/plugin.h>

#include "merge.h"

typedef struct merge_format {
    spmvlab_ctx *ctx;
    spmvlab_dtype dtype;
    int32_t rows, cols, nnz;
    int32_t *row_ptr;        /* host copies for spmv_host */
    int32_t *col_idx;
    void *val;
    int32_t *s_end;          /* spmv_host: one tile's row ends (tile + 1 entries) */
    merge_dev dev;           /* device arrays and the launch shape */
    size_t dev_bytes;        /* device bytes uploaded or allocated, for describe */
    double gather_share;     /* share of non-zeros starting a new x sector in their row */
    int auto_products;       /* what auto picks for that share (enum merge_products_kind) */
    int auto_items;          /* and its items */
} merge_format;

SPMVLAB_HOST_DECLS_F64_F32(merge, merge_format)

typedef struct merge_opts {
    int items;    /* 4, 6, 7, 10, 14 or SPMVLAB_AUTO */
    int search;   /* enum merge_search_place or MERGE_SEARCH_AUTO */
    int products; /* enum merge_products_kind or MERGE_PRODUCTS_AUTO */
} merge_opts;

enum merge_search_choice { MERGE_SEARCH_AUTO = -1 };
enum merge_products_choice { MERGE_PRODUCTS_AUTO = -1 };
/* The option table (merge_options.c). */
extern const spmvlab_option merge_options[];

#endif
