/* Test plugin: its struct_size ends before convert. Every member is set,
 * but the registry must not read past struct_size, so convert counts as
 * missing. */
#include <stddef.h>

#include "bad_common.h"

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_short", "declares a descriptor too short to hold convert"),
    PLAIN_FUNCTIONS,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void)
{
    static spmvlab_plugin d;
    d = desc;
    d.struct_size = (uint32_t)offsetof(spmvlab_plugin, convert);
    return &d;
}
