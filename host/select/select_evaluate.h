/*
 * The selector judged on measured results (`spmvlab select --evaluate`):
 * each query member's choice made from the other members' rows only, and
 * its measured time against the fastest instance of its own rows (the
 * oracle), beside always taking the baseline and always taking the one
 * instance that is best over the evidence.
 */
#ifndef SPMVLAB_HOST_SELECT_EVALUATE_H
#define SPMVLAB_HOST_SELECT_EVALUATE_H

#include <stdio.h>

#include "select.h"

/* Which members are evidence for which queries. */
typedef enum select_setup {
    SELECT_SETUP_HELDOUT = 0, /* evidence: the tune part; queries: the held-out part */
    SELECT_SETUP_FAMILY       /* every member a query, its own family left out of the evidence */
} select_setup;

/* The rules compared, in the order of select_eval.fraction. */
typedef enum select_rule {
    SELECT_RULE_MEASURED = 0, /* the fastest of the candidates the query accepts */
    SELECT_RULE_PREDICTED,    /* the first candidate the query accepts: no measurement */
    SELECT_RULE_BASELINE,     /* always the baseline instance */
    SELECT_RULE_SINGLE,       /* always the instance best over the evidence */
    SELECT_RULES
} select_rule;

typedef struct select_eval {
    int queries;              /* members judged (those with an ok row) */
    int *query;               /* their member indices */
    double *fraction[SELECT_RULES]; /* per query: oracle time / the rule's time */
    int *pick[SELECT_RULES];  /* per query: the instance the rule took, -1 when none ran */
    double geomean[SELECT_RULES];
    int exact[SELECT_RULES];  /* queries where the rule took an instance as fast as the oracle */
    char single[128];         /* the instance of SELECT_RULE_SINGLE (per fold with families: the commonest) */
    int per_fold;             /* 1: SELECT_RULE_SINGLE was chosen again for each query's evidence */
    double candidates;        /* mean candidates built per query */
    int measured;             /* queries where the evidence disagreed, so candidates were measured */
    int none_accepted;        /* queries that accepted no candidate (timed as the baseline) */
    double choose_ms;         /* mean host time of a choice */
} select_eval;

/* Judges the selector with rules p on c in one setup; only_part >= 0 keeps
 * the queries and evidence of family setups to that part. Returns 0, or -1
 * with a sentence (no query, no evidence, out of memory). */
int select_evaluate(const select_corpus *c, const select_params *p, select_setup setup, int only_part,
                    select_eval *out, spmvlab_err *err);

/* The table of one setup: each rule's fraction of the oracle (geomean),
 * exact-best share and its worst matrices, then the cost of the choice. */
void select_eval_print(FILE *f, const select_corpus *c, const select_eval *e, int worst);

void select_eval_free(select_eval *e);

#endif
