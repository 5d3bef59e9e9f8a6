/* Test plugin: a well-formed plugin built twice, into this folder and into
 * dup/, so two files declare the same name; the second one loaded is
 * refused as a duplicate. */
#include "bad_common.h"

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_dup", "present in two folders"),
    PLAIN_FUNCTIONS,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
