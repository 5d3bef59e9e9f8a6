/*
 * The options of the second instance in the side-by-side check: the first
 * instance's options with one value changed to another the plugin accepts,
 * so two differently configured instances of one plugin coexist.
 */
#ifndef SPMVLAB_CHECK_VARIANT_H
#define SPMVLAB_CHECK_VARIANT_H

#include "spmvlab/core.h"

/* b = a with one option changed to a value the plugin accepts: the first
 * option, in table order, that has one. Returns 0, or -1 when none has (b
 * is then a plain copy of a). */
int check_make_variant(const spmvlab_plugin *p, const spmvlab_optset *a, spmvlab_optset *b);
/* 1 when a and b hold different values. */
int check_options_differ(const spmvlab_optset *a, const spmvlab_optset *b);

#endif
