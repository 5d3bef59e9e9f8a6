/* Test plugin: its entry returns no descriptor. */
#include "bad_common.h"

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return NULL; }
