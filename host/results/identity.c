/* A group's identity into a member's row; see identity.h. */
#include <stdio.h>

#include "identity.h"

void identity_to_row(const run_identity *id, const spmvlab_instance_spec *spec, run_row *r)
{
    *r = id->row;
    snprintf(r->instance, sizeof r->instance, "%s", spec->label);
    snprintf(r->plugin, sizeof r->plugin, "%s", spec->plugin->desc->name);
    snprintf(r->plugin_file, sizeof r->plugin_file, "%.*s", (int)sizeof r->plugin_file - 1, spec->plugin->path);
    snprintf(r->plugin_version, sizeof r->plugin_version, "%s", spec->plugin->desc->version);
    snprintf(r->plugin_hash, sizeof r->plugin_hash, "%s", spec->plugin->hash);
    snprintf(r->options, sizeof r->options, "%s", spec->options_text);
}
