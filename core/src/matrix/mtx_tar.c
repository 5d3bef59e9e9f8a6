/*
 * The matrix inside a SuiteSparse archive: Name.tar.gz holds Name/Name.mtx
 * and, for some matrices, side files (Name_b.mtx right-hand sides,
 * Name_x.mtx solutions, Name_coord.mtx, ...), which are not the matrix.
 * A ustar reader small enough to check by eye: 512-byte headers, octal
 * sizes (or the base-256 form of large members), GNU long names; other
 * entry kinds are stepped over.
 */
#include <stdio.h>
#include <string.h>

#include "mtx_internal.h"

#define BLOCK 512

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int mtx_is_archive(const char *path)
{
    return ends_with(path, ".tar.gz") || ends_with(path, ".tgz") || ends_with(path, ".tar");
}

/* A header's size field: octal digits, or base-256 with the high bit set. */
static int member_size(const unsigned char *f, unsigned long long *out)
{
    unsigned long long v = 0;
    if (f[0] & 0x80) {
        for (int k = 1; k < 12; k++) {
            if (v >> 55)
                return -1;
            v = v << 8 | f[k];
        }
    } else {
        int k = 0;
        while (k < 12 && f[k] == ' ')
            k++;
        for (; k < 12 && f[k] >= '0' && f[k] <= '7'; k++)
            v = v << 3 | (unsigned)(f[k] - '0');
    }
    *out = v;
    return 0;
}

/* 1 when member (a path inside the archive) is the matrix of an archive
 * labelled want: want/want.mtx. */
static int is_main(const char *member, const char *want)
{
    size_t w = strlen(want);
    return strncmp(member, want, w) == 0 && member[w] == '/' && strncmp(member + w + 1, want, w) == 0 &&
           strcmp(member + 2 * w + 1, ".mtx") == 0;
}

/* 1 when member Dir/Name.mtx has Name equal to its folder's name. */
static int is_own_matrix(const char *member)
{
    const char *slash = strrchr(member, '/');
    if (!slash || !ends_with(member, ".mtx"))
        return 0;
    const char *dir = slash;
    while (dir > member && dir[-1] != '/')
        dir--;
    size_t n = (size_t)(slash - dir);
    return strlen(slash + 1) == n + 4 && strncmp(dir, slash + 1, n) == 0;
}

int mtx_tar_member(const char *path, const char *tar, size_t n, const char **data, size_t *len, char *member,
                   size_t mlen, spmvlab_err *err)
{
    char want[256], longname[1024] = "", name[1024];
    member[0] = '\0';
    spmvlab_matrix_label(path, want, sizeof want);
    if (ends_with(want, ".tar"))
        want[strlen(want) - 4] = '\0';
    const char *found = NULL;
    size_t found_len = 0;
    int own = 0, mtx = 0;
    char own_name[1024] = "", listed[300] = "";
    for (size_t at = 0; at + BLOCK <= n;) {
        const unsigned char *h = (const unsigned char *)tar + at;
        if (h[0] == '\0')
            break; /* the two zero blocks at the end */
        unsigned long long size;
        if (member_size(h + 124, &size) || size > n - at - BLOCK)
            return spmvlab_errf(err, "%s: a member's size runs past the end of the archive (truncated?)", path),
                   -1;
        const char *body = tar + at + BLOCK;
        char type = (char)h[156];
        if (longname[0]) {
            snprintf(name, sizeof name, "%s", longname);
            longname[0] = '\0';
        } else if (memcmp(h + 257, "ustar", 5) == 0 && h[345]) {
            snprintf(name, sizeof name, "%.155s/%.100s", (const char *)h + 345, (const char *)h);
        } else {
            snprintf(name, sizeof name, "%.100s", (const char *)h);
        }
        if (type == 'L') {
            snprintf(longname, sizeof longname, "%.*s", (int)(size < sizeof longname ? size : sizeof longname - 1),
                     body);
        } else if (type == '0' || type == '\0') {
            if (ends_with(name, ".mtx")) {
                size_t used = strlen(listed);
                if (used + 4 < sizeof listed) /* the list is cut where it no longer fits */
                    snprintf(listed + used, sizeof listed - used, "%s%.*s", used ? ", " : "",
                             (int)(sizeof listed - used - 3), name);
                mtx++;
            }
            if (is_main(name, want)) {
                found = body;
                found_len = (size_t)size;
                snprintf(member, mlen, "%s", name);
                break;
            }
            if (is_own_matrix(name) && own++ == 0) {
                found = body;
                found_len = (size_t)size;
                snprintf(own_name, sizeof own_name, "%s", name);
            }
        }
        at += BLOCK + (size_t)((size + BLOCK - 1) / BLOCK * BLOCK);
    }
    if (found && !member[0] && own == 1)
        snprintf(member, mlen, "%s", own_name);
    if (!found || !member[0])
        return spmvlab_errf(err, "%s holds no %s/%s.mtx%s%s%s", path, want, want, mtx ? " (its matrices: " : "",
                            listed, mtx ? ")" : ""),
               -1;
    *data = found;
    *len = found_len;
    return 0;
}
