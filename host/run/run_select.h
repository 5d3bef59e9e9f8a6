/*
 * Selector instances of run and tune (a section with `plugin = select`):
 * their corpora, opened once per run and dtype before anything is
 * measured, and per matrix the instance the corpus favours, run under the
 * selector's label like any member of the group.
 */
#ifndef SPMVLAB_HOST_RUN_SELECT_H
#define SPMVLAB_HOST_RUN_SELECT_H

#include "machine.h"
#include "row.h"
#include "select.h"
#include "spmvlab/config.h"
#include "spmvlab/core.h"

typedef struct run_selectors {
    select_corpus *corpus;      /* [spec * ndtypes + dtype]; filled for selector specs only */
    spmvlab_dtype *dtype;       /* the run's dtypes, in order */
    int nspecs, ndtypes;
} run_selectors;

/* The features of the matrix under way, computed once for every selector. */
typedef struct run_select_matrix {
    const spmvlab_csr *A;
    const char *label;          /* its label: a corpus member never chooses for itself */
    int have;                   /* 0: not computed yet */
    int bad;                    /* spmvlab_features_of failed: why says so */
    spmvlab_features f;
    double ms;                  /* host time of spmvlab_features_of */
    char why[SPMVLAB_ERR_LEN];
} run_select_matrix;

/* The features of m, computed on first use (every row carries them);
 * NULL when they could not be (m->why says so). */
const spmvlab_features *run_select_features(run_select_matrix *m);

/* One selector's choice for one matrix and dtype: the candidates the
 * evidence ranks first, each built on the matrix like any member of the
 * group (a candidate the matrix refuses is refused there); the fastest
 * one that runs ok is the selector's row (without a GPU: the first). */
typedef struct run_selection {
    spmvlab_instance_spec spec; /* the top candidate: its plugin and options under the selector's label */
    spmvlab_instance_spec candidate[SELECT_MAX_CANDIDATES]; /* candidate[0] is spec */
    int ncandidates;            /* those that could be set up here */
    int chosen;                 /* 1: the candidates are ready to run */
    spmvlab_result refused;     /* when not chosen: the status of its row */
    char note[1024];            /* the row's message: the prediction, or why there is no choice */
    double tune_ms;             /* features plus the choice, host ms */
} run_selection;

/* Opens the corpus of every selector spec for every dtype. Returns 0, or
 * -1 with a sentence naming the instance and the cause. */
int run_selectors_open(run_selectors *sel, const spmvlab_instance_spec *specs, int nspecs,
                       const spmvlab_dtype *dtypes, int ndtypes, spmvlab_err *err);
void run_selectors_close(run_selectors *sel);

/* Chooses for the matrix with selector spec (index spec_index of the run's
 * specs) in dtype d: the plugin loaded through reg, its options set as
 * --option would. Fills out either way (out->chosen says which). */
void run_select_choose(const run_selectors *sel, spmvlab_registry *reg, const spmvlab_instance_spec *spec,
                       int spec_index, spmvlab_dtype d, run_select_matrix *m, run_selection *out);

/* Of the rows of a selection's candidates (in candidate order), the one
 * that stands for the selector: the fastest ok, else the first ok, else
 * the first. Returns its index. */
int run_selection_pick(run_row *const *rows, int n);

/* The selector's columns of the row its picked candidate filled: tune_ms
 * is the cost of the choice (features and ranking, plus the host time of
 * the other candidates), tune_spmvs that time in calls of the picked
 * instance (0 when only one was built or nothing was timed), and the
 * prediction leads the message. others_ms: the other candidates' wall_ms. */
void run_selection_to_row(const run_selection *s, double others_ms, int others, run_row *r);

/* The row of a selector that could not choose for the matrix (no member
 * ran it): its status is s->refused and its message says why. */
void run_selection_refused_row(const run_selection *s, const run_meta *meta, const char *label, const char *path,
                               const spmvlab_csr *A, spmvlab_dtype d, run_row *r);

void run_selection_free(run_selection *s);

#endif
