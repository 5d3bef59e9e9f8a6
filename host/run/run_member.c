/* A member of a group that fails: its row takes the status and the
 * sentence, and it leaves the timing rounds; see run_engine.h. */
#include <stdarg.h>
#include <stdio.h>

#include "run_engine.h"
#include "run_status.h"

void member_fail(run_member *mb, spmvlab_result o, const char *fmt, ...)
{
    char msg[sizeof mb->row.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    run_row_fail(&mb->row, o, msg);
    mb->timed = 0;
}

int group_fault_check(run_group *g, run_member *mb)
{
    if (g->faulted)
        return 1;
    spmvlab_err err = {{0}};
    const char *plugin = mb->spec->plugin->desc->name;
    if (!spmvlab_runtime_fault(g->rt, plugin, &err))
        return 0;
    g->faulted = mb;
    member_fail(mb, SPMVLAB_RESULT_DEVICE_FAULT,
                "plugin %s (instance %s) faulted on the device: %s; the other cells ran in a fresh CUDA context",
                plugin, mb->spec->label, err.msg);
    return 1;
}
