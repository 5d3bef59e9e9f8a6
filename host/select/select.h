/*
 * The selector: recommends a plugin instance for a matrix from the measured
 * results of a corpus. The corpus is the rows of a results CSV of
 * `spmvlab run` (one dtype), each member with its features; a matrix is
 * placed among the members in a normalised space of log-features, and of
 * the instances measured on its k nearest members the one with the best
 * geometric-mean speedup over the baseline is chosen.
 */
#ifndef SPMVLAB_HOST_SELECT_H
#define SPMVLAB_HOST_SELECT_H

#include "run_row.h"
#include "spmvlab/config.h"
#include "spmvlab/features.h"
#include "spmvlab/gen.h"

#define SELECT_MAX_K SPMVLAB_SELECTOR_MAX_K
#define SELECT_DEFAULT_K 5  /* enough to outvote one noisy neighbour */

/* One instance measured on the corpus. */
typedef struct select_instance {
    char instance[128];      /* its label in the results */
    char plugin[64];
    char options[512];       /* every option, "key=value ..." */
} select_instance;

/* One matrix of the corpus. */
typedef struct select_member {
    char matrix[256];        /* its label in the results */
    char source[1024];       /* the file it was read from */
    spmvlab_features features;
    double z[SPMVLAB_FEATURE_COUNT]; /* its normalised coordinates */
    double *speedup;         /* per instance: speedup over the baseline, NaN when not ok */
} select_member;

typedef struct select_corpus {
    int members, instances;
    select_member *member;   /* sorted by matrix label */
    select_instance *instance; /* sorted by instance label */
    char dtype[8];           /* the dtype the rows were taken from */
    char baseline[128];      /* the instance the speedups are over: the baseline of the first row used */
    int computed;            /* members whose features select_corpus_features computed from their matrix
                                (the others were read from the features file) */
    double mean[SPMVLAB_FEATURE_COUNT], scale[SPMVLAB_FEATURE_COUNT]; /* of the log-features */
} select_corpus;

/* The choice for one matrix, with its evidence. */
typedef struct select_choice {
    select_instance chosen;
    int index;               /* the chosen instance in the corpus's list */
    double predicted;        /* geomean speedup of chosen over its neighbours */
    int covered;             /* neighbours the chosen instance was measured ok on */
    int k;                   /* neighbours used */
    int neighbour[SELECT_MAX_K]; /* member indices, nearest first */
    double distance[SELECT_MAX_K];
    double cost_ms;          /* host time of select_choose */
} select_choice;

/* Builds the corpus from the rows of dtype; with only_part >= 0, only the
 * members of that part of the split (spmvlab_split_part). Features are
 * left zero (select_corpus_features fills them). Returns 0, or -1 with a
 * sentence when no row of dtype has a speedup. */
int select_corpus_from_rows(const run_rows *rows, const char *dtype, int only_part,
                            select_corpus *c, spmvlab_err *err);

/* Fills every member's features: from features_csv when it lists the
 * member (may be NULL or missing), else by loading its source (a relative
 * source not found from here is tried beside results_path); writes
 * features_csv back when it computed any. Then normalises. Returns 0, or
 * -1 with a sentence naming the member that failed. */
int select_corpus_features(select_corpus *c, const char *results_path, const char *features_csv,
                           spmvlab_err *err);

/* The whole preparation in one call, as `spmvlab select` and a `plugin =
 * select` instance of `run` need it: reads results_path, keeps the rows of
 * dtype (and of one part when only_part >= 0) and fills the features
 * (features_csv may be NULL). Returns 0, or -1 with a sentence. */
int select_corpus_open(const char *results_path, const char *features_csv, const char *dtype,
                       int only_part, select_corpus *c, spmvlab_err *err);

/* Sets every member's normalised coordinates from its features: each
 * log-feature centred on the corpus mean and divided by its spread. */
void select_corpus_normalise(select_corpus *c);

/* Chooses for a matrix of features f among the k nearest members (ties by
 * label; a member labelled `self` is left out, so a corpus matrix is never
 * its own evidence). Deterministic. Returns 0, or -1 with a sentence when
 * no instance was measured ok on any neighbour. */
int select_choose(const spmvlab_features *f, const select_corpus *c, int k, const char *self,
                  select_choice *out, spmvlab_err *err);

void select_corpus_free(select_corpus *c);

#endif
