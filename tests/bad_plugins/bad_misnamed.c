/* Test plugin: libspmvlab_bad_misnamed.so declares the name bad_other, so
 * looking up either name could load the wrong code; the registry refuses it. */
#include "bad_common.h"

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_other", "declares a name that is not its file's"),
    PLAIN_FUNCTIONS,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
