/*
 * The Matrix Market reader's parts (mtx_read.c): reading a file's bytes,
 * gzip included (mtx_slurp.c), the member of a SuiteSparse archive
 * (mtx_tar.c), the field scanners that name the line of every refusal
 * (mtx_scan.c) and the check of what a header implies (mtx_room.c).
 */
#ifndef SPMVLAB_MTX_INTERNAL_H
#define SPMVLAB_MTX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "spmvlab/core.h"

/* How reading the bytes ended. */
typedef enum { READ_OK, READ_TRUNCATED, READ_CORRUPT } read_end;

/* Reads the whole (possibly gzipped) file into *out. A truncated or corrupt
 * gzip stream still hands back the bytes decompressed so far, so the caller
 * can name the line where they end. Returns 0 (see *how), or -1 with err. */
int mtx_slurp(const char *path, char **out, size_t *len, read_end *how, char *why, size_t why_len, spmvlab_err *err);

/* Line number at the end of n bytes of text. */
long mtx_line_at_end(const char *buf, size_t n);

/* The matrix of a SuiteSparse archive held in memory (a tar file, already
 * decompressed): the member Name/Name.mtx of Name.tar.gz, else the one
 * matrix that is not a side file (Name_b.mtx, Name_x.mtx, ...). Sets
 * *data, *len and the member's name (member, mlen). Returns 0, or -1 with
 * a sentence naming the archive. */
int mtx_tar_member(const char *path, const char *tar, size_t n, const char **data, size_t *len, char *member,
                   size_t mlen, spmvlab_err *err);

/* Refuses, before any allocation, a header whose rows x cols matrix needs
 * more host memory for its row offsets than this process may use (physical
 * memory, ulimit -v or -d). Returns 0, or -1 with a sentence naming the
 * size, the bytes and the line (mtx_room.c). */
int mtx_check_room(const char *path, long line, long long rows, long long cols, spmvlab_err *err);
/* "8.0 GiB", "512.0 MiB" or "4096 bytes". */
void mtx_bytes_text(uint64_t bytes, char *out, size_t len);

/* 1 when path names a tar archive (.tar.gz, .tgz, .tar). */
int mtx_is_archive(const char *path);

typedef struct cursor {
    const char *p, *end;
    long line;
    const char *path;
    spmvlab_err *err;
} cursor;

static inline int mtx_is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
void mtx_skip_blanks(cursor *c);
/* Moves to the next line that is neither blank nor a % comment. Returns 0
 * at end of input. */
int mtx_next_content_line(cursor *c);
/* The field at p (at most 24 printable characters), for messages. */
void mtx_token_text(const char *p, const char *end, char *out, size_t len);
/* Parses a decimal integer (optional sign) into *v; what names it. */
int mtx_parse_int(cursor *c, long long *v, const char *what);
/* Parses a real number (exact fast path, else strtod on a checked copy). */
int mtx_parse_real(cursor *c, double *v);
/* The rest of the line must be blank; after names what came before. */
int mtx_end_of_line(cursor *c, const char *after);

#endif
