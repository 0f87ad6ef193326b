/**
 * \file
 * `idnguard tap`'s input (tap_run.h): Frame Streams from a capture file
 * (-r) or from the resolver's connections to a Unix socket (-u), each
 * frame handed to the matcher.
 */
#include "tap_run.h"
#include "stopsig.h"

#include "idng_fstrm.h"
#include "idnguard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* ---- streams ---- */

struct conn {
    int fd;
    idng_fstrm_conn fs;
    uint8_t *buf;
    size_t len;
    long long opened_ns, last_ns; /* CLOCK_MONOTONIC: accepted, last octet */
    char name[32];
};

/* A writer must finish the handshake within this, and may not stop inside
 * a frame for longer; an idle writer between frames may stay. */
#define TAP_HANDSHAKE_S 10
#define TAP_STALL_S 30
/* Connections accepted per poll round, so a flood of them cannot keep the
 * loop from the writers already there. */
#define TAP_ACCEPTS 8

/*
 * Takes every whole frame at the start of c->buf.  Returns 0 to go on, 1
 * when the stream ended as it should, -1 when it is broken (counted and
 * shown).  Replies (ACCEPT, FINISH) go to c->fd when it is a socket.
 */
static int take_frames(struct tap *t, struct conn *c)
{
    size_t off = 0;
    int ret = 0;

    while (ret == 0) {
        idng_fstrm_frame f;
        idng_tap_status st = idng_fstrm_next(c->buf + off, c->len - off, TAP_FRAME_MAX, &f);
        uint32_t reply = 0;

        if (st != IDNG_TAP_OK) {
            tap_count.malformed_frames++;
            tap_report(t, "%s: %s", c->name, idng_tap_status_message(st));
            ret = -1;
            break;
        }
        if (f.kind == IDNG_FSTRM_NEED_MORE)
            break;
        st = idng_fstrm_conn_step(&c->fs, &f, &reply);
        if (st != IDNG_TAP_OK) {
            tap_count.malformed_frames++;
            tap_report(t, "%s: %s", c->name, idng_tap_status_message(st));
            ret = -1;
            break;
        }
        if (reply) {
            uint8_t out[IDNG_FSTRM_ENCODED_MAX];
            size_t outlen = sizeof out;
            const char *ct = reply == IDNG_FSTRM_ACCEPT ? IDNG_DNSTAP_CTYPE : NULL;
            ssize_t sent = -1;
            errno = 0;
            if (idng_fstrm_encode_control(reply, (const uint8_t *)ct, ct ? strlen(ct) : 0, out,
                                          &outlen) == IDNG_TAP_OK)
                sent = send(c->fd, out, outlen, MSG_NOSIGNAL | MSG_DONTWAIT);
            /* A writer that closes right after STOP (Unbound at shutdown)
             * does not wait for FINISH: that is no error. */
            if (sent != (ssize_t)outlen && reply != IDNG_FSTRM_FINISH) {
                tap_report(t, "%s: cannot answer the handshake: %s", c->name,
                       sent >= 0 ? "short write" : strerror(errno));
                ret = -1;
                break;
            }
        }
        if (f.kind == IDNG_FSTRM_DATA)
            tap_on_data(t, c->name, f.data, f.data_len);
        off += f.consumed;
        if (c->fs.state == IDNG_FSTRM_DONE)
            ret = 1;
    }
    memmove(c->buf, c->buf + off, c->len - off);
    c->len -= off;
    return ret;
}

/* Room for one whole frame: its length words and TAP_FRAME_MAX octets. */
#define CONN_BUF (TAP_FRAME_MAX + 16)

int tap_read_file(struct tap *t)
{
    struct conn c = {0};
    int fd = strcmp(t->file, "-") == 0 ? 0 : open(t->file, O_RDONLY | O_CLOEXEC);
    int ret = 0, started = 0;

    if (fd < 0) {
        fprintf(stderr, "idnguard tap: %s: %s\n", t->file, strerror(errno));
        return 2;
    }
    c.fd = fd;
    c.buf = malloc(CONN_BUF);
    if (!c.buf) {
        fprintf(stderr, "idnguard tap: out of memory\n");
        return 2;
    }
    snprintf(c.name, sizeof c.name, "%s", fd == 0 ? "stdin" : "file");
    idng_fstrm_conn_init(&c.fs, IDNG_FSTRM_UNIDIRECTIONAL);
    for (;;) {
        ssize_t n = read(fd, c.buf + c.len, CONN_BUF - c.len);
        if (n < 0 && errno == EINTR && !idng_stop)
            continue;
        if (n < 0) {
            fprintf(stderr, "idnguard tap: %s: %s\n", t->file, strerror(errno));
            ret = 2;
            break;
        }
        if (n == 0) {
            if (c.len > 0) {
                tap_count.malformed_frames++;
                tap_report(t, "%s: %s: ends inside a frame", c.name, t->file);
                ret = ret ? ret : 1;
            } else if (c.fs.state != IDNG_FSTRM_DONE && started) {
                tap_report(t, "%s: %s: no STOP frame (the writer did not finish)", c.name, t->file);
            }
            break;
        }
        c.len += (size_t)n;
        ret = take_frames(t, &c);
        if (c.fs.state == IDNG_FSTRM_IN_DATA || c.fs.state == IDNG_FSTRM_DONE
            || c.fs.data_frames > 0)
            started = 1;
        if (!started && ret < 0) {
            fprintf(stderr, "idnguard tap: %s: not a Frame Streams file of dnstap\n", t->file);
            ret = 2;
            break;
        }
        if (ret != 0 || idng_stop)
            break;
    }
    if (ret == 1)
        ret = 0;
    if (ret == -1)
        ret = 1;
    if (fd != 0)
        close(fd);
    free(c.buf);
    return ret;
}

/* Is a reader listening at path (another tap)? */
static int in_use(const struct sockaddr_un *sa)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), live;

    if (fd < 0)
        return 0;
    live = connect(fd, (const struct sockaddr *)sa, sizeof *sa) == 0;
    close(fd);
    return live;
}

/*
 * Creates the listening socket.  Its mode is 0660 from the start (umask
 * around bind, no chmod by path, which a swapped path could redirect): the
 * resolver's user must be able to connect, nobody else should, since a
 * writer can put lines of its choosing into the log.  A socket file left
 * by an earlier run is replaced; one that a reader still listens on is
 * not.  *ino gets the socket's inode, so that exit removes only its own.
 */
static int listen_on(const char *path, ino_t *ino)
{
    struct sockaddr_un sa;
    struct stat st;
    mode_t old;
    int fd, ok;

    if (strlen(path) >= sizeof sa.sun_path) {
        fprintf(stderr, "idnguard tap: %s: socket path too long (at most %zu octets)\n", path,
                sizeof sa.sun_path - 1);
        return -1;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, strlen(path) + 1);
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            fprintf(stderr, "idnguard tap: %s: exists and is not a socket\n", path);
            return -1;
        }
        if (in_use(&sa)) {
            fprintf(stderr, "idnguard tap: %s: another reader listens there\n", path);
            return -1;
        }
        unlink(path); /* stale: left by an earlier run */
    }
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        fprintf(stderr, "idnguard tap: socket: %s\n", strerror(errno));
        return -1;
    }
    old = umask(0117);
    ok = bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    umask(old);
    if (!ok || listen(fd, 16) != 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "idnguard tap: %s: %s\n", path, strerror(errno));
        close(fd);
        return -1;
    }
    *ino = lstat(path, &st) == 0 ? st.st_ino : 0;
    return fd;
}

static void close_conn(struct conn *c)
{
    close(c->fd);
    free(c->buf);
    c->fd = -1;
    c->buf = NULL;
    c->len = 0;
}

#define IDNG_STR2(x) #x
#define IDNG_STR(x) IDNG_STR2(x)

static int timed_out(const struct conn *c, long long now)
{
    if (c->fs.state != IDNG_FSTRM_IN_DATA)
        return now - c->opened_ns > TAP_HANDSHAKE_S * NS;
    return c->len > 0 && now - c->last_ns > TAP_STALL_S * NS;
}

/*
 * A slot for a new writer.  When all are taken, one is closed for it: a
 * writer that has not finished its handshake, else the one silent the
 * longest (a resolver whose connection it was connects again; an
 * attacker cannot hold every slot against it).
 */
static int free_slot(struct tap *t, struct conn *conns)
{
    int i, pick = -1;

    for (i = 0; i < TAP_CONNS; i++) {
        if (conns[i].fd < 0)
            return i;
        if (pick < 0 || (conns[i].fs.state != IDNG_FSTRM_IN_DATA
                         && conns[pick].fs.state == IDNG_FSTRM_IN_DATA)
            || ((conns[i].fs.state != IDNG_FSTRM_IN_DATA)
                    == (conns[pick].fs.state != IDNG_FSTRM_IN_DATA)
                && conns[i].last_ns < conns[pick].last_ns))
            pick = i;
    }
    tap_report(t, "%s: %d writers: %s closed for a new one", t->sock, TAP_CONNS, conns[pick].name);
    tap_count.closed_conns++;
    close_conn(&conns[pick]);
    return pick;
}

int tap_serve_socket(struct tap *t)
{
    static struct conn conns[TAP_CONNS];
    struct pollfd pfd[TAP_CONNS + 1];
    struct stat st;
    ino_t ino = 0;
    int lfd = listen_on(t->sock, &ino), i, serial = 0;

    if (lfd < 0)
        return 2;
    for (i = 0; i < TAP_CONNS; i++)
        conns[i].fd = -1;
    fprintf(stderr, "idnguard tap: listening on %s\n", t->sock);
    while (!idng_stop) {
        int n = 0, r;
        long long now;

        pfd[n].fd = lfd;
        pfd[n++].events = POLLIN;
        for (i = 0; i < TAP_CONNS; i++) {
            pfd[n].fd = conns[i].fd;
            pfd[n++].events = POLLIN;
        }
        r = poll(pfd, (nfds_t)n, 200);
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "idnguard tap: poll: %s\n", strerror(errno));
            break;
        }
        t->clock_ns = tap_mono_ns();
        if (r > 0 && (pfd[0].revents & POLLIN)) {
            int cfd, k;
            for (k = 0; k < TAP_ACCEPTS && (cfd = accept(lfd, NULL, NULL)) >= 0; k++) {
                fcntl(cfd, F_SETFD, FD_CLOEXEC);
                fcntl(cfd, F_SETFL, O_NONBLOCK);
                i = free_slot(t, conns);
                if (!conns[i].buf && !(conns[i].buf = malloc(CONN_BUF))) {
                    tap_report(t, "%s: out of memory for a writer", t->sock);
                    close(cfd);
                    continue;
                }
                conns[i].fd = cfd;
                conns[i].len = 0;
                conns[i].opened_ns = conns[i].last_ns = t->clock_ns;
                snprintf(conns[i].name, sizeof conns[i].name, "connection %d", ++serial);
                idng_fstrm_conn_init(&conns[i].fs, IDNG_FSTRM_BIDIRECTIONAL);
                tap_count.connections++;
            }
        }
        for (i = 0; r > 0 && i < TAP_CONNS; i++) {
            struct conn *c = &conns[i];
            ssize_t got;
            if (c->fd < 0 || !(pfd[i + 1].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            got = read(c->fd, c->buf + c->len, CONN_BUF - c->len);
            if (got < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (got <= 0) {
                /* The writer went away (a restart: it comes back). */
                if (c->len > 0) {
                    tap_count.malformed_frames++;
                    tap_report(t, "%s: closed inside a frame", c->name);
                }
                close_conn(c);
                continue;
            }
            c->len += (size_t)got;
            c->last_ns = t->clock_ns;
            if (take_frames(t, c) != 0)
                close_conn(c);
        }
        for (i = 0; i < TAP_CONNS; i++)
            if (conns[i].fd >= 0 && timed_out(&conns[i], t->clock_ns)) {
                tap_report(t, "%s: %s", conns[i].name,
                       conns[i].fs.state != IDNG_FSTRM_IN_DATA
                           ? "no handshake within " IDNG_STR(TAP_HANDSHAKE_S) " s: closed"
                           : "stopped inside a frame for " IDNG_STR(TAP_STALL_S) " s: closed");
                tap_count.closed_conns++;
                close_conn(&conns[i]);
            }
        now = tap_wall_ns();
        tap_expire(t, 0);
        if (t->stats_file && t->stats_interval && now >= t->next_stats_ns) {
            tap_write_stats(t);
            t->next_stats_ns = now + (long long)t->stats_interval * NS;
        }
    }
    for (i = 0; i < TAP_CONNS; i++)
        if (conns[i].fd >= 0)
            close_conn(&conns[i]);
    close(lfd);
    /* Only our own socket: another tap may have replaced a path we left. */
    if (ino && lstat(t->sock, &st) == 0 && st.st_ino == ino)
        unlink(t->sock);
    return 0;
}
