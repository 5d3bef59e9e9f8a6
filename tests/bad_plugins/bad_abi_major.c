/* Test plugin: built for a future plugin ABI major version, which the
 * registry must refuse naming both versions. */
#include "bad_common.h"

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_abi_major", "claims the next ABI major version"),
    PLAIN_FUNCTIONS,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void)
{
    static spmvlab_plugin d;
    d = desc;
    d.abi_major = SPMVLAB_ABI_MAJOR + 1;
    return &d;
}
