/* Checks and facts of a plugin file before and after loading; see plugin_file.h. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "plugin_file.h"

/* The <name> of libspmvlab_<name>.so, or "" when the file is named otherwise. */
void plugin_file_name(const char *path, char *out, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    out[0] = '\0';
    size_t n = strlen(base);
    if (strncmp(base, "libspmvlab_", 11) != 0 || n < 15 || strcmp(base + n - 3, ".so") != 0)
        return;
    size_t m = n - 14;
    if (m >= len)
        m = len - 1;
    memcpy(out, base + 11, m);
    out[m] = '\0';
}

/* 1 when the folder holding path may be written by every user. A sticky
 * folder (/tmp) counts too: anyone may create a new plugin file there. */
static int folder_writable_by_all(const char *path, char *dir, size_t len)
{
    snprintf(dir, len, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    struct stat st;
    return stat(dir, &st) == 0 && (st.st_mode & S_IWOTH);
}

/* Refuses files and folders that anyone may write to: loading them would run
 * whatever another user put there. Checks the file, its folder, and the
 * folder of the name it was found under when that is a link elsewhere. */
int plugin_file_writable_by_others(const char *path, const char *real, spmvlab_err *err)
{
    struct stat st;
    if (stat(real, &st) == 0 && (st.st_mode & S_IWOTH)) {
        spmvlab_errf(err, "refusing plugin %s: the file is writable by every user", path);
        return 1;
    }
    char dir[PATH_MAX];
    if (folder_writable_by_all(real, dir, sizeof dir) || folder_writable_by_all(path, dir, sizeof dir)) {
        spmvlab_errf(err, "refusing plugin %s: its folder %s is writable by every user", path, dir);
        return 1;
    }
    return 0;
}

/* FNV-1a 64 of the file's bytes as 16 hex digits into hex (17 bytes), or ""
 * when it cannot be read: it names the build in every result row. */
void plugin_file_hash(const char *path, char hex[17])
{
    hex[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 0x100000001b3ull;
    if (!ferror(f))
        snprintf(hex, 17, "%016llx", (unsigned long long)h);
    fclose(f);
}
