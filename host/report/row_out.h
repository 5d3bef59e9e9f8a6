/* Where results go: the terminal table, the CSV file
 * (appended row by row) and the JSON file (written at the end). */
#ifndef SPMVLAB_HOST_RUN_OUTPUT_H
#define SPMVLAB_HOST_RUN_OUTPUT_H

#include <stdio.h>

#include "machine.h"
#include "row.h"

/* ---- CSV file ------------------------------------------------------------ */

/* The CSV is opened beside its name by csv_begin (output_file.h). */
/* Appends one row and pushes it to the disk (fflush + fsync). */
void csv_append(FILE *f, const run_row *r);
/* The CSV schema, one column a line: name, type, meaning (--columns). */
void columns_print(FILE *f);

/* ---- JSON ------------------------------------------------------------------ */

void json_string(FILE *f, const char *s);
void json_number(FILE *f, double v); /* null for NaN / Inf */
/* One row: every column, then "samples": {"single_ms": [...], "batch_ms": [...]}. */
void json_row(FILE *f, const run_row *r, const char *indent);
void json_meta(FILE *f, const run_meta *m, const char *indent);

/* ---- terminal ---------------------------------------------------------- */

/* The table's title lines and header. */
void table_header(FILE *f, const run_meta *m, const char *timing);
/* One row, and its message on a second line when the status is not ok. */
void table_row(FILE *f, const run_row *r);
/* "12.3 MB" style byte counts (powers of 1000) into buf. */
const char *human_bytes(double b, char *buf, size_t len);

/* v printed with fmt, or "-" for NaN (no value): the table's numbers. */
const char *table_num(double v, const char *fmt, char *buf, size_t len);

#endif
