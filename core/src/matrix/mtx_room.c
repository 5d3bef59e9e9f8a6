/*
 * What a Matrix Market header implies, checked before anything is
 * allocated for it: the CSR's row offsets take (rows + 1) x 4 bytes however
 * few entries follow, so a 94-byte file can declare a matrix whose offsets
 * alone take 8 GiB. Such a header is refused with its size and the bytes it
 * needs when they pass the host memory this process may use; entries never
 * count here, since their arrays grow with what the text actually holds.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mtx_internal.h"

/* The host memory this process may use: physical memory, lowered by an
 * address-space or data limit (ulimit -v, -d). 0 when unknown. */
static uint64_t usable_host_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t usable = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    static const int limits[] = {RLIMIT_AS, RLIMIT_DATA};
    for (size_t k = 0; k < sizeof limits / sizeof *limits; k++) {
        struct rlimit rl;
        if (getrlimit(limits[k], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
            (usable == 0 || (uint64_t)rl.rlim_cur < usable))
            usable = (uint64_t)rl.rlim_cur;
    }
    return usable;
}

void mtx_bytes_text(uint64_t bytes, char *out, size_t len)
{
    if (bytes >= (1ull << 30))
        snprintf(out, len, "%.1f GiB", (double)bytes / (1ull << 30));
    else if (bytes >= (1ull << 20))
        snprintf(out, len, "%.1f MiB", (double)bytes / (1ull << 20));
    else
        snprintf(out, len, "%llu bytes", (unsigned long long)bytes);
}

int mtx_check_room(const char *path, long line, long long rows, long long cols, spmvlab_err *err)
{
    uint64_t need = ((uint64_t)rows + 1) * sizeof(int32_t), usable = usable_host_bytes();
    if (usable == 0 || need <= usable)
        return 0;
    char need_text[32], usable_text[32];
    mtx_bytes_text(need, need_text, sizeof need_text);
    mtx_bytes_text(usable, usable_text, sizeof usable_text);
    spmvlab_errf(err, "%s line %ld: the header declares a %lld x %lld matrix, whose row offsets alone need %s "
                 "(%llu bytes), more than the %s of host memory this process may use", path, line, rows, cols,
                 need_text, (unsigned long long)need, usable_text);
    return -1;
}
