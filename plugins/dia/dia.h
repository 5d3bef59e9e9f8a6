/* The dia plugin's format, shared by the host side (dia.c) and the kernel
 * launcher (dia.cu). */
#ifndef DIA_H
#define DIA_H

#include <stdint.h>

#include <spmvlab/plugin.h>

#include "../common/launch.h"
#include "../common/value_store.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DIA_BLOCK 256 /* rows (threads) per thread block */
#define DIA_SMEM_MAX (48 * 1024) /* shared memory a window may take without opt-in */
/* The coded kernel (values as 4-bit, 1- or 2-byte codes): a thread serves R
 * rows (option rows_per_thread: 2, 4 or 8), lane l of a warp rows l, l + 32,
 * ..., l + 32 (R - 1) of its chunk of 32 R rows, and loads their codes of
 * one diagonal as one word (R codes: R / 2 bytes of 4-bit codes). */
enum dia_rows { DIA_ROWS_AUTO = 0, DIA_ROWS_2 = 2, DIA_ROWS_4 = 4, DIA_ROWS_8 = 8 };
/* auto: 8 rows a thread from 2^19 rows (README.md, "Kernel and x reuse"):
 * below, half the threads of 4 rows leave too few warps to hide the
 * loads. */
#define DIA_ROWS8_MIN_ROWS (1 << 19)
/* values = auto takes codes from 2^22 non-zeros, in f32 from 2^19 rows as
 * well, else pattern or native: below, the coded kernel ran few-valued
 * stencils and bands slower than native values (README.md, "Values"). */
#define DIA_CODES_MIN_NNZ (1 << 22)
#define DIA_CODES_F32_MIN_ROWS (1 << 19)
#define DIA_TABLE8_MAX 256 /* entries of a 1-byte code's table: what the coded kernel stages in shared memory */

/* Diagonals a batch of the coded kernel (option batch). auto: more than
 * DIA_BATCH_MANY diagonals 4 (2 with 2 or 4 rows a thread through L1);
 * else 2 with the shared window or shuffles, and through L1 8 / R, so
 * that a batch keeps 8 x loads a thread in flight (dia_choose_batch). */
#define DIA_BATCH_MANY 16
enum dia_batch { DIA_BATCH_AUTO = 0, DIA_BATCH_1 = 1, DIA_BATCH_2 = 2, DIA_BATCH_4 = 4, DIA_BATCH_8 = 8 };

/* How the kernel reuses x across the diagonals (option x_reuse; as a
 * format's x_path, the one taken: shared, l1 or shuffle). shuffle: the
 * coded kernel loads x once per run of consecutive offsets and passes it
 * between the lanes of a warp (README.md, "Kernel and x reuse"). */
enum dia_reuse { DIA_REUSE_AUTO, DIA_REUSE_SHARED, DIA_REUSE_L1, DIA_REUSE_SHUFFLE };

/* The typed options (ABI 1.1), filled by the core from the option table. */
typedef struct dia_opts {
    double max_fill; /* refuse when stored entries exceed max_fill * nnz */
    int max_diags;   /* refuse when the matrix has more diagonals */
    int x_reuse;     /* enum dia_reuse */
    int values;      /* SPMVLAB_VALUES_*: native, indexed, pattern or auto */
    int batch;       /* enum dia_batch: the coded kernel's diagonals a batch */
    int min_rows_per_diag; /* refuse when rows < this * diagonals; 0: off */
    int rows_per_thread;   /* enum dia_rows: the coded kernel's rows a thread */
    int code_bits;         /* SPMVLAB_CODE_BITS_*: the width of a code; auto by dia_code4_pays */
} dia_opts;

/* One stored diagonal: A(i, i + offset) for begin <= i < end sits at
 * val[start + i - begin]. begin and end are the rows of its first and last
 * non-zero, so nothing beyond the band's ends is stored. 16 bytes: the
 * kernel reads it as one int4. Coded layout (codes of 4 bits, 1 or 2
 * bytes, R rows a thread): the diagonal holds whole chunks of 32 R rows,
 * those its rows touch, each with its codes lane-interleaved: row
 * i = q + 32 j + l (q a multiple of 32 R, 0 <= l < 32) sits at entry
 * start + q + R l + j of val (dia_pos; 4-bit codes two a byte, so a lane's
 * R codes are R / 2 whole bytes); start is then the position chunk 0 would
 * have. */
typedef struct dia_diag {
    int32_t offset; /* column - row */
    int32_t begin;  /* first row stored */
    int32_t end;    /* one past the last row stored */
    int32_t start;  /* position of row begin in val */
} dia_diag;

/* One DIA matrix: host arrays for spmv_host, device copies for spmv. */
typedef struct dia_fmt {
    spmvlab_ctx *ctx;     /* the instance's services; frees device memory */
    spmvlab_dtype dtype;  /* f64 or f32: values, x and y */
    int32_t rows, cols, nnz;
    int32_t ndiag;        /* diagonals stored, ascending offsets */
    int64_t stored;       /* values stored: the sum of the diagonals' lengths */
    int64_t slots;        /* entries of val: stored, or the whole chunks of the coded layout */
    int coded;            /* 1: the coded layout and kernel (vs holds 4-bit, 1- or 2-byte codes) */
    int32_t min_off, max_off; /* offsets of the first and last diagonal (0 without any) */
    int32_t runs;         /* runs of consecutive offsets (a diagonal whose offset is its predecessor's + 1 continues one) */
    int x_path;           /* enum dia_reuse, never AUTO: where the kernel reads x (shared window, L1, shuffles) */
    int x_auto;           /* 1: x_path chosen by x_reuse = auto */
    int batch;            /* coded kernel: diagonals whose loads are in flight together (1, 2, 4 or 8) */
    int coded_rows;       /* coded kernel: rows a thread, R (2, 4 or 8); its chunks hold 32 R rows */
    dia_diag *diags;      /* host, ndiag */
    spmvlab_value_store vs; /* how val holds the values: native, codes or one pattern value */
    void *val;            /* host, stored entries (vs.elem bytes each: values or codes) */
    dia_diag *d_diags;    /* device copies */
    void *d_val;
} dia_fmt;

/* Rows of a chunk of the coded layout (32 lanes of R rows). */
static inline int32_t dia_chunk(const dia_fmt *f) { return 32 * f->coded_rows; }

/* Position in val of row i of diagonal g (native or coded layout). */
static inline int64_t dia_pos(const dia_fmt *f, const dia_diag *g, int32_t i)
{
    if (!f->coded)
        return (int64_t)g->start + (i - g->begin);
    const int32_t r = i % dia_chunk(f);
    return (int64_t)g->start + (i - r) + f->coded_rows * (r % 32) + r / 32;
}

/* The coded kernel's batch for option value `batch` (enum dia_batch), for
 * a format of ndiag diagonals whose x is read by x_path (enum dia_reuse),
 * rows rows a thread (README.md, "Kernel and x reuse"). */
int dia_choose_batch(int batch, int32_t ndiag, int x_path, int rows);

/* 1 when values = auto takes codes (they beat native bytes) for a matrix
 * of dtype, rows and nnz: from DIA_CODES_MIN_NNZ non-zeros, and in f32
 * from DIA_CODES_F32_MIN_ROWS rows as well. */
int dia_codes_pay(spmvlab_dtype dtype, int32_t rows, int32_t nnz);

/* The coded kernel's rows a thread for option value rows_per_thread (enum
 * dia_rows), x read by x_path, ndiag diagonals and rows rows: shuffles take
 * 4; auto 8 from DIA_ROWS8_MIN_ROWS rows, but 4 with the shared window and
 * more than DIA_BATCH_MANY diagonals; below, 4. */
int dia_choose_rows(int rows_per_thread, int x_path, int32_t ndiag, int32_t rows);

/* 1 when code_bits = auto takes 4-bit codes (for a table that holds them)
 * with x read by x_path and rows rows a thread: through L1 always, with the
 * shared window only at 8 rows a thread (at 2 or 4, with x and the table
 * in shared memory, unpacking the short words cost more than the bytes
 * saved: README.md, "Values"). */
int dia_code4_pays(int x_path, int rows);

/* The path x is read by (enum dia_reuse, never AUTO) for option value
 * x_reuse, codes or not, and the offsets' span (max_off - min_off). */
int dia_choose_x_path(int x_reuse, int coded, int32_t span);

/* Launches the row-per-thread kernel (dia.cu) on stream; returns 0 or the
 * cudaError_t code of the launch. */
SPMVLAB_LAUNCHER_DECLS(dia, dia_fmt)

#ifdef __cplusplus
}
#endif
/* The option table (dia_options.c). */
extern const spmvlab_option dia_options[];

#endif
