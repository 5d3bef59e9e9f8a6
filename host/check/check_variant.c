/* The second instance of the pair check; see check_variant.h. */
#include <stdio.h>
#include <string.h>

#include "check_variant.h"

/* Values worth trying for one option, nearest the current value first. */
static int option_candidates(const spmvlab_option *t, const spmvlab_opt_value *v, char out[][64], int max)
{
    int n = 0;
    char choices[400];
    switch (t->type) {
    case SPMVLAB_OPT_BOOL:
        snprintf(out[n++], 64, "%s", v->i ? "false" : "true");
        break;
    case SPMVLAB_OPT_ENUM:
        spmvlab_option_choices(t, choices, sizeof choices);
        for (const char *c = choices; *c && n < max;) {
            const char *bar = strchr(c, '|');
            int len = bar ? (int)(bar - c) : (int)strlen(c);
            snprintf(out[n++], 64, "%.*s", len, c);
            c = bar ? bar + 1 : c + len;
        }
        break;
    case SPMVLAB_OPT_INT_AUTO:
        if (v->is_auto) {
            snprintf(out[n++], 64, "%.0f", t->min);
            snprintf(out[n++], 64, "%.0f", t->min + 1);
            snprintf(out[n++], 64, "%.0f", t->max);
            break;
        }
        snprintf(out[n++], 64, "auto");
        /* fall through */
    case SPMVLAB_OPT_INT: {
        long long c[] = {v->i * 2, v->i / 2, v->i + 1, v->i - 1, (long long)t->min, (long long)t->max};
        for (size_t k = 0; k < sizeof c / sizeof *c && n < max; k++)
            snprintf(out[n++], 64, "%lld", c[k]);
        break;
    }
    case SPMVLAB_OPT_FLOAT: {
        double c[] = {v->f * 2, v->f / 2, t->min, t->max};
        for (size_t k = 0; k < sizeof c / sizeof *c && n < max; k++)
            snprintf(out[n++], 64, "%.17g", c[k]);
        break;
    }
    default:
        break;
    }
    return n;
}

/* b = a with one option changed to a value the plugin accepts: the first
 * option, in table order, that has one. Returns 0, or -1 when none has (b
 * is then a plain copy of a). */
int check_make_variant(const spmvlab_plugin *p, const spmvlab_optset *a, spmvlab_optset *b)
{
    spmvlab_err err;
    for (int k = 0; k < a->opts.count; k++) {
        char cand[8][64];
        int n = option_candidates(a->rows[k], &a->values[k], cand, 8);
        for (int c = 0; c < n; c++) {
            if (strcmp(cand[c], a->text[k]) == 0 || spmvlab_optset_copy(b, a, &err))
                continue;
            if (spmvlab_optset_set(b, p->name, a->rows[k]->key, cand[c], &err) == 0 &&
                (!p->check_options || p->check_options(&b->opts, &err) == SPMVLAB_OK))
                return 0;
            spmvlab_optset_free(b);
        }
    }
    spmvlab_optset_copy(b, a, &err);
    return -1;
}

int check_options_differ(const spmvlab_optset *a, const spmvlab_optset *b)
{
    for (int k = 0; k < a->opts.count; k++)
        if (strcmp(a->text[k], b->text[k]) != 0)
            return 1;
    return 0;
}
