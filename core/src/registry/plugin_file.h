/*
 * The plugin file itself, apart from what it declares: the name its file
 * gives it, who may write it, and the hash that names its build. Internal
 * to the registry.
 */
#ifndef SPMVLAB_REGISTRY_PLUGIN_FILE_H
#define SPMVLAB_REGISTRY_PLUGIN_FILE_H

#include <stddef.h>

#include "spmvlab/core.h"

/* The <name> of libspmvlab_<name>.so into out, or "" when the file is
 * named otherwise. */
void plugin_file_name(const char *path, char *out, size_t len);
/* 1 with a sentence in err when the file (real, found as path) or its
 * folder may be written by every user; else 0. */
int plugin_file_writable_by_others(const char *path, const char *real, spmvlab_err *err);
/* FNV-1a 64 of the file's bytes as 16 hex digits into hex, or "" when it
 * cannot be read. */
void plugin_file_hash(const char *path, char hex[17]);

#endif
