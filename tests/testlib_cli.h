/*
 * Helpers for the test programs that run the spmvlab program as a user
 * does (SPMVLAB_HOST): a scratch folder with the fixture files, the run
 * with its output captured, and readers for the CSV and JSON it writes.
 */
#ifndef SPMVLAB_TESTLIB_CLI_H
#define SPMVLAB_TESTLIB_CLI_H

#include "testlib.h"

extern char tmp[];                 /* the scratch folder of this test program */
extern const char *host, *data;    /* SPMVLAB_HOST, SPMVLAB_DATA_DIR */
extern char plugdir[4096];         /* <build>/tests/plugins: the test plugins */
extern char out_text[1 << 17], err_text[1 << 16]; /* the last run's stdout and stderr */

/* Reads the environment, makes the scratch folder and writes the fixture
 * files (faults.ini, ab.ini, badrun.ini, broken.mtx, run.ini). Returns 0,
 * or -1 when the environment lacks the program or the data (skip). */
int cli_setup(void);
/* Removes the scratch folder when every check passed. */
void cli_cleanup(const char *name);
/* 1 when the slowcsr test plugin (planted faults) was built. */
int slowcsr_built(void);

/* Runs "HOST args" through the shell; stdout / stderr into out_text /
 * err_text. Returns the exit status, or -1 when it did not exit. */
int spmvlab(const char *args);
/* The whole file, NUL-terminated (free it), or NULL. */
char *slurp(const char *path);
/* Occurrences of needle in hay. */
int count(const char *hay, const char *needle);
/* Matrix files (*.mtx.gz) in the data folder. */
int bundled_count(void);
/* Writes text to <tmp>/name. */
void write_file(const char *name, const char *text);

/* A parsed CSV: records of fields (quotes handled); room for every column
 * of a results file. */
#define CSV_MAX_FIELDS 96
typedef struct csv {
    int nrec;
    int nf[512];
    char *f[512][CSV_MAX_FIELDS];
} csv;
int csv_load(const char *path, csv *c);
void csv_free(csv *c);
/* Column of name in the header record, or -1. */
int col(const csv *c, const char *name);
/* The field of column name in record rec ("" when absent); num: as a number, NaN when empty. */
const char *cell(const csv *c, int rec, const char *name);
double num(const csv *c, int rec, const char *name);
/* Rows of path for matrix (and instance, when not NULL); -1 when unreadable. */
int rows_of(const char *path, const char *matrix, const char *instance);

/* A small JSON syntax check: the end of the value at p, or NULL; ws
 * skips white space. */
const char *json_value(const char *p);
const char *ws(const char *p);

#endif
