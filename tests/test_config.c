/*
 * Configuration: every error names the file and the line — syntax errors,
 * over-long lines and names, NUL bytes, keys given twice, and (through
 * spmvlab_config_resolve against the test plugin `probe`, which has an
 * option of every type) unknown keys, bad types, values out of range and
 * failed cross-option checks. What is valid is read as written: comments,
 * CRLF, a byte order mark, inline comments, continuation lines (joined with
 * a space), `plugin =` defaulting to the label, `library =`, and value
 * lists expanding into sweeps. Last, the fuzzing corpus and regressions are
 * read (and resolved) once each: none may crash.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

static char tmp[] = "/tmp/spmvlab-config-XXXXXX";
static spmvlab_registry *reg; /* with the test plugins; NULL when not built */

/* Reads text named "t.ini", expecting a refusal "t.ini:<line>: ..." that
 * holds every word (NULL-ended). */
static void expect_read_error(const char *text, int line, const char *const *words)
{
    spmvlab_config cfg = {0};
    spmvlab_err err = {{0}};
    int rc = spmvlab_config_read_string(&cfg, text, "t.ini", &err);
    TEST_CHECK(rc == -1);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "t.ini:%d: ", line);
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "expected the prefix \"%s\" in \"%s\" (text: %.60s)\n", prefix, err.msg, text);
        test_failures++;
    }
    for (int k = 0; words[k]; k++)
        TEST_CONTAINS(err.msg, words[k]);
    spmvlab_config_free(&cfg);
}
#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Reads and resolves labels; returns the instance count or -1 (err set). */
static int resolve(const char *text, const char *labels, spmvlab_instance_spec **specs, spmvlab_err *err)
{
    spmvlab_config cfg = {0};
    *specs = NULL;
    int n = spmvlab_config_read_string(&cfg, text, "t.ini", err);
    if (n == 0)
        n = spmvlab_config_resolve(&cfg, reg, labels, specs, err);
    spmvlab_config_free(&cfg);
    return n;
}

static void expect_resolve_error(const char *text, const char *labels, const char *prefix, const char *const *words)
{
    spmvlab_instance_spec *specs;
    spmvlab_err err = {{0}};
    int n = resolve(text, labels, &specs, &err);
    TEST_CHECK(n == -1);
    if (n > 0)
        spmvlab_instance_specs_free(specs, n);
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "expected the prefix \"%s\" in \"%s\"\n", prefix, err.msg);
        test_failures++;
    }
    for (int k = 0; words[k]; k++)
        TEST_CONTAINS(err.msg, words[k]);
}

static void refuses_syntax_errors_with_their_line(void)
{
    expect_read_error("[a]\nx = 1\njust words\n", 3, WORDS("expected '[section]' or 'key = value'"));
    expect_read_error("; c\n[a\nx = 1\n", 2, WORDS("section header without a closing ']'"));
    expect_read_error("[a b]\n", 1, WORDS("section name 'a b' may hold only letters, digits"));
    expect_read_error("\n\n[]\n", 3, WORDS("section name '' may hold only"));
    expect_read_error("[a/b]\n", 1, WORDS("may hold only"));
    expect_read_error("[a] junk\n", 1, WORDS("unexpected 'junk' after the section header"));
    expect_read_error("[a]\n = 3\n", 2, WORDS("a key name is missing before '='"));
    expect_read_error("[a]\n: 3\n", 2, WORDS("a key name is missing before ':'"));
    expect_read_error("x = 1\n[a]\n", 1, WORDS("'x' comes before any [section]"));
    expect_read_error("[a]\nx = 1\ny = 2\nx = 3\n", 4, WORDS("'x' is set twice in [a]; first on line 2"));
    expect_read_error("[a]\nx = 1\n[b]\n[a]\nx = 3\n", 5, WORDS("'x' is set twice in [a]; first on line 2"));
    /* The first error counts, not a later one. */
    expect_read_error("[a]\nbroken\n[b c]\n", 2, WORDS("expected"));
}

static void refuses_what_inih_would_cut(void)
{
    char text[1024], name[64];
    /* Names: 48 characters are kept whole, 49 are refused. */
    memset(name, 'k', 48);
    name[48] = '\0';
    snprintf(text, sizeof text, "[%s]\n%s = 1\n", name, name);
    spmvlab_config cfg = {0};
    spmvlab_err err;
    TEST_CHECK(spmvlab_config_read_string(&cfg, text, "t.ini", &err) == 0);
    TEST_CHECK(spmvlab_config_section(&cfg, name) && spmvlab_section_get(spmvlab_config_section(&cfg, name), name));
    spmvlab_config_free(&cfg);
    snprintf(text, sizeof text, "[a]\n[%sk]\n", name);
    expect_read_error(text, 2, WORDS("section name is longer than 48 characters"));
    snprintf(text, sizeof text, "[a]\n\n%sk = 1\n", name);
    expect_read_error(text, 3, WORDS("key name is longer than 48 characters"));

    /* Lines: 199 characters are fine (with LF, CRLF or at the end); 200 are
     * refused, and line numbers after a long line stay right. */
    char line199[200];
    memset(line199, 'v', 199);
    line199[199] = '\0';
    memcpy(line199, "tag = ", 6);
    static const char *const ends[] = {"\n", "\r\n", ""};
    for (int k = 0; k < 3; k++) {
        snprintf(text, sizeof text, "[a]\n%s%s", line199, ends[k]);
        cfg = (spmvlab_config){0};
        TEST_CHECK(spmvlab_config_read_string(&cfg, text, "t.ini", &err) == 0);
        const spmvlab_kv *kv = spmvlab_section_get(spmvlab_config_section(&cfg, "a"), "tag");
        TEST_CHECK(kv && strlen(kv->value) == 193);
        spmvlab_config_free(&cfg);
    }
    snprintf(text, sizeof text, "[a]\n%sv\nx = 1\n", line199);
    expect_read_error(text, 2, WORDS("the line is longer than 199 characters"));
    snprintf(text, sizeof text, "; %s\n[a]\n;%s\nbroken\n", line199 + 20, line199 + 20);
    expect_read_error(text, 4, WORDS("expected"));

    /* A NUL byte is refused, from a file. */
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/nul.ini", tmp);
    FILE *f = fopen(path, "wb");
    static const char nul[] = "[a]\nx = 1\ny = 2\0 3\n";
    fwrite(nul, 1, sizeof nul - 1, f);
    fclose(f);
    cfg = (spmvlab_config){0};
    TEST_CHECK(spmvlab_config_read(&cfg, path, &err) == -1);
    char prefix[PATH_MAX + 16];
    snprintf(prefix, sizeof prefix, "%s:3: ", path);
    TEST_CHECK(strncmp(err.msg, prefix, strlen(prefix)) == 0);
    TEST_CONTAINS(err.msg, "NUL byte");
    spmvlab_config_free(&cfg);
}

static void names_the_file_it_cannot_read(void)
{
    spmvlab_config cfg = {0};
    spmvlab_err err;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/missing.ini", tmp);
    TEST_CHECK(spmvlab_config_read(&cfg, path, &err) == -1);
    TEST_CONTAINS(err.msg, "cannot open configuration file");
    TEST_CONTAINS(err.msg, path);
    TEST_CHECK(spmvlab_config_read(&cfg, tmp, &err) == -1); /* a folder */
    TEST_CONTAINS(err.msg, "cannot read configuration file");
    spmvlab_config_free(&cfg);
}

static void reads_what_is_valid(void)
{
    static const char text[] = "\xEF\xBB\xBF; a comment\r\n"
                               "# another\r\n"
                               "[run]\r\n"
                               "dtype = f32 ; inline comment\r\n"
                               "\r\n"
                               "[sell-sigma1]\n"
                               "plugin: sell\n"
                               "sigma = 1,\n"
                               "   32,\n"
                               "\t  256\n"
                               "  ; an indented comment ends nothing\n"
                               "[empty]\n"
                               "  indented = pair\n";
    spmvlab_config cfg = {0};
    spmvlab_err err;
    TEST_CHECK(spmvlab_config_read_string(&cfg, text, "t.ini", &err) == 0);
    spmvlab_section *run = spmvlab_config_section(&cfg, "run");
    TEST_CHECK(run && run->line == 3 && strcmp(run->file, "t.ini") == 0);
    const spmvlab_kv *kv = spmvlab_section_get(run, "dtype");
    TEST_CHECK(kv && strcmp(kv->value, "f32") == 0 && kv->line == 4);
    spmvlab_section *s = spmvlab_config_section(&cfg, "sell-sigma1");
    TEST_CHECK(s && s->line == 6);
    kv = spmvlab_section_get(s, "plugin");
    TEST_CHECK(kv && strcmp(kv->value, "sell") == 0 && kv->line == 7);
    kv = spmvlab_section_get(s, "sigma");
    TEST_CHECK(kv && strcmp(kv->value, "1, 32, 256") == 0);
    TEST_CHECK(kv && kv->line == 8 && kv->cont_line == 10);
    /* An indented line right after a header is a pair, not a continuation. */
    s = spmvlab_config_section(&cfg, "empty");
    TEST_CHECK(s && s->line == 12);
    kv = spmvlab_section_get(s, "indented");
    TEST_CHECK(kv && strcmp(kv->value, "pair") == 0 && kv->line == 13);
    spmvlab_config_free(&cfg);
}

static void validates_keys_against_the_option_table(void)
{
    expect_resolve_error("[p]\nplugin = probe\nnosuch = 1\n", "p", "t.ini:3: ",
                         WORDS("[p] plugin probe has no option 'nosuch'", "count, ratio, flag, mode, tag, width"));
    expect_resolve_error("[p]\nplugin = probe\n\ncount = many\n", "p", "t.ini:4: ",
                         WORDS("option probe.count = 'many' is invalid: expected an integer from 1 to 64"));
    expect_resolve_error("[p]\nplugin = probe\ncount = 2.5\n", "p", "t.ini:3: ", WORDS("an integer from 1 to 64"));
    expect_resolve_error("[p]\nplugin = probe\ncount = 65\n", "p", "t.ini:3: ", WORDS("'65' is invalid"));
    expect_resolve_error("[p]\nplugin = probe\nratio = 1.5\n", "p", "t.ini:3: ",
                         WORDS("probe.ratio = '1.5' is invalid: expected a number from 0 to 1"));
    expect_resolve_error("[p]\nplugin = probe\nratio = nan\n", "p", "t.ini:3: ", WORDS("probe.ratio"));
    expect_resolve_error("[p]\nplugin = probe\nflag = maybe\n", "p", "t.ini:3: ", WORDS("expected true or false"));
    expect_resolve_error("[p]\nplugin = probe\nmode = medium\n", "p", "t.ini:3: ",
                         WORDS("expected one of fast|slow|auto"));
    expect_resolve_error("[p]\nplugin = probe\nwidth = 0\n", "p", "t.ini:3: ",
                         WORDS("an integer from 1 to 32 or 'auto'"));
    /* Cross-option checks name the section. */
    expect_resolve_error("[p]\nplugin = probe\nwidth = 8\ncount = 4\n", "p", "t.ini:1: ",
                         WORDS("probe option width = 8 exceeds count = 4"));
    expect_resolve_error("[p]\nplugin = nosuch\n", "p", "t.ini:2: ", WORDS("unknown plugin 'nosuch'"));
    expect_resolve_error("[p]\nplugin =\n", "p", "t.ini:2: ", WORDS("is not a plugin name"));
    expect_resolve_error("[p]\nlibrary = /nonexistent/libspmvlab_probe.so\n", "p", "t.ini:2: ",
                         WORDS("cannot load plugin", "no such file"));
    expect_resolve_error("[run]\n", "run", "", WORDS("'run' is the settings section"));
    expect_resolve_error("", "probe, probe", "", WORDS("instance label 'probe' is listed twice"));
    expect_resolve_error("", " , ", "", WORDS("no instances to run"));
}

static void plugin_defaults_to_the_label(void)
{
    spmvlab_instance_spec *specs;
    spmvlab_err err;
    int n = resolve("[probe]\ncount = 8\n[variant]\nplugin = probe\nratio = 0.25\n", "probe,variant", &specs, &err);
    TEST_CHECK(n == 2);
    if (n == 2) {
        TEST_CHECK(strcmp(specs[0].label, "probe") == 0 && strcmp(specs[0].plugin->desc->name, "probe") == 0);
        TEST_CHECK(spmvlab_opt_int(&specs[0].opts.opts, "count") == 8);
        TEST_CHECK(strcmp(specs[1].label, "variant") == 0 && strcmp(specs[1].plugin->desc->name, "probe") == 0);
        TEST_CHECK(spmvlab_opt_float(&specs[1].opts.opts, "ratio") == 0.25);
        TEST_CHECK(spmvlab_opt_int(&specs[1].opts.opts, "count") == 4); /* default */
        TEST_CONTAINS(specs[1].options_text, "ratio=0.25");
        spmvlab_instance_specs_free(specs, n);
    }
    /* A label without a section is the plugin of that name, defaults. */
    n = resolve("", "probe", &specs, &err);
    TEST_CHECK(n == 1 && strcmp(specs[0].plugin->desc->name, "probe") == 0);
    if (n > 0)
        spmvlab_instance_specs_free(specs, n);
    /* library = an explicit file; plugin = must then agree with it. */
    char text[PATH_MAX + 64];
    snprintf(text, sizeof text, "[mine]\nlibrary = %s/libspmvlab_probe.so\n", getenv("SPMVLAB_TEST_PLUGIN_DIR"));
    n = resolve(text, "mine", &specs, &err);
    TEST_CHECK(n == 1 && strcmp(specs[0].plugin->desc->name, "probe") == 0);
    if (n > 0)
        spmvlab_instance_specs_free(specs, n);
    snprintf(text, sizeof text, "[mine]\nlibrary = %s/libspmvlab_probe.so\nplugin = csr\n",
             getenv("SPMVLAB_TEST_PLUGIN_DIR"));
    expect_resolve_error(text, "mine", "t.ini:3: ", WORDS("names plugin 'csr' but its library provides 'probe'"));
}

static void value_lists_expand_into_sweeps(void)
{
    spmvlab_instance_spec *specs;
    spmvlab_err err;
    int n = resolve("[sw]\nplugin = probe\ncount = 1, 2,\n    4\nmode = fast,slow\ntag = a, b\n", "sw", &specs, &err);
    TEST_CHECK(n == 6);
    static const char *const labels[] = {"sw[count=1,mode=fast]", "sw[count=1,mode=slow]", "sw[count=2,mode=fast]",
                                         "sw[count=2,mode=slow]", "sw[count=4,mode=fast]", "sw[count=4,mode=slow]"};
    for (int i = 0; i < n && i < 6; i++) {
        TEST_CHECK(strcmp(specs[i].label, labels[i]) == 0);
        TEST_CHECK(strcmp(specs[i].base_label, "sw") == 0);
        TEST_CHECK(spmvlab_opt_int(&specs[i].opts.opts, "count") == (i / 2 == 0 ? 1 : i / 2 == 1 ? 2 : 4));
        TEST_CHECK(strcmp(spmvlab_opt_str(&specs[i].opts.opts, "tag"), "a, b") == 0); /* strings never sweep */
    }
    if (n > 0)
        spmvlab_instance_specs_free(specs, n);
    expect_resolve_error("[sw]\nplugin = probe\ncount = 1, 99\n", "sw", "t.ini:3: ", WORDS("'99' is invalid"));
    expect_resolve_error("[sw]\nplugin = probe\ncount = 1,,2\n", "sw", "t.ini:3: ", WORDS("has an empty item"));
    expect_resolve_error("[sw]\nplugin = probe\ncount = ,\n", "sw", "t.ini:3: ", WORDS("has an empty item"));
    expect_resolve_error("[sw]\nplugin = probe\ncount = 2, 2\n", "sw", "t.ini:3: ", WORDS("lists the value '2' twice"));
    /* Swept values that fail the cross-option check name the instance. */
    expect_resolve_error("[sw]\nplugin = probe\ncount = 8\nwidth = 4, 16\n", "sw", "t.ini:1: ",
                         WORDS("[sw[width=16]] probe option width = 16 exceeds count = 8"));
    /* A label too long to keep whole is refused, never cut (results are
     * told apart and resumed by label). */
    char text[1024], zeros[160];
    memset(zeros, '0', sizeof zeros - 1);
    zeros[sizeof zeros - 1] = '\0';
    snprintf(text, sizeof text, "[sw]\nplugin = probe\ncount = %s1, 2\nmode = fast, slow\n", zeros);
    expect_resolve_error(text, "sw", "t.ini:1: ", WORDS("label would be longer than 127 characters"));
}

/* The nearest known name within a few edits, or none. */
static void closest_name_finds_typos_only(void)
{
    const char *names[] = {"run", "csr", "sell", "cusparse", NULL};
    TEST_CHECK(spmvlab_closest_name("rnu", names, 5) == names[0]);
    TEST_CHECK(spmvlab_closest_name("csrr", names, 5) == names[1]);
    TEST_CHECK(spmvlab_closest_name("cusprase", names, 5) == names[3]);
    TEST_CHECK(spmvlab_closest_name("sell", names, 5) == NULL);
    TEST_CHECK(spmvlab_closest_name("bcsr_blocked", names, 5) == NULL);
}

/* A section that is neither [run] nor an instance is refused with its line
 * and the name it was probably meant to be; option typos get a hint too. */
static void unknown_sections_and_keys_get_a_did_you_mean(void)
{
    expect_resolve_error("[probe]\n[rnu]\nreps = 3\n", "probe", "t.ini:2: ",
                         WORDS("section [rnu] (did you mean [run]?) is neither [run] nor an instance",
                               "no plugin = key"));
    expect_resolve_error("[prboe]\ncount = 3\n", "prboe", "t.ini:1: ", WORDS("[prboe] (did you mean [probe]?)"));
    expect_resolve_error("[probe]\ncuont = 3\n", "probe", "t.ini:2: ",
                         WORDS("has no option 'cuont' (did you mean 'count'?)"));
    spmvlab_instance_spec *specs;
    spmvlab_err err = {{0}};
    int n = resolve("[mine]\nplugin = probe\n[probe]\n", "probe", &specs, &err);
    TEST_CHECK(n == 1);
    if (n > 0)
        spmvlab_instance_specs_free(specs, n);
}

/* Reads a file and, with the test plugins, resolves its every section: no
 * crash whatever it holds. */
static void read_and_resolve(const char *file)
{
    spmvlab_config cfg = {0};
    spmvlab_err err = {{0}};
    if (spmvlab_config_read(&cfg, file, &err) == 0) {
        char labels[4096] = "";
        size_t used = 0;
        for (int i = 0; i < cfg.nsections && used < sizeof labels; i++)
            if (strcmp(cfg.sections[i].label, "run") != 0)
                used += (size_t)snprintf(labels + used, sizeof labels - used, "%s,", cfg.sections[i].label);
        spmvlab_instance_spec *specs;
        int n = spmvlab_config_resolve(&cfg, reg, labels, &specs, &err);
        if (n > 0)
            spmvlab_instance_specs_free(specs, n);
    }
    spmvlab_config_free(&cfg);
}

int main(void)
{
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    refuses_syntax_errors_with_their_line();
    refuses_what_inih_would_cut();
    names_the_file_it_cannot_read();
    reads_what_is_valid();
    closest_name_finds_typos_only();
    const char *dir = getenv("SPMVLAB_TEST_PLUGIN_DIR");
    char probe[PATH_MAX];
    snprintf(probe, sizeof probe, "%s/libspmvlab_probe.so", dir ? dir : ".");
    if (dir && access(probe, R_OK) == 0) {
        reg = spmvlab_registry_new();
        spmvlab_registry_add_dir(reg, dir);
        validates_keys_against_the_option_table();
        plugin_defaults_to_the_label();
        value_lists_expand_into_sweeps();
        unknown_sections_and_keys_get_a_did_you_mean();
        test_for_each_file("fuzz/corpus/ini", read_and_resolve);
        test_for_each_file("fuzz/regressions/ini", read_and_resolve);
        spmvlab_registry_free(reg);
    } else {
        printf("test_config: the test plugins are not built; option validation not tested\n");
        test_failures++;
    }
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return test_done("test_config");
}
