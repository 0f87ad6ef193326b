/**
 * \file
 * `idnguard top`'s query log (see top_log.h): the file followed as it
 * grows and across rotation, each line of the module's text or JSON
 * format counted by the name and the client it refused.
 */
#include "top_log.h"

#include "idng_policy.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static struct tally *tally(struct table *t, const char *key, size_t klen)
{
    char k[KEY_MAX];
    size_t i, probe;

    if (klen >= KEY_MAX) { /* kept short; marked */
        klen = KEY_MAX - 4;
        memcpy(k, key, klen);
        memcpy(k + klen, "...", 4);
    } else {
        memcpy(k, key, klen);
        k[klen] = '\0';
    }
    i = (size_t)(hash(k) % NAMES_MAX);
    for (probe = 0; probe < NAMES_MAX; probe++, i = (i + 1) % NAMES_MAX) {
        if (t->e[i].key[0] == '\0') {
            if (t->used * 4 >= NAMES_MAX * 3)
                break; /* keep the table sparse: lookups stay short */
            memcpy(t->e[i].key, k, strlen(k) + 1);
            t->used++;
            return &t->e[i];
        }
        if (strcmp(t->e[i].key, k) == 0)
            return &t->e[i];
    }
    t->lost++;
    return NULL;
}

/* The words of a text line, split at spaces. */
#define WORDS_MAX 24
static size_t split(char *s, char **w)
{
    size_t n = 0;

    while (*s && n < WORDS_MAX) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        w[n++] = s;
        while (*s && *s != ' ')
            s++;
        if (*s)
            *s++ = '\0';
    }
    return n;
}

static int is_action(const char *s, size_t n)
{
    enum idng_action a;
    return idng_action_lookup(s, n, &a) == 0;
}

/* An action that keeps the answer from the client (the policy's rule). */
int top_rejecting(const char *s, size_t n)
{
    enum idng_action a;
    return idng_action_lookup(s, n, &a) == 0 && idng_action_rejects(a);
}

static int is_client(const char *s)
{
    const char *hash_at = strchr(s, '#');
    const char *p;

    if (hash_at == NULL || hash_at == s || !hash_at[1])
        return 0;
    for (p = s; p < hash_at; p++)
        if (!strchr("0123456789abcdefABCDEF:.", *p))
            return 0;
    for (p = hash_at + 1; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}

/* The string value of "key":"..." in a JSON line, as written (escapes
 * kept); 0 when absent or null. */
static size_t json_str(const char *line, const char *key, const char **v)
{
    char pat[40];
    const char *p, *e;

    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    if ((p = strstr(line, pat)) == NULL)
        return 0;
    p += strlen(pat);
    for (e = p; *e && *e != '"'; e++)
        if (*e == '\\' && e[1])
            e++;
    *v = p;
    return (size_t)(e - p);
}

static void count_line(struct logview *lv, char *line)
{
    const char *client = NULL, *qname = NULL, *uni = NULL, *verdict = NULL, *action = NULL;
    size_t cl = 0, ql = 0, ul = 0, vl = 0, al = 0;
    struct tally *t;

    lv->lines++;
    /* A JSON line, alone in a file or after the prefix of Unbound's log. */
    if (strstr(line, "{\"time\":") != NULL) {
        line = strstr(line, "{\"time\":");
        cl = json_str(line, "client", &client);
        ql = json_str(line, "qname", &qname);
        ul = json_str(line, "qname_unicode", &uni);
        vl = json_str(line, "verdict", &verdict);
        al = json_str(line, "action", &action);
        if (!ql || !al || !is_action(action, al)) {
            lv->skipped++;
            return;
        }
    } else {
        char *w[WORDS_MAX], *colon;
        size_t n = split(line, w), i, k;
        for (i = 0; i < n && !is_client(w[i]); i++)
            ;
        /* client qname [(unicode)] type class rcode verdict action path ... */
        k = i + 2;
        if (k < n && w[k][0] == '(' && w[k][strlen(w[k]) - 1] == ')')
            k++;
        if (i == n || k + 5 > n || !is_action(w[k + 4], strlen(w[k + 4]))) {
            lv->skipped++;
            return;
        }
        client = w[i];
        cl = (size_t)(strchr(w[i], '#') - w[i]);
        qname = w[i + 1];
        ql = strlen(qname);
        if (k > i + 2) {
            uni = w[i + 2] + 1;
            ul = strlen(w[i + 2]) - 2;
        }
        verdict = w[k + 3];
        colon = strchr(w[k + 3], ':');
        vl = colon ? (size_t)(colon - verdict) : strlen(verdict);
        action = w[k + 4];
        al = strlen(action);
    }
    lv->answers++;
    if (!top_rejecting(action, al))
        return;
    lv->rejected++;
    if ((t = tally(&lv->names, qname, ql)) != NULL) {
        if (t->n++ == 0) {
            if (ul)
                snprintf(t->extra, sizeof t->extra, "%.*s %.*s (%.*s)", (int)vl, verdict, (int)al,
                         action, (int)(ul < 200 ? ul : 200), uni);
            else
                snprintf(t->extra, sizeof t->extra, "%.*s %.*s", (int)vl, verdict, (int)al, action);
        }
    }
    if (cl && (t = tally(&lv->clients, client, cl)) != NULL)
        t->n++;
}

/* Reads what the log gained since the last call; follows a rotation (a
 * new file at the path) and a truncation. */
void top_follow(struct logview *lv)
{
    struct stat st;
    char buf[65536];
    size_t got;

    if (stat(lv->path, &st) == 0 && lv->f != NULL
        && (st.st_ino != lv->ino || st.st_dev != lv->dev || st.st_size < lv->pos)) {
        /* Rotated or truncated: finish the old file, then the new one. */
        fclose(lv->f);
        lv->f = NULL;
        lv->plen = 0;
    }
    if (lv->f == NULL) {
        struct stat fst;
        if ((lv->f = fopen(lv->path, "r")) == NULL)
            return;
        if (fstat(fileno(lv->f), &fst) != 0 || !S_ISREG(fst.st_mode)) {
            fclose(lv->f);
            lv->f = NULL;
            return;
        }
        lv->dev = fst.st_dev;
        lv->ino = fst.st_ino;
        /* At the first open, the last MiB; after a rotation, all of it. */
        lv->pos = lv->lines == 0 && fst.st_size > (1 << 20) ? fst.st_size - (1 << 20) : 0;
        if (fseeko(lv->f, lv->pos, SEEK_SET) != 0)
            lv->pos = 0;
        if (lv->pos > 0) { /* mid-line: skip to the next line */
            int c;
            while ((c = getc(lv->f)) != EOF && c != '\n')
                lv->pos++;
            lv->pos++;
        }
    }
    clearerr(lv->f);
    while ((got = fread(buf, 1, sizeof buf, lv->f)) > 0) {
        size_t i, start = 0;
        lv->pos += (off_t)got;
        for (i = 0; i < got; i++) {
            if (buf[i] != '\n')
                continue;
            if (lv->plen + (i - start) < sizeof lv->part) {
                memcpy(lv->part + lv->plen, buf + start, i - start);
                lv->part[lv->plen + (i - start)] = '\0';
                count_line(lv, lv->part);
            } else {
                lv->skipped++; /* longer than any line the module writes */
            }
            lv->plen = 0;
            start = i + 1;
        }
        if (start < got) {
            size_t rest = got - start;
            if (lv->plen + rest < sizeof lv->part) {
                memcpy(lv->part + lv->plen, buf + start, rest);
                lv->plen += rest;
            } else {
                lv->plen = sizeof lv->part; /* too long: dropped at its end */
            }
        }
    }
}
