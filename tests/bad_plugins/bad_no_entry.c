/* Test plugin: a shared object without the spmvlab_plugin_entry symbol
 * (its entry is misspelt), which the registry must refuse. */
#include "bad_common.h"

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_no_entry", "exports a misspelt entry function"),
    PLAIN_FUNCTIONS,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry_point(void) { return &desc; }
