/* Test plugin: built against a newer ABI minor than the host knows (it may
 * rely on members the host does not fill), which the registry must refuse. */
#include "bad_common.h"

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_abi_minor", "claims a newer ABI minor version"),
    PLAIN_FUNCTIONS,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void)
{
    static spmvlab_plugin d;
    d = desc;
    d.abi_minor = SPMVLAB_ABI_MINOR + 1;
    return &d;
}
