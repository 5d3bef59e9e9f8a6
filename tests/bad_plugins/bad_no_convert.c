/* Test plugin: the required member convert is NULL. */
#include "bad_common.h"

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_no_convert", "has no convert function"),
    .spmv = plain_spmv_none,
    .footprint = plain_footprint,
    .destroy = plain_destroy,
    .spmv_host = plain_spmv_host,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
