/*
 * merge: what the plugin glue (merge.c), the CPU execution (merge_host.c)
 * and the kernels (merge.cu) share: the merge-path machinery of
 * ../common/merge_path.h (tile geometry, search, the device view of one
 * instance) and the launcher. The format is described at the top of
 * merge.c.
 */
#ifndef SPMVLAB_MERGE_H
#define SPMVLAB_MERGE_H

#include <spmvlab/plugin.h>
#include "../common/launch.h"
#include "../common/merge_path.h"

#ifdef __cplusplus
extern "C" {
#endif

/* y = A*x: [search kernel], tiles, [fix-up]. Asynchronous on stream; returns 0 or
 * a cudaError_t code. */
SPMVLAB_LAUNCHER_DECLS(merge, merge_dev)

#ifdef __cplusplus
}
#endif
#endif
