/*
 * libFuzzer harness for the INI reader and the resolution of instances.
 * Each input is read from an in-memory file with spmvlab_config_read and,
 * up to its first NUL, with spmvlab_config_read_string; both must agree.
 * When SPMVLAB_FUZZ_PLUGIN_DIR names the test plugins' folder, every
 * section is also resolved against it (option validation and sweeps,
 * through the test plugin `probe`). A crash, a sanitizer report, a leak or
 * a refusal without "file:line" where a line is at fault is a finding.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "spmvlab/config.h"

static int fd = -1;
static char path[64];
static spmvlab_registry *reg;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fd = memfd_create("fuzz.ini", 0);
    if (fd < 0)
        abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    const char *dir = getenv("SPMVLAB_FUZZ_PLUGIN_DIR");
    if (dir && *dir) {
        reg = spmvlab_registry_new();
        spmvlab_registry_add_dir(reg, dir);
    }
    return 0;
}

static void resolve_all(spmvlab_config *cfg)
{
    char labels[2048] = "";
    size_t used = 0;
    for (int i = 0; i < cfg->nsections && used < sizeof labels; i++)
        if (strcmp(cfg->sections[i].label, "run") != 0)
            used += (size_t)snprintf(labels + used, sizeof labels - used, "%s,", cfg->sections[i].label);
    spmvlab_instance_spec *specs;
    spmvlab_err err = {{0}};
    int n = spmvlab_config_resolve(cfg, reg, labels, &specs, &err);
    if (n > 0)
        spmvlab_instance_specs_free(specs, n);
    else if (!err.msg[0])
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    spmvlab_config cfg = {0};
    spmvlab_err err = {{0}};
    int rc = spmvlab_config_read(&cfg, path, &err);
    if (rc != 0 && rc != -1)
        abort();
    if (rc == -1 && strncmp(err.msg, path, strlen(path)) != 0)
        abort(); /* every refusal of the reader names the file */
    if (rc == 0 && reg)
        resolve_all(&cfg);
    spmvlab_config_free(&cfg);

    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    spmvlab_config scfg = {0};
    spmvlab_err serr = {{0}};
    int src = spmvlab_config_read_string(&scfg, text, "fuzz.ini", &serr);
    if (!memchr(data, '\0', size) && src != rc)
        abort(); /* the file and the string readers must agree */
    spmvlab_config_free(&scfg);
    free(text);
    return 0;
}
