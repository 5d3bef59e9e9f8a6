/* Helpers for the tests that run the spmvlab program; see testlib_cli.h. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib_cli.h"

char tmp[] = "/tmp/spmvlab-results-XXXXXX";
const char *host, *data;
char plugdir[4096];

char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

char out_text[1 << 17], err_text[1 << 16];

static void read_into(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* Runs "HOST args" through the shell; stdout / stderr into out_text / err_text. */
int spmvlab(const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s >%s/out 2>%s/err", host, args, tmp, tmp);
    int st = system(cmd);
    char p[600];
    snprintf(p, sizeof p, "%s/out", tmp);
    read_into(p, out_text, sizeof out_text);
    snprintf(p, sizeof p, "%s/err", tmp);
    read_into(p, err_text, sizeof err_text);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}


int csv_load(const char *path, csv *c)
{
    memset(c, 0, sizeof *c);
    char *s = slurp(path);
    if (!s)
        return -1;
    char field[4096];
    size_t fl = 0;
    int q = 0, rec = 0, nf = 0;
    for (char *p = s;; p++) {
        char ch = *p;
        if (q) {
            if (ch == '"' && p[1] == '"') {
                field[fl++] = '"';
                p++;
            } else if (ch == '"') {
                q = 0;
            } else if (ch) {
                if (fl < sizeof field - 1)
                    field[fl++] = ch;
            }
            if (ch)
                continue;
        }
        if (ch == '"' && !q) {
            q = 1;
            continue;
        }
        if (ch == ',' || ch == '\n' || ch == '\0') {
            if (ch == '\0' && nf == 0 && fl == 0)
                break;
            field[fl] = '\0';
            if (rec < 512 && nf < CSV_MAX_FIELDS)
                c->f[rec][nf] = strdup(field);
            nf++;
            fl = 0;
            if (ch != ',') {
                if (rec < 512)
                    c->nf[rec] = nf;
                rec++;
                nf = 0;
            }
            if (ch == '\0')
                break;
            continue;
        }
        if (fl < sizeof field - 1)
            field[fl++] = ch;
    }
    c->nrec = rec < 512 ? rec : 512;
    free(s);
    return 0;
}

void csv_free(csv *c)
{
    for (int r = 0; r < c->nrec; r++)
        for (int k = 0; k < c->nf[r] && k < CSV_MAX_FIELDS; k++)
            free(c->f[r][k]);
}

int col(const csv *c, const char *name)
{
    for (int k = 0; k < c->nf[0] && k < CSV_MAX_FIELDS; k++)
        if (!strcmp(c->f[0][k], name))
            return k;
    return -1;
}

const char *cell(const csv *c, int rec, const char *name)
{
    int k = col(c, name);
    return k >= 0 && k < c->nf[rec] ? c->f[rec][k] : "";
}

double num(const csv *c, int rec, const char *name)
{
    const char *s = cell(c, rec, name);
    return s[0] ? strtod(s, NULL) : NAN;
}

/* A small JSON syntax check: returns the end of one value, or NULL. */
const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}


static const char *json_str(const char *p)
{
    if (*p != '"')
        return NULL;
    for (p++; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\')
            p++;
    }
    return *p == '"' ? p + 1 : NULL;
}

const char *json_value(const char *p)
{
    p = ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                p = json_str(ws(p));
                if (!p || *(p = ws(p)) != ':')
                    return NULL;
                p++;
            }
            if (!(p = json_value(p)))
                return NULL;
            p = ws(p);
            if (*p == ',') {
                p++;
                continue;
            }
            return *p == close ? p + 1 : NULL;
        }
    }
    if (*p == '"')
        return json_str(p);
    if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
        return p + 4;
    if (!strncmp(p, "false", 5))
        return p + 5;
    char *end;
    strtod(p, &end);
    return end > p ? end : NULL;
}

int bundled_count(void)
{
    DIR *d = opendir(data);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        n += l > 7 && !strcmp(e->d_name + l - 7, ".mtx.gz");
    }
    if (d)
        closedir(d);
    return n;
}

int rows_of(const char *path, const char *matrix, const char *instance)
{
    csv c;
    if (csv_load(path, &c))
        return -1;
    int n = 0;
    for (int r = 1; r < c.nrec; r++)
        n += !strcmp(cell(&c, r, "matrix"), matrix) && (!instance || !strcmp(cell(&c, r, "instance"), instance));
    csv_free(&c);
    return n;
}

void write_file(const char *name, const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", tmp, name);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

int cli_setup(void)
{
    host = getenv("SPMVLAB_HOST");
    data = getenv("SPMVLAB_DATA_DIR");
    if (!host || !data || !mkdtemp(tmp)) {
        fprintf(stderr, "SPMVLAB_HOST and SPMVLAB_DATA_DIR are needed: skipped\n");
        return -1;
    }
    /* The test plugins sit in <build>/tests/plugins; the host in <build>/host. */
    snprintf(plugdir, sizeof plugdir, "%s", host);
    for (int up = 0; up < 2; up++) {
        char *s = strrchr(plugdir, '/');
        if (s)
            *s = '\0';
    }
    strncat(plugdir, "/tests/plugins", sizeof plugdir - strlen(plugdir) - 1);
    write_file("faults.ini", "[ok]\nplugin = slowcsr\n[crash]\nplugin = slowcsr\nfault = crash\n[abort]\nplugin = slowcsr\n"
                             "fault = abort\n[hang]\nplugin = slowcsr\nfault = hang\n[wrong]\nplugin = slowcsr\nfault = wrong\n"
                             "[nomem]\nplugin = slowcsr\nfault = nomem\n");
    write_file("ab.ini", "[csr_b]\nplugin = csr\n");
    write_file("badrun.ini", "[run]\nplugins = csr\ncolour = blue\n");
    write_file("broken.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n9 9 2.0\n");
    char runini[8192];
    snprintf(runini, sizeof runini,
             "[run]\nplugins = csr, csr_b\nmatrices = %s/lp_e226.mtx.gz\ndtype = f32\nseed = 5\nreps = 3\n"
             "output = %s/fromini.csv\n[csr_b]\nplugin = csr\nkernel = scalar\n",
             data, tmp);
    write_file("run.ini", runini);

    return 0;
}

void cli_cleanup(const char *name)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (!test_failures && system(cmd) != 0)
        fprintf(stderr, "%s: could not remove %s\n", name, tmp);
}

int slowcsr_built(void)
{
    struct stat sb;
    char so[4200];
    snprintf(so, sizeof so, "%s/libspmvlab_slowcsr.so", plugdir);
    return stat(so, &sb) == 0;
}
