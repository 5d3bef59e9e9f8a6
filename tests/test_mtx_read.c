/*
 * The Matrix Market loader: every malformed input is refused with one
 * sentence naming the file and the line (and its key words), kinds spmvlab
 * does not handle are refused as such (-2), and everything the format allows
 * is read (duplicates summed, also beyond the cell count); a header whose
 * size passes the host memory is refused before allocating. Inputs are
 * written by the test into a fresh temporary folder, gzip ones through zlib.
 * Last, every file of the fuzzing corpus and of the fuzzing regressions is
 * read once: none may crash or leak (the sanitizer build runs this too).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "testlib.h"

static char dir[] = "/tmp/spmvlab-mtx-XXXXXX";
static int counter;

/* Writes text to a new file in dir; returns its path (static buffer ring). */
static const char *write_plain(const char *text, size_t len)
{
    static char paths[4][4200];
    char *path = paths[counter % 4];
    snprintf(path, sizeof paths[0], "%s/m%03d.mtx", dir, counter++);
    FILE *f = fopen(path, "wb");
    TEST_CHECK(f != NULL);
    if (f) {
        fwrite(text, 1, len, f);
        fclose(f);
    }
    return path;
}

/* Writes text gzip-compressed, keeping only the first keep bytes of the
 * stream (0: all), and flipping the byte at flip (0: none). */
static const char *write_gz(const char *text, size_t keep, size_t flip)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/g%03d.mtx.gz", dir, counter++);
    gzFile gz = gzopen(path, "wb9");
    TEST_CHECK(gz != NULL);
    gzwrite(gz, text, (unsigned)strlen(text));
    gzclose(gz);
    FILE *f = fopen(path, "rb");
    static unsigned char bytes[1 << 20];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    if (keep && keep < n)
        n = keep;
    if (flip && flip < n)
        bytes[flip] ^= 0x55;
    f = fopen(path, "wb");
    fwrite(bytes, 1, n, f);
    fclose(f);
    return path;
}

/* Reads path expecting return code rc, and a message that starts with
 * "<path> line <line>: " and holds every key word (NULL-ended). */
static void expect_at(const char *case_name, const char *path, int rc, int line, const char *const *words)
{
    spmvlab_csr A;
    spmvlab_err err = {{0}};
    int got = spmvlab_mtx_read(path, &A, &err);
    if (got != rc)
        fprintf(stderr, "case '%s': returned %d, expected %d (%s)\n", case_name, got, rc, err.msg);
    TEST_CHECK(got == rc);
    if (got == 0) {
        spmvlab_csr_free(&A);
        return;
    }
    char prefix[4300];
    snprintf(prefix, sizeof prefix, "%s line %d: ", path, line);
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "case '%s': expected the prefix \"%s\" in \"%s\"\n", case_name, prefix, err.msg);
        test_failures++;
    }
    for (int k = 0; words[k]; k++)
        TEST_CONTAINS(err.msg, words[k]);
    /* One sentence: no line break, no final period (the host adds it). */
    TEST_CHECK(strchr(err.msg, '\n') == NULL);
    size_t n = strlen(err.msg);
    TEST_CHECK(n > 0 && err.msg[n - 1] != '.');
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define REFUSE(name, text, line, ...) expect_at(name, write_plain(text, strlen(text)), -1, line, WORDS(__VA_ARGS__))
#define UNSUPPORTED(name, text, ...) expect_at(name, write_plain(text, strlen(text)), -2, 1, WORDS(__VA_ARGS__))

#define BANNER "%%MatrixMarket matrix coordinate real general\n"

static void refuses_malformed_files(void)
{
    REFUSE("empty file", "", 1, "empty");
    REFUSE("no banner", "3 3 1\n1 1 1\n", 1, "missing '%%MatrixMarket' banner");
    REFUSE("misspelt banner", "%%MatrixMarkt matrix coordinate real general\n3 3 0\n", 1, "missing", "banner");
    REFUSE("banner glued to a word", "%%MatrixMarketX matrix coordinate real general\n3 3 0\n", 1, "banner");
    REFUSE("banner on line 2", "% comment\n" BANNER "1 1 0\n", 1, "banner");
    REFUSE("incomplete banner", "%%MatrixMarket matrix coordinate real\n3 3 0\n", 1, "banner is incomplete");
    REFUSE("word after the banner", "%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", 1,
           "unexpected 'extra'");
    REFUSE("no size line", BANNER "% only a comment\n", 3, "size line", "missing");
    REFUSE("size line short", BANNER "3 3\n", 2, "entry count is missing");
    REFUSE("size line long", BANNER "3 3 1 7\n1 1 1\n", 2, "unexpected '7'");
    REFUSE("size not a number", BANNER "3 x 1\n", 2, "column count 'x' is not an integer");
    REFUSE("size with a fraction", BANNER "3.0 3 1\n", 2, "row count '3.0' is not an integer");
    REFUSE("negative rows", BANNER "-3 3 1\n1 1 1\n", 2, "negative size");
    REFUSE("negative entries", BANNER "3 3 -1\n", 2, "negative size");
    REFUSE("overflowing size", BANNER "99999999999999999999 3 1\n", 2, "overflows a 64-bit integer");
    REFUSE("rows beyond 32-bit", BANNER "3000000000 3 0\n", 2, "3000000000 x 3", "32-bit index limit");
    REFUSE("columns beyond 32-bit", BANNER "3 2147483648 0\n", 2, "32-bit index limit");
    REFUSE("entries beyond 32-bit", BANNER "100000 100000 2147483648\n", 2, "2147483648 entries",
           "32-bit index limit");
    REFUSE("more entries than cells, none there", BANNER "2 2 5\n", 3, "ends after 0 of 5 declared entries");
    REFUSE("non-square symmetric", "%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 1\n", 2,
           "must be square", "3 x 4");
    REFUSE("fewer entries", BANNER "3 3 3\n1 1 1\n2 2 2\n", 5, "ends after 2 of 3 declared entries");
    REFUSE("fewer entries, comments last", BANNER "3 3 3\n1 1 1\n% a\n% b\n", 6, "ends after 1 of 3");
    REFUSE("more entries", BANNER "3 3 1\n1 1 1\n% gap\n2 2 2\n", 5, "more entries than the 1 declared on line 2");
    REFUSE("row index zero", BANNER "3 3 1\n0 1 1.0\n", 3, "entry (0, 1)", "outside", "1-based");
    REFUSE("column index zero", BANNER "3 3 2\n1 1 1.0\n2 0 1.0\n", 4, "entry (2, 0)", "1-based");
    REFUSE("row index too large", BANNER "3 3 1\n4 1 1.0\n", 3, "entry (4, 1) lies outside the 3 x 3 matrix");
    REFUSE("column index too large", BANNER "3 5 1\n1 6 1.0\n", 3, "entry (1, 6) lies outside the 3 x 5");
    REFUSE("negative index", BANNER "3 3 1\n-1 1 1.0\n", 3, "entry (-1, 1)", "outside");
    REFUSE("index overflowing", BANNER "3 3 1\n1 123456789012345678901 1.0\n", 3, "column index overflows");
    REFUSE("index not a number", BANNER "3 3 1\none 1 1.0\n", 3, "row index 'one' is not an integer");
    REFUSE("index with a fraction", BANNER "3 3 1\n1 1.5 1.0\n", 3, "column index '1.5' is not an integer");
    REFUSE("value not a number", BANNER "3 3 2\n1 1 1.0\n2 2 abc\n", 4, "value 'abc' is not a number");
    REFUSE("value half a number", BANNER "3 3 1\n1 1 1.0e\n", 3, "value '1.0e' is not a number");
    REFUSE("value with junk", BANNER "3 3 1\n1 1 1.5x\n", 3, "value '1.5x' is not a number");
    REFUSE("hexadecimal value", BANNER "3 3 1\n1 1 0x1p3\n", 3, "value '0x1p3' is not a number");
    REFUSE("nan with payload", BANNER "3 3 1\n1 1 nan(1)\n", 3, "not a number");
    REFUSE("sign alone", BANNER "3 3 1\n1 1 -\n", 3, "value '-' is not a number");
    REFUSE("value missing", BANNER "3 3 2\n1 1 1.0\n2 2\n", 4, "the value is missing");
    REFUSE("column missing", BANNER "3 3 1\n1\n", 3, "the column index is missing");
    REFUSE("truncated in an entry", BANNER "3 3 2\n1 1 1.0\n2 2", 4, "value is missing", "file ends here");
    REFUSE("two entries on a line", BANNER "3 3 2\n1 1 1.0 2 2 2.0\n", 3, "unexpected '2'");
    REFUSE("inline comment", BANNER "3 3 1\n1 1 1.0 % diagonal\n", 3, "unexpected '%'");
    REFUSE("pattern with a value", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1.0\n", 3,
           "unexpected '1.0' after the two indices");
    REFUSE("integer field, real value", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 2.5\n", 3,
           "value '2.5' is not an integer", "'integer' field");
    REFUSE("symmetric above the diagonal", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n1 2 1\n",
           4, "entry (1, 2) lies above the diagonal of a symmetric file");
    REFUSE("skew-symmetric diagonal", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n",
           4, "entry (2, 2) lies on the diagonal of a skew-symmetric file");
    REFUSE("skew-symmetric above", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n1 3 1\n", 3,
           "entry (1, 3) lies above the diagonal of a skew-symmetric file");
    REFUSE("skew-symmetric full", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n1 2 -1\n", 4,
           "above the diagonal");
    static const char with_nul[] = BANNER "3 3 1\n1 1 1\0" "5\n";
    expect_at("NUL byte in a value", write_plain(with_nul, sizeof with_nul - 1), -1, 3, WORDS("is not a number"));
    static const char binary[] = "\x7f" "ELF\x02\x01\x01\0\0\0";
    expect_at("binary file", write_plain(binary, sizeof binary - 1), -1, 1, WORDS("missing", "banner"));
}

static void refuses_unsupported_kinds(void)
{
    UNSUPPORTED("array", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "dense 'array' files",
                "not supported", "coordinate");
    UNSUPPORTED("complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
                "complex matrices are not supported");
    UNSUPPORTED("hermitian", "%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", "hermitian",
                "not supported");
    UNSUPPORTED("vector object", "%%MatrixMarket vector coordinate real general\n3 1\n1 1\n", "object 'vector'",
                "not supported");
    UNSUPPORTED("unknown field", "%%MatrixMarket matrix coordinate quaternion general\n1 1 0\n",
                "field 'quaternion' is not supported");
    UNSUPPORTED("unknown symmetry", "%%MatrixMarket matrix coordinate real diagonal\n1 1 0\n",
                "symmetry 'diagonal' is not supported");
}

static void refuses_damaged_gzip(void)
{
    /* Enough lines that a cut in the middle of the stream is a cut in the
     * middle of the text; zlib hands over what it decompressed. */
    size_t cap = 1 << 19, used = 0;
    char *text = malloc(cap);
    used += (size_t)snprintf(text + used, cap - used, "%s", BANNER "20000 20000 20000\n");
    for (int i = 1; i <= 20000; i++)
        used += (size_t)snprintf(text + used, cap - used, "%d %d %d.%d\n", i, (i * 7919) % 20000 + 1, i, i % 97);
    const char *path = write_gz(text, 0, 0);
    spmvlab_csr A;
    spmvlab_err err;
    TEST_CHECK(spmvlab_mtx_read(path, &A, &err) == 0 && A.nnz == 20000);
    spmvlab_csr_free(&A);
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long gz_len = ftell(f);
    fclose(f);

    /* A cut halfway: the error names the line where the readable text ends,
     * which lies well inside the file. */
    path = write_gz(text, (size_t)gz_len / 2, 0);
    TEST_CHECK(spmvlab_mtx_read(path, &A, &err) == -1);
    TEST_CONTAINS(err.msg, "the gzip stream is truncated");
    char pre[4300];
    snprintf(pre, sizeof pre, "%s line ", path);
    TEST_CHECK(strncmp(err.msg, pre, strlen(pre)) == 0);
    long line = atol(err.msg + strlen(pre));
    TEST_CHECK(line > 1000 && line < 20000);

    expect_at("gzip cut in the header", write_gz(text, 6, 0), -1, 1, WORDS("gzip stream is truncated"));
    expect_at("gzip without its trailer", write_gz(text, (size_t)gz_len - 4, 0), -1, 20003,
              WORDS("gzip stream is truncated"));
    path = write_gz(text, 0, (size_t)gz_len / 3);
    TEST_CHECK(spmvlab_mtx_read(path, &A, &err) == -1);
    TEST_CONTAINS(err.msg, "gzip stream is corrupt");
    TEST_CONTAINS(err.msg, " line ");
    free(text);
}

/* Reads text that must be accepted; returns 0 and fills A. */
static int accept(const char *case_name, const char *text, size_t len, spmvlab_csr *A)
{
    spmvlab_err err = {{0}};
    const char *path = write_plain(text, len);
    if (spmvlab_mtx_read(path, A, &err) != 0) {
        fprintf(stderr, "case '%s' refused: %s\n", case_name, err.msg);
        test_failures++;
        return -1;
    }
    return 0;
}

/* The value at (i, j) (0-based), NAN when not stored. */
static double at(const spmvlab_csr *A, int32_t i, int32_t j)
{
    for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
        if (A->col_idx[k] == j)
            return A->val[k];
    return NAN;
}

static void accepts_what_the_format_allows(void)
{
    spmvlab_csr A;
    static const char messy[] = "%%MatrixMarket Matrix COORDINATE Real General  \r\n"
                                "% comment after the banner\r\n"
                                "\r\n"
                                "   \t \r\n"
                                "%another\r\n"
                                "  3\t3   4  \r\n"
                                "% comment between entries\n"
                                "\n"
                                "1\t1\t1.5\r\n"
                                "   2 3 -2.5e0   \n"
                                "%\n"
                                "3 1 0\n"          /* explicit zero: kept */
                                "2 3 1.25d0";      /* duplicate (summed), Fortran exponent, no final newline */
    if (accept("comments, blanks, tabs, CRLF, trailing blanks, no final newline", messy, sizeof messy - 1, &A) == 0) {
        TEST_CHECK(A.rows == 3 && A.cols == 3 && A.nnz == 3);
        TEST_CHECK(at(&A, 0, 0) == 1.5);
        TEST_CHECK(at(&A, 1, 2) == -1.25);
        TEST_CHECK(at(&A, 2, 0) == 0.0);
        TEST_CHECK(strcmp(A.symmetry, "general") == 0 && strcmp(A.field, "real") == 0);
        spmvlab_csr_free(&A);
    }
    static const char comment_last[] = BANNER "2 2 1\n1 2 3\n% trailing comment without newline";
    if (accept("comment as the last line", comment_last, sizeof comment_last - 1, &A) == 0) {
        TEST_CHECK(A.nnz == 1 && at(&A, 0, 1) == 3.0);
        spmvlab_csr_free(&A);
    }
    static const char sym[] = "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 4\n3 1 2\n3 2 -1\n";
    if (accept("symmetric expansion", sym, sizeof sym - 1, &A) == 0) {
        TEST_CHECK(A.nnz == 5 && at(&A, 0, 2) == 2 && at(&A, 2, 0) == 2 && at(&A, 1, 2) == -1 && at(&A, 2, 1) == -1);
        TEST_CHECK(strcmp(A.symmetry, "symmetric") == 0);
        spmvlab_csr_free(&A);
    }
    static const char skew[] = "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 5\n3 2 -7\n";
    if (accept("skew-symmetric expansion", skew, sizeof skew - 1, &A) == 0) {
        TEST_CHECK(A.nnz == 4 && at(&A, 1, 0) == 5 && at(&A, 0, 1) == -5 && at(&A, 2, 1) == -7 && at(&A, 1, 2) == 7);
        spmvlab_csr_free(&A);
    }
    static const char pattern[] = "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n";
    if (accept("pattern", pattern, sizeof pattern - 1, &A) == 0) {
        TEST_CHECK(A.nnz == 3 && at(&A, 0, 0) == 1 && at(&A, 0, 1) == 1 && at(&A, 1, 0) == 1);
        TEST_CHECK(strcmp(A.field, "pattern") == 0);
        spmvlab_csr_free(&A);
    }
    static const char dups[] = BANNER "2 2 4\n2 2 1\n2 2 2\n2 2 -3\n1 1 0.5\n";
    if (accept("duplicates summed, to zero too", dups, sizeof dups - 1, &A) == 0) {
        TEST_CHECK(A.nnz == 2 && at(&A, 1, 1) == 0.0 && at(&A, 0, 0) == 0.5);
        spmvlab_csr_free(&A);
    }
    /* More entries than cells: duplicates, summed (as scipy reads them) */
    static const char one_cell[] = BANNER "1 1 2\n1 1 2\n1 1 3\n";
    if (accept("two entries in a 1 x 1 matrix", one_cell, sizeof one_cell - 1, &A) == 0) {
        TEST_CHECK(A.rows == 1 && A.cols == 1 && A.nnz == 1 && at(&A, 0, 0) == 5.0);
        spmvlab_csr_free(&A);
    }
    static const char column[] = BANNER "3 1 5\n1 1 1\n2 1 2\n1 1 3\n3 1 4\n2 1 -2\n";
    if (accept("five entries in a 3 x 1 matrix", column, sizeof column - 1, &A) == 0) {
        TEST_CHECK(A.nnz == 3 && at(&A, 0, 0) == 4.0 && at(&A, 1, 0) == 0.0 && at(&A, 2, 0) == 4.0);
        spmvlab_csr_free(&A);
    }
    static const char sym_dups[] = "%%MatrixMarket matrix coordinate real symmetric\n2 2 4\n1 1 1\n2 1 1\n2 1 1\n"
                                   "1 1 1\n";
    if (accept("four entries in the three cells of a symmetric 2 x 2", sym_dups, sizeof sym_dups - 1, &A) == 0) {
        TEST_CHECK(A.nnz == 3 && at(&A, 0, 0) == 2.0 && at(&A, 1, 0) == 2.0 && at(&A, 0, 1) == 2.0);
        spmvlab_csr_free(&A);
    }
    static const char empty[] = BANNER "0 0 0\n";
    if (accept("0 x 0", empty, sizeof empty - 1, &A) == 0) {
        TEST_CHECK(A.rows == 0 && A.cols == 0 && A.nnz == 0 && A.row_ptr && A.row_ptr[0] == 0);
        spmvlab_csr_free(&A);
    }
    static const char no_entries[] = BANNER "4 1 0";
    if (accept("no entries, no final newline", no_entries, sizeof no_entries - 1, &A) == 0) {
        TEST_CHECK(A.rows == 4 && A.cols == 1 && A.nnz == 0 && A.row_ptr[4] == 0);
        spmvlab_csr_free(&A);
    }
    char numbers[1024];
    snprintf(numbers, sizeof numbers, "%s",
             BANNER "1 9 9\n1 1 +1.\n1 2 .5\n1 3 -0.000000000000000000000000000125\n1 4 1e400\n"
                    "1 5 12345678901234567890123\n1 6 1.0000000000000000000000000000000000000000000000000"
                    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                    "00000000000000000000000000000000000000000000000001e2\n1 7 -1D-3\n1 8 2E+2\n1 9 -0\n");
    if (accept("number forms", numbers, strlen(numbers), &A) == 0) {
        TEST_CHECK(at(&A, 0, 0) == 1.0 && at(&A, 0, 1) == 0.5 && at(&A, 0, 2) == -1.25e-28);
        TEST_CHECK(isinf(at(&A, 0, 3)) && at(&A, 0, 4) == 12345678901234567890123.0);
        TEST_CHECK(at(&A, 0, 5) == 100.0 && at(&A, 0, 6) == -1e-3 && at(&A, 0, 7) == 200.0);
        TEST_CHECK(at(&A, 0, 8) == 0.0);
        spmvlab_csr_free(&A);
    }
    const char *gz = write_gz(sym, 0, 0);
    spmvlab_err err;
    TEST_CHECK(spmvlab_mtx_read(gz, &A, &err) == 0 && A.nnz == 5 && at(&A, 2, 0) == 2);
    spmvlab_csr_free(&A);
}

/* A header whose row offsets alone pass the memory the process may use
 * is refused before anything is allocated, naming the size and the bytes
 * (not "out of host memory for 1 entries"). The limit is an address-space
 * limit in a child; skipped under AddressSanitizer, whose shadow memory
 * cannot live under one. */
static void refuses_a_header_beyond_host_memory(void)
{
#if defined(__SANITIZE_ADDRESS__)
    printf("a header beyond host memory: skipped under AddressSanitizer\n");
#else
    static const char text[] = BANNER "2147483647 2147483647 1\n1 1 1\n";
    const char *path = write_plain(text, sizeof text - 1);
    int fd[2];
    TEST_CHECK(pipe(fd) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        struct rlimit rl = {1ull << 30, 1ull << 30};
        spmvlab_csr A;
        spmvlab_err err = {{0}};
        int rc = setrlimit(RLIMIT_AS, &rl) == 0 ? spmvlab_mtx_read(path, &A, &err) : 1;
        dprintf(fd[1], "%d %s", rc, err.msg);
        _exit(0);
    }
    close(fd[1]);
    char out[SPMVLAB_ERR_LEN + 16] = "";
    size_t got = 0;
    ssize_t n;
    while (got + 1 < sizeof out && (n = read(fd[0], out + got, sizeof out - 1 - got)) > 0)
        got += (size_t)n;
    out[got] = '\0';
    close(fd[0]);
    waitpid(pid, NULL, 0);
    char prefix[4400];
    snprintf(prefix, sizeof prefix, "-1 %s line 2: ", path);
    if (strncmp(out, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "a header beyond host memory: expected \"%s...\", got \"%s\"\n", prefix, out);
        test_failures++;
    }
    TEST_CONTAINS(out, "2147483647 x 2147483647 matrix");
    TEST_CONTAINS(out, "8.0 GiB (8589934592 bytes)");
    TEST_CONTAINS(out, "1.0 GiB of host memory this process may use");
#endif
}

/* NaN and Inf are read as they are; the verifier reports rows whose
 * reference is not finite instead of passing them. */
static void accepts_nan_and_inf_and_the_verifier_reports_them(void)
{
    static const char text[] = BANNER "3 3 4\n1 1 NaN\n2 2 -inf\n3 3 Infinity\n3 1 1\n";
    spmvlab_csr A;
    if (accept("nan and inf", text, sizeof text - 1, &A))
        return;
    TEST_CHECK(isnan(at(&A, 0, 0)) && isinf(at(&A, 1, 1)) && at(&A, 1, 1) < 0 && isinf(at(&A, 2, 2)));
    spmvlab_matrix m = {"nan", A.rows, A.cols, A.nnz, SPMVLAB_F64, A.row_ptr, A.col_idx, A.val, NULL, NULL, NULL};
    double x[3] = {0.5, -0.25, 0.75}, ref[3], absum[3];
    spmvlab_reference(&m, x, ref, absum);
    spmvlab_verdict v;
    spmvlab_verify(&m, ref, ref, absum, &v); /* even y == ref must not pass */
    TEST_CHECK(!v.ok);
    TEST_CHECK(v.nonfinite_ref == 3);
    spmvlab_csr_free(&A);
}

/* Reads a file: no crash, and a refusal names the file. */
static void read_one(const char *file)
{
    spmvlab_csr A;
    spmvlab_err err = {{0}};
    int rc = spmvlab_mtx_read(file, &A, &err);
    TEST_CHECK(rc == 0 || rc == -1 || rc == -2);
    if (rc == 0)
        spmvlab_csr_free(&A);
    else
        TEST_CONTAINS(err.msg, file);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    refuses_malformed_files();
    refuses_unsupported_kinds();
    refuses_damaged_gzip();
    accepts_what_the_format_allows();
    refuses_a_header_beyond_host_memory();
    accepts_nan_and_inf_and_the_verifier_reports_them();
    test_for_each_file("fuzz/corpus/mtx", read_one);
    test_for_each_file("fuzz/regressions/mtx", read_one);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_done("test_mtx_read");
}
