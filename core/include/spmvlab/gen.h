/*
 * Matrix generators and benchmark sets.
 *
 * A generator builds a CSR matrix of a named structure (stencils, bands,
 * uniform random rows, R-MAT graphs, dense blocks, mixed and very long rows,
 * power-law rows, clustered columns, blocks of mixed sizes)
 * from "key=value" parameters. Output depends only on the kind and the
 * parameters: the random numbers come from a fixed xoshiro256** stream seeded
 * by `seed`, and values are exact multiples of 2^-20, so a seed gives the same
 * matrix, bit for bit, on every machine and compiler (powerlaw's one pow()
 * aside: sets/README.md).
 *
 * A set is an INI file listing matrices by generator or by path (sets/);
 * generated members are written on demand into the cache directory.
 */
#ifndef SPMVLAB_GEN_H
#define SPMVLAB_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "spmvlab/matrix.h"
#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters ---------------------------------------------------------- */

#define SPMVLAB_GEN_MAX_PARAMS 16  /* keys one parameter list holds */
#define SPMVLAB_GEN_KEY_LEN 32     /* longest key + 1 */
#define SPMVLAB_GEN_VALUE_LEN 64   /* longest value + 1 */

/* Generator parameters as text, in the order given; validated against the
 * kind's table only by spmvlab_gen / spmvlab_gen_check. Zero-initialise. */
typedef struct spmvlab_gen_params {
    int count;                                /* keys in kv */
    struct spmvlab_gen_kv {
        char key[SPMVLAB_GEN_KEY_LEN];        /* [a-z0-9_]+ */
        char value[SPMVLAB_GEN_VALUE_LEN];    /* as written, trimmed */
    } kv[SPMVLAB_GEN_MAX_PARAMS];
} spmvlab_gen_params;

/* Sets key to value, replacing an earlier value of the same key. Returns 0,
 * or -1 with a sentence when the key is malformed, a text is too long or the
 * list is full. */
int spmvlab_gen_params_set(spmvlab_gen_params *p, const char *key, const char *value,
                           spmvlab_err *err);

/* Adds the "key=value" pairs of text, separated by spaces, tabs or commas
 * ("n=1000 k=8, seed=3"). Returns 0, or -1 naming the malformed pair. */
int spmvlab_gen_params_parse(spmvlab_gen_params *p, const char *text, spmvlab_err *err);

/* The value text of key, or NULL when the list does not hold it. */
const char *spmvlab_gen_params_get(const spmvlab_gen_params *p, const char *key);

/* ---- generator kinds ----------------------------------------------------- */

/* One generator. Its parameters are a table of plugin option rows (types
 * INT, FLOAT and ENUM; key NULL ends it) parsed by the core's option engine
 * into the kind's own parameter struct, each row naming its member with
 * SPMVLAB_FIELD; every kind takes `seed` and `values` (random: ±[1/8, 1] in
 * steps of 2^-20; ones: all 1; few:K: K distinct random values). */
typedef struct spmvlab_gen_kind {
    const char *name;                 /* e.g. "stencil2d5" */
    const char *summary;              /* one line for `spmvlab gen --help` */
    const spmvlab_option *params;     /* parameter table, defaults as text */
    int version;                      /* bumped when the output for given parameters changes */
    /* Cross-parameter rules and size limits on the parameter struct p,
     * already range-checked one by one. Returns 0, or -1 with a sentence. */
    int (*check)(const void *p, spmvlab_err *err);
    /* Builds the structure (row_ptr, col_idx; val allocated) from checked
     * parameters; the caller fills the values. Returns 0, or -1 with a sentence. */
    int (*generate)(const void *p, spmvlab_csr *out, spmvlab_err *err);
    size_t params_size;               /* sizeof the kind's parameter struct */
} spmvlab_gen_kind;

/* The kinds in help order; NULL past the end. */
const spmvlab_gen_kind *spmvlab_gen_kind_at(int i);
/* The kind called name, or NULL. */
const spmvlab_gen_kind *spmvlab_gen_kind_find(const char *name);

/* Checks that kind exists and every key of p is one of its parameters with a
 * value of the right type and range, and that the matrix fits 32-bit
 * indices. Returns 0, or -1 with a sentence naming the kind and the key. */
int spmvlab_gen_check(const char *kind, const spmvlab_gen_params *p, spmvlab_err *err);

/* Generates the matrix into out (a general real CSR; free with
 * spmvlab_csr_free). Returns 0, or -1 with a sentence; out is then empty. */
int spmvlab_gen(const char *kind, const spmvlab_gen_params *p, spmvlab_csr *out, spmvlab_err *err);

/* The canonical description "kind key=value ..." with every parameter of
 * the kind (defaults filled in, table order), as written into file headers
 * and hashed into cache names. Returns 0, or -1 as spmvlab_gen_check. */
int spmvlab_gen_describe(const char *kind, const spmvlab_gen_params *p, char *buf, size_t len,
                         spmvlab_err *err);

/* ---- benchmark sets ------------------------------------------------------- */

#define SPMVLAB_SET_NAME_LEN 48       /* longest matrix name + 1 (inih keeps 49) */
#define SPMVLAB_PATH_LEN 4096

/* One matrix of a set: generated (kind non-empty) or read from path. */
typedef struct spmvlab_set_entry {
    char name[SPMVLAB_SET_NAME_LEN];  /* section name, [A-Za-z0-9_.+-]+ */
    char kind[32];                    /* generator kind, "" for a file entry */
    spmvlab_gen_params params;        /* generator parameters */
    char path[SPMVLAB_PATH_LEN];      /* file entry: the path, resolved against the set's root */
    int optional;                     /* a missing file is skipped, not an error */
    char family[SPMVLAB_SET_NAME_LEN]; /* family = NAME (the selector's leave-one-family-out), "" unset */
    int line;                         /* line of the section header in the set file */
} spmvlab_set_entry;

/* A parsed set file. Free with spmvlab_set_free. */
typedef struct spmvlab_set {
    char name[64];                    /* file name without directory and .ini */
    char file[SPMVLAB_PATH_LEN];      /* the set file read */
    char description[256];            /* [set] description, may be empty */
    int count;                        /* entries */
    spmvlab_set_entry *entries;       /* count entries, file order */
} spmvlab_set;

/* Loads a set. A name without '/' and not ending in ".ini" is looked up as
 * NAME.ini in $SPMVLAB_SETS_DIR, then the source tree's sets/ folder
 * (SPMVLAB_SOURCE_DIR at compile time), then the installed share folder
 * (SPMVLAB_INSTALL_SETS_DIR); anything else is a file path. Every key is
 * validated; errors name the file and line. Returns 0, or -1 with a sentence. */
int spmvlab_set_load(const char *set_name_or_file, spmvlab_set *out, spmvlab_err *err);

void spmvlab_set_free(spmvlab_set *s);

/* Makes matrix `index` of the set available as a Matrix Market file and
 * writes its path into path_out. A generated matrix is written once into
 * <cache>/gen/<hash>/<name>.mtx (the hash covers the kind, the canonical
 * parameters and the generator version), with its binary CSR cache beside
 * it; a file entry returns its path. Returns 0; 1 when an optional file is
 * missing (sentence in err, path_out empty); -1 with a sentence on failure. */
/* A recipe file (NAME.gen) holds one line "KIND key=value ..." and stands
 * for the generated matrix: loading it goes through the binary cache and
 * regenerates on a miss, so large generated matrices never pass through
 * Matrix Market text. */
#define SPMVLAB_RECIPE_SUFFIX ".gen"
int spmvlab_is_recipe(const char *path);
/* Generates the matrix a recipe file describes. Returns 0 or -1 with err. */
int spmvlab_recipe_read(const char *path, spmvlab_csr *A, spmvlab_err *err);

int spmvlab_set_materialize(const spmvlab_set *s, int index, char *path_out, size_t len,
                            spmvlab_err *err);

/* ---- the tuning / held-out split ------------------------------------------ */

/* Two thirds of the members of a set tune the automatic choices; one third
 * is held out to validate them and is never fitted on. */
typedef enum spmvlab_part {
    SPMVLAB_PART_TUNE = 0,
    SPMVLAB_PART_HELDOUT = 1
} spmvlab_part;

/* The part of a member, from a hash of its name alone (stable across sets
 * and machines; about one name in three is held out). A derived matrix,
 * NAME@ORDERING (also NAME@ORDERING+call), is in the part of NAME. */
spmvlab_part spmvlab_split_part(const char *name);
/* "tune" or "heldout". */
const char *spmvlab_part_name(spmvlab_part part);
/* Reads "tune" or "heldout". Returns 0, or -1 with a sentence. */
int spmvlab_part_parse(const char *text, spmvlab_part *out, spmvlab_err *err);
/* Keeps only the entries of s in part, in file order. */
void spmvlab_set_keep_part(spmvlab_set *s, spmvlab_part part);

#ifdef __cplusplus
}
#endif
#endif
