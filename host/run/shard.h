/*
 * Shards of a run (--shard I/N): every matrix x dtype cell belongs to
 * exactly one of N shards, chosen by a hash of the matrix's label and the
 * dtype, so the assignment needs no list and stays put when matrices are
 * added or removed (a shard's resume file stays valid). Shards are numbered
 * from 0, as Slurm numbers array tasks with --array=0-(N-1).
 */
#ifndef SPMVLAB_HOST_SHARD_H
#define SPMVLAB_HOST_SHARD_H

#include "spmvlab/plugin.h"

#define SHARD_MAX 100000

/* Parses "I/N" (0 <= I < N <= SHARD_MAX). Returns 0, or -1 with a sentence. */
int shard_parse(const char *text, int *index, int *count, spmvlab_err *err);

/* The shard (0 .. count-1) of the cell of matrix label and dtype d. */
int shard_of(int count, const char *label, spmvlab_dtype d);

/* 1 when that cell belongs to shard index of count. */
int shard_owns(int index, int count, const char *label, spmvlab_dtype d);

#endif
