/* report --table md|tex: the summary, the best instance per matrix and the
 * matrices below the floor by bound (floor_table.h) of every comparison
 * group as Markdown or LaTeX (booktabs) tables. */
#ifndef SPMVLAB_HOST_REPORT_TABLE_H
#define SPMVLAB_HOST_REPORT_TABLE_H

#include "summary.h"

typedef enum report_table_kind { REPORT_TABLE_MD = 0, REPORT_TABLE_TEX = 1 } report_table_kind;

/* Writes the tables of s, built from rows, to path. Returns 0, or -1 with
 * a sentence. */
int report_write_tables(const run_summary *s, const run_rows *rows, const char *device, report_table_kind kind,
                        const char *path, spmvlab_err *err);

#endif
