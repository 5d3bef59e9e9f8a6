/*
 * The value table of a prepared matrix (plugin.h's spmvlab_value_table):
 * its distinct values and one code per entry, built once on the first
 * request and shared by every instance on the matrix.
 */
#ifndef SPMVLAB_VALUE_TABLE_H
#define SPMVLAB_VALUE_TABLE_H

#include <stddef.h>

#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One matrix's table and what building it said; zeroed until the first
 * request. */
typedef struct spmvlab_value_cache {
    int built;                    /* 1 once a build ran (its status below) */
    int counted_all;              /* distinct is exact beyond the 65,536 limit */
    spmvlab_status st;            /* OK, LIMIT (too many values) or NOMEM */
    char why[SPMVLAB_ERR_LEN];    /* the cause when st is not OK */
    spmvlab_value_table table;    /* what the plugins see */
    void *values, *codes;         /* the table's arrays (owned) */
} spmvlab_value_cache;

/* The table of A in *table, built into c on the first call (and counted
 * again in full when count_all asks for the exact number of a refusal).
 * Returns OK; LIMIT with the count in why (len bytes, one cause without
 * "instance on matrix") when more than 65,536 codes would be needed, the
 * table then set with code_bytes 0; NOMEM. */
spmvlab_status spmvlab_value_cache_get(spmvlab_value_cache *c, const spmvlab_matrix *A, int count_all,
                                       const spmvlab_value_table **table, char *why, size_t len);

/* Frees the table's arrays and zeroes c (a zeroed c is fine). */
void spmvlab_value_cache_free(spmvlab_value_cache *c);

#ifdef __cplusplus
}
#endif
#endif
