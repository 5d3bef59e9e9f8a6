/*
 * The selector: recommends a plugin instance for a matrix from the measured
 * results of a corpus. The corpus is the rows of a results CSV of
 * `spmvlab run` (one dtype), each member with its features; a matrix is
 * placed among the members in a normalised space of log-features, and the
 * instances are ranked by how close they came to the fastest instance on
 * the k nearest members where they ran. A format that refuses some
 * neighbours is judged on those it ran on, so a narrow format wins where
 * it is the best; whether the matrix itself is accepted is checked after
 * the ranking (run converts the candidates, --evaluate reads the query's
 * rows), and where the evidence does not single one instance out, the top
 * two or three are measured on the matrix.
 */
#ifndef SPMVLAB_HOST_SELECT_H
#define SPMVLAB_HOST_SELECT_H

#include "row.h"
#include "spmvlab/config.h"
#include "spmvlab/features.h"
#include "spmvlab/gen.h"

#define SELECT_MAX_K SPMVLAB_SELECTOR_MAX_K
#define SELECT_DEFAULT_K 7  /* best of 3 ... 15 leaving one family out (docs/perf/2026-11-28-select) */
#define SELECT_MAX_CANDIDATES 4 /* the top three when the evidence disagrees, plus a fallback */

/* What a member's row says of one instance. */
typedef enum select_state {
    SELECT_NOT_RUN = 0,      /* no row */
    SELECT_OK,               /* measured ok, with a speedup */
    SELECT_REFUSED,          /* a clean refusal: limit, unsupported, invalid-option */
    SELECT_FAILED            /* wrong, or failed */
} select_state;

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
    char family[256];        /* its label without the size suffix (select_family_of) */
    int part;                /* spmvlab_part of its label */
    spmvlab_features features;
    double z[SPMVLAB_FEATURE_COUNT]; /* its normalised coordinates */
    double *speedup;         /* per instance: speedup over the baseline, NaN when not ok */
    double *ms;              /* per instance: median time, NaN when not ok */
    unsigned char *state;    /* per instance: select_state */
    double best;             /* the largest speedup of any instance on it */
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
    int left_out;            /* members left out: not run (skipped, unreadable), or no features */
    char left_out_note[1024]; /* one sentence about them, "" when none */
} select_corpus;

/* How the choice weighs its evidence; select_params_default gives the
 * rules measured in docs/perf/2026-11-28-select. */
typedef struct select_params {
    int k;                   /* neighbours weighed */
    double distance_power;   /* neighbour weight 1 / (distance + 0.1)^p; 0: equal weights */
    double min_support;      /* least share of the neighbours' weight an instance must have run ok on */
    double margin;           /* candidates within this factor of the top score are measured */
    int measure;             /* at most this many candidates measured where the evidence disagrees (1: none) */
    double feature_weight[SPMVLAB_FEATURE_COUNT]; /* scale of each normalised coordinate */
} select_params;

void select_params_default(select_params *p);

/* The choice for one matrix, with its evidence. */
typedef struct select_choice {
    select_instance chosen;  /* the top-ranked candidate */
    int index;               /* the chosen instance in the corpus's list */
    double predicted;        /* geomean speedup of chosen over the neighbours it ran ok on */
    int covered;             /* neighbours the chosen instance was measured ok on */
    int k;                   /* neighbours used */
    int neighbour[SELECT_MAX_K]; /* member indices, nearest first */
    double distance[SELECT_MAX_K];
    int candidate[SELECT_MAX_CANDIDATES]; /* instances to build on the matrix, best first: the
                                             fastest of those it accepts is the choice */
    double score[SELECT_MAX_CANDIDATES];  /* each one's predicted fraction of the fastest */
    int ncandidates;         /* 1 when the evidence is clear and the top one ran on every neighbour */
    int disagree;            /* 1: the top candidates are within the margin, so they are measured */
    double cost_ms;          /* host time of select_choose */
} select_choice;

/* Builds the corpus from the rows of dtype; with only_part >= 0, only the
 * members of that part of the split (spmvlab_split_part). Rows of inputs
 * no instance ran on (skipped, unreadable) and of selector instances are
 * left out. Features are left zero (select_corpus_features fills them).
 * Returns 0, or -1 with a sentence when no row of dtype has a speedup. */
int select_corpus_from_rows(const run_rows *rows, const char *dtype, int only_part,
                            select_corpus *c, spmvlab_err *err);

/* Fills every member's features: from features_csv when it lists the
 * member (may be NULL or missing), else by loading its source (a relative
 * source not found from here is tried beside results_path); writes
 * features_csv back when it computed any. A member whose matrix cannot be
 * read is left out (left_out_note says so once). Then normalises. Returns
 * 0, or -1 with a sentence when no member is left. */
int select_corpus_features(select_corpus *c, const char *results_path, const char *features_csv,
                           spmvlab_err *err);

/* The whole preparation in one call, as `spmvlab select` and a `plugin =
 * select` instance of `run` need it: reads results_path, keeps the rows of
 * dtype (and of one part when only_part >= 0) and fills the features
 * (features_csv NULL: a file in the cache folder named after the results
 * file keeps them between calls). Returns 0, or -1 with a sentence. */
int select_corpus_open(const char *results_path, const char *features_csv, const char *dtype,
                       int only_part, select_corpus *c, spmvlab_err *err);

/* select_corpus_open over the rows of several results files together (the
 * tune part's and the held-out part's, measured apart); the features cache
 * is named after the first. */
int select_corpus_open_many(const char *const *results_paths, int n, const char *features_csv, const char *dtype,
                            int only_part, select_corpus *c, spmvlab_err *err);

/* Sets the family of every member that the set (a name or an INI file)
 * gives a `family = NAME` key. Returns 0, or -1 with a sentence when the
 * set cannot be read. */
int select_corpus_families(select_corpus *c, const char *set, spmvlab_err *err);

/* The features file kept for results_path in the cache folder. Returns 0,
 * or -1 when there is no cache folder or SPMVLAB_NO_CACHE turns it off. */
int select_features_cache_path(const char *results_path, char *out, size_t len);

/* Sets every member's normalised coordinates from its features: each
 * log-feature centred on the corpus mean and divided by its spread. */
void select_corpus_normalise(select_corpus *c);

/* A member's family: its label without the size suffix ("-2e5", "-1.5e7")
 * or, for R-MAT members, without the scale ("rmat-s18-e16" -> "rmat-e16"). */
void select_family_of(const char *matrix, char *out, size_t len);

/* Chooses for a matrix of features f with the rules of p among the
 * nearest members that usable[] allows (NULL: all; a member labelled
 * `self` is always left out, so a corpus matrix is never its own
 * evidence). Deterministic. Returns 0, or -1 with a sentence when no
 * instance was measured ok on any neighbour. */
int select_choose_with(const spmvlab_features *f, const select_corpus *c, const select_params *p,
                       const char *self, const unsigned char *usable, select_choice *out, spmvlab_err *err);

/* select_choose_with under the default rules with k neighbours. */
int select_choose(const spmvlab_features *f, const select_corpus *c, int k, const char *self,
                  select_choice *out, spmvlab_err *err);

void select_corpus_free(select_corpus *c);

#endif
