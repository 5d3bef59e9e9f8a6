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
