/**
 * \file
 * The tap suites' shared helpers (see tap_run.h).
 */
#include "tap_run.h"

#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char dir[512];
/* The tap a test started and has not stopped yet: teardown kills it, so
 * that a failed check (which leaves the test early) never leaves a tap
 * running, holding the suite's output open. */
pid_t running_tap;

void setup(void)
{
    t_tmpdir_make(dir, sizeof dir, "idng-tap");
}

void teardown(void)
{
    if (running_tap > 0) {
        kill(running_tap, SIGKILL);
        waitpid(running_tap, NULL, 0);
        running_tap = 0;
    }
    t_tmpdir_remove(dir);
}

void path_in(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

size_t count_lines_n(const char *s, size_t n)
{
    size_t k = 0, i;
    for (i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

/* ---- building dnstap ---- */

void dnstap_msg(struct tb *out, const struct dtm *m)
{
    struct tb in = {{0}, 0};

    tb_pb_varint(&in, 1, m->type);
    tb_pb_varint(&in, 2, m->alen == 16 ? 2 : 1);
    tb_pb_varint(&in, 3, m->proto);
    tb_pb_bytes(&in, 4, m->addr, m->alen);
    tb_pb_varint(&in, 6, m->port);
    if (m->qsec) {
        tb_pb_varint(&in, 8, (uint64_t)m->qsec);
        tb_pb_fixed32(&in, 9, m->qnsec);
    }
    if (m->zone)
        tb_pb_bytes(&in, 11, m->zone->b, m->zone->n);
    if (m->type == CQ || m->type == RQ) {
        if (m->dns)
            tb_pb_bytes(&in, 10, m->dns->b, m->dns->n);
    } else {
        if (m->rsec) {
            tb_pb_varint(&in, 12, (uint64_t)m->rsec);
            tb_pb_fixed32(&in, 13, m->rnsec);
        }
        if (m->dns)
            tb_pb_bytes(&in, 14, m->dns->b, m->dns->n);
    }
    out->n = 0;
    tb_pb_bytes(out, 1, "test", 4);
    tb_pb_bytes(out, 14, in.b, in.n);
    tb_pb_varint(out, 15, 1);
}

/* A question for a wire name given as raw octets. */
void dns_msg(struct tb *t, unsigned id, int response, unsigned rcode, const uint8_t *wire,
             size_t wlen, unsigned qtype, int ede)
{
    t->n = 0;
    tb_header(t, id, response ? 0x8180u | rcode : 0x0100u, 1, 0, 0, ede >= 0 ? 1 : 0);
    tb_bytes(t, wire, wlen);
    tb_be16(t, qtype);
    tb_be16(t, 1);
    if (ede >= 0) {
        struct tb o = {{0}, 0};
        tb_ede(&o, (unsigned)ede, "");
        tb_opt(t, 1232, 0, 0, 0, o.b, o.n);
    }
}

/* Text name to wire (no escapes), for the ordinary names. */
size_t wire_of(const char *text, uint8_t *w)
{
    struct tb t = {{0}, 0};
    tb_name(&t, text);
    memcpy(w, t.b, t.n);
    return t.n;
}

/* A data frame: length, payload. */
void frame(struct tb *out, const struct tb *payload)
{
    tb_be32(out, (uint32_t)payload->n);
    tb_bytes(out, payload->b, payload->n);
}

/* A control frame with the dnstap content type or none. */
void control(struct tb *out, unsigned type, int with_ctype)
{
    static const char ct[] = "protobuf:dnstap.Dnstap";
    tb_be32(out, 0);
    tb_be32(out, with_ctype ? 4 + 8 + (uint32_t)strlen(ct) : 4);
    tb_be32(out, type);
    if (with_ctype) {
        tb_be32(out, 1);
        tb_be32(out, (uint32_t)strlen(ct));
        tb_bytes(out, ct, strlen(ct));
    }
}

/* One dnstap message as a data frame, into the capture. */
void put_message(FILE *f, const struct dtm *m)
{
    struct tb msg, fr = {{0}, 0};

    dnstap_msg(&msg, m);
    frame(&fr, &msg);
    fwrite(fr.b, 1, fr.n, f);
}

/* A message from 127.0.0.1#port at the time of id (as pair sends them). */
void msg_from(struct dtm *m, unsigned type, unsigned id, unsigned port)
{
    memset(m, 0, sizeof *m);
    m->type = type;
    m->proto = 1;
    m->addr[0] = 127;
    m->addr[3] = 1;
    m->alen = 4;
    m->port = port;
    m->qsec = 1795000000 + id;
    m->qnsec = 123456000;
}

/* A query/response pair from 127.0.0.1#port, 412 microseconds apart. */
void pair(FILE *f, unsigned id, unsigned port, const uint8_t *wire, size_t wlen, unsigned rcode,
          int ede, int send_query, int send_response)
{
    struct tb dns;
    struct dtm m;

    msg_from(&m, CQ, id, port);
    m.dns = &dns;
    if (send_query) {
        dns_msg(&dns, id, 0, 0, wire, wlen, 1, -1);
        put_message(f, &m);
    }
    if (send_response) {
        dns_msg(&dns, id, 1, rcode, wire, wlen, 1, ede);
        m.type = CR;
        m.qsec = 0; /* Unbound sends no query time with its responses */
        m.rsec = 1795000000 + id;
        m.rnsec = 123868000;
        put_message(f, &m);
    }
}

void put_control(FILE *f, unsigned type, int with_ctype)
{
    struct tb t = {{0}, 0};
    control(&t, type, with_ctype);
    fwrite(t.b, 1, t.n, f);
}

/* ---- running the tap ---- */

/* Runs idnguard tap with args (NULL-terminated). */
void run_tap(const char *const *args, struct t_out *r)
{
    t_run_cli(t_idnguard_bin(), "tap", args, dir, 60, r);
}

void run_free(struct t_out *r)
{
    t_out_free(r);
}

/* Line k (0-based) of s, into buf. */
const char *line_at(const char *s, size_t k, char *buf, size_t cap)
{
    while (k-- > 0 && s && (s = strchr(s, '\n')) != NULL)
        s++;
    ck_assert_msg(s && *s, "no line %zu", k);
    snprintf(buf, cap, "%.*s", (int)(strchr(s, '\n') ? strchr(s, '\n') - s : (long)strlen(s)), s);
    return buf;
}

/* ---- capture files ---- */

FILE *capture(char *path, size_t cap, const char *name)
{
    FILE *f;
    path_in(path, cap, name);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    put_control(f, 2, 1); /* START */
    return f;
}
