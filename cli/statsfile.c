/**
 * \file
 * The reader of the counters files (top.h): the module's stats-file and
 * the tap's tap-stats-file, for `idnguard top` and `idnguard stats`.
 */
#include "top.h"

#include "idnguard.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const char *const idng_statsfile_paths[5] = {"resolved", "cache", "local", "servfail", "policy"};

static struct idng_statsfile_row *row_of(struct idng_statsfile *s, const char *cls,
                                         const char *action)
{
    size_t i;

    for (i = 0; i < s->nrows; i++)
        if (strcmp(s->rows[i].cls, cls) == 0 && strcmp(s->rows[i].action, action) == 0)
            return &s->rows[i];
    if (s->nrows == IDNG_STATSFILE_ROWS)
        return NULL;
    memset(&s->rows[s->nrows], 0, sizeof s->rows[0]);
    snprintf(s->rows[s->nrows].cls, sizeof s->rows[0].cls, "%s", cls);
    snprintf(s->rows[s->nrows].action, sizeof s->rows[0].action, "%s", action);
    return &s->rows[s->nrows++];
}

int idng_statsfile_read(const char *path, struct idng_statsfile *s)
{
    char line[1024];
    struct stat st;
    int seen = 0;
    FILE *f = fopen(path, "r");

    memset(s, 0, sizeof *s);
    if (f == NULL)
        return -1;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        errno = EINVAL;
        return -1;
    }
    s->mtime = st.st_mtim;
    while (fgets(line, sizeof line, f) != NULL) {
        char cls[32], act[16], pa[16], name[48];
        unsigned long long n;
        struct idng_statsfile_row *r;
        int p;

        if (line[0] == '#')
            continue;
        if (sscanf(line, "idnguard_answers_total{class=\"%31[^\"]\",action=\"%15[^\"]\","
                         "path=\"%15[^\"]\"} %llu", cls, act, pa, &n) == 4) {
            if ((r = row_of(s, cls, act)) != NULL) {
                r->n += n;
                for (p = 0; p < 5; p++)
                    if (strcmp(idng_statsfile_paths[p], pa) == 0)
                        r->path[p] += n;
            }
            seen = 1;
        } else if (sscanf(line, "idnguard_tap_lines_total{class=\"%31[^\"]\",action=\"%15[^\"]\"} "
                                "%llu", cls, act, &n) == 3) {
            if ((r = row_of(s, cls, act)) != NULL)
                r->n += n;
            s->tap = seen = 1;
        } else if (sscanf(line, "idnguard_%47[a-z_] %llu", name, &n) == 2 && strlen(name) > 6
                   && strcmp(name + strlen(name) - 6, "_total") == 0) {
            name[strlen(name) - 6] = '\0';
            if (strncmp(name, "tap_", 4) == 0) {
                memmove(name, name + 4, strlen(name + 4) + 1);
                s->tap = 1;
            }
            if (s->nothers < IDNG_STATSFILE_OTHERS) {
                snprintf(s->others[s->nothers].name, sizeof s->others[0].name, "%s", name);
                s->others[s->nothers++].n = n;
            }
            seen = 1;
        } else if (strncmp(line, "idnguard_info{", 14) == 0
                   || strncmp(line, "idnguard_tap_info{", 18) == 0) {
            const char *m = strstr(line, "mode=\"");
            if (m != NULL)
                sscanf(m + 6, "%31[^\"]", s->mode);
            s->tap |= line[9] == 't';
            seen = 1;
        }
    }
    fclose(f);
    return seen ? 0 : -2;
}
