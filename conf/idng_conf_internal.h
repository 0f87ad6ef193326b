/**
 * \file
 * Internal: what the settings parser's own files share and idng_conf.h
 * does not show: the state of one parse, the schema's types (a kind: how
 * values are parsed, checked, written back and compared; a key: one row of
 * the table), and the helpers the files call across.  Not installed.
 *
 * The files:
 *   conf.c         messages, origins, the parse and its last checks
 *   conf_lex.c     lines: octets, quoting, "key: value"
 *   conf_schema.c  the table of keys; the writer and the diff walk it
 *   conf_kinds.c   the kinds of plain values (modes, actions, paths,
 *                       scripts, ...)
 *   conf_names.c   domain names: the lists and their files, protect and
 *                       protect-file
 *   conf_load.c    files: reading, include, files of names,
 *                       path checks, what a load read (for the watch)
 */
#ifndef IDNG_CONF_INTERNAL_H
#define IDNG_CONF_INTERNAL_H

#include "idng_conf.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/** Longest uncompressed wire name, root label included (RFC 1035 3.1). */
#define WIRE_MAX 255
/** Source octets of a value quoted in a message; longer values are cut. */
#define ECHO_MAX 64
/** Room for an echoed value: every unit may grow to "\\u{10FFFF}". */
#define ECHO_CAP (ECHO_MAX * 10 + 8)
/** Row argument of on-invalid, which is no class. */
#define ON_INVALID (-1)

/* ------------------------------------------------------------------------ */
/* Parser state                                                              */

struct key;

/** The lists whose entries have origins (struct idng_conf_origins). */
enum { L_ALLOW, L_DENY, L_PROTECT, L_TLD, L_IDN_SUFFIXES, N_LISTS };

/** A settings file read, for refusing one that is read twice. */
struct file_id {
    dev_t dev;
    ino_t ino;
    int open;                     /**< being read: including it again is a cycle */
    struct idng_conf_origin from; /**< the include line that read it (line 0: none) */
};

/** What belongs to the file being read; kept aside while an include is. */
struct file_state {
    const char *fname;                     /**< its name in messages */
    uint32_t file;                         /**< its index in c.origin.files */
    size_t line;                           /**< the line being read */
    size_t clause_line;                    /**< line of "idnguard:", 0 = none yet */
    size_t first_line[IDNG_CONF_KEYS_MAX]; /**< per key row; 0 = not seen yet */
};

/** Everything one parse needs; the settings are moved out on success. */
struct pstate {
    struct idng_conf c;                       /**< the temporary being filled */
    unsigned char explicit_action[IDNG_CLASS_COUNT]; /**< on-<class> seen */
    size_t at_cap[N_LISTS]; /**< entries allocated at each list's origins */
    size_t seq;             /**< lines read so far, in every file */
    size_t key_seq[IDNG_CONF_KEYS_MAX]; /**< per key row, seq of the line that set it last */
    struct file_state f;                /**< the file being read */
    unsigned depth;                     /**< includes open around it */
    size_t budget;                      /**< octets more settings files may hold */
    struct file_id *ids;                /**< every settings file read */
    size_t nids, ids_cap;
    char *err;
    size_t errlen;
    size_t used;      /**< octets of err written so far */
    unsigned nerr;    /**< errors found */
    unsigned nwarn;   /**< warnings found */
    unsigned flags;   /**< IDNG_CONF_F_* */
    const char *user; /**< IDNG_CONF_F_CHECK_PATHS as this user; NULL: the caller */
    int sources_full; /**< IDNG_CONF_SOURCES_MAX reached (said once) */
    char vbuf[IDNG_CONF_LINE_MAX];            /**< a quoted value, unescaped */
    /** A file of names being read, else NULL: its name and the line
     *  (where_line) come after the line's place in messages. */
    const char *where;
    size_t where_line;
};

/* ------------------------------------------------------------------------ */
/* The schema                                                                */

/** How values of one kind are parsed and checked, written back, described
 *  and compared. */
struct kind {
    /** Parses and checks v (n octets, not NUL-terminated) and stores it. */
    int (*set)(struct pstate *p, const struct key *k, const char *v, size_t n);
    /** Writes the key's line(s); -1 if the value has no text form. */
    int (*put)(const struct idng_conf *c, const struct key *k, FILE *f);
    /** The allowed values, for messages ("yes or no"). */
    void (*expect)(const struct key *k, char *out, size_t cap);
    /** Writes the item of idng_conf_diff for the key's change from a to b;
     *  0 when it did not change, 1 when the item is written, -1 when it
     *  could not be (out of memory). */
    int (*diff)(const struct idng_conf *a, const struct idng_conf *b, const struct key *k, FILE *f);
};

/** One row per key. */
struct key {
    const char *name;
    const struct kind *kind;
    size_t off;     /**< offset of the field in struct idng_conf, for simple kinds */
    int arg;        /**< class for on-<class>, ON_INVALID; list 0/1/2 for
                         allow/deny/idn-suffixes */
    unsigned flags; /**< K_* */
};
enum {
    K_REPEAT = 1u << 0,   /**< may appear more than once */
    K_EMPTY_OK = 1u << 1, /**< "" is a meaningful value */
};

#define FIELD(c, k, type) ((type *)(void *)((char *)(c) + (k)->off))
#define CFIELD(c, k, type) ((const type *)(const void *)((const char *)(c) + (k)->off))

/** Rows of the table: mode, on-invalid, an on-<class> per class, and the 22
 *  keys after them (conf_schema.c checks the count). */
#define NKEYS (IDNG_CLASS_COUNT + 24)

/** The table (conf_schema.c).  Order is the order idng_conf_write uses. */
extern const struct key conf_keys[NKEYS];

/** The kinds (conf_kinds.c; names, protect and protect-file in
 *  conf_names.c). */
extern const struct kind conf_kind_mode, conf_kind_action, conf_kind_bool, conf_kind_log_format,
    conf_kind_path, conf_kind_seconds, conf_kind_names, conf_kind_restriction, conf_kind_protect,
    conf_kind_tld_scripts, conf_kind_idn_scripts, conf_kind_suffixes, conf_kind_protect_file,
    conf_kind_names_file;

/** The active row named s[0..n), or NULL. */
const struct key *conf_find_key(const char *s, size_t n);
/** The name of the list key whose row's arg is which. */
const char *conf_list_key_name(int which);

/* ------------------------------------------------------------------------ */
/* Messages and origins (conf.c)                                        */

/** An error: reported, counted; returns -1. */
int conf_fail(struct pstate *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
/** A warning: reported, counted; the file still loads. */
void conf_warn(struct pstate *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
/** Part of a value for a message, into out; returns out. */
const char *conf_echo(char out[ECHO_CAP], const char *v, size_t n);
/** Where list's entries' origins are kept in c. */
struct idng_conf_origin **conf_list_at(struct idng_conf *c, int list);
/** The line being read is where entry i of list was set; 0, or -1. */
int conf_note_entry(struct pstate *p, int list, size_t i);
/** Adds a file to c's files; its index in *at.  0, or -1 (reported). */
int conf_add_file(struct pstate *p, const char *name, uint32_t *at);
/** Where an earlier entry was set, for "first at ...", into out. */
const char *conf_first_at(const struct pstate *p, const struct idng_conf_origin *o, char *out,
                          size_t cap);
/** One parse of buf (see conf.c). */
int conf_parse(struct idng_conf *c, const char *buf, size_t len, const char *fname,
               const struct stat *id, unsigned flags, const char *user,
               struct idng_conf_sources *tried, char *err, size_t errlen);

/* ------------------------------------------------------------------------ */
/* Lines (conf_lex.c)                                                   */

/** The lines of one file, every problem reported. */
void conf_parse_text(struct pstate *p, const char *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* Values (conf_kinds.c)                                                */

/** Why a path is refused, or NULL. */
const char *conf_path_problem(const char *v, size_t n);
/** The writer of paths. */
int conf_put_path(const struct idng_conf *c, const struct key *k, FILE *f);
/** The diff of a key of one value: "KEY OLD -> NEW". */
int conf_diff_value(const struct idng_conf *a, const struct idng_conf *b, const struct key *k,
                    FILE *f);
/** " +ADDED -REMOVED (now COUNT)". */
int conf_put_tally(FILE *f, size_t added, size_t removed, size_t now);

/* ------------------------------------------------------------------------ */
/* Domain names (conf_names.c)                                          */

/** Converts a name as written in the file into lowercase wire format. */
int conf_name_to_wire(struct pstate *p, const struct key *k, const char *v, size_t n,
                      uint8_t *wire, size_t *wlen);
/** Adds one protected name (from: NULL for a protect line, else where in
 *  the protect-file it is). */
int conf_add_protected(struct pstate *p, const struct key *k, const char *v, size_t n,
                       const struct idng_conf_origin *from);
/** Adds one name of an allow-file or deny-file (k: its row) to the list,
 *  as the `allow` or `deny` line would; from: where in the file it is. */
int conf_add_listed(struct pstate *p, const struct key *k, const char *v, size_t n,
                    const struct idng_conf_origin *from);
/** Makes room in the list of an allow-file or deny-file row (k) for more
 *  names.  0, or -1 (reported). */
int conf_reserve_listed(struct pstate *p, const struct key *k, size_t more);
/** Makes room among the protected names for more names (a protect-file's
 *  lines).  0, or -1 (reported). */
int conf_reserve_protected(struct pstate *p, size_t more);

/* ------------------------------------------------------------------------ */
/* Files (conf_load.c)                                                  */

/** Notes a file or directory the load reads or looks in.  0, or -1. */
int conf_note_source(struct pstate *p, const char *path, const struct stat *st);
/** Notes a settings file as being read; its index in p->ids, or -1. */
long conf_note_id(struct pstate *p, const struct stat *st);
/** include: PATH. */
int conf_include(struct pstate *p, const char *v, size_t n);
/** The path checks of a file the daemon writes (IDNG_CONF_F_CHECK_PATHS). */
int conf_check_path(struct pstate *p, const struct key *k, const char *path);
/** Reads a file of names, one a line, adding each with add (k: the row
 *  of the key that named it, reported at the line p->f says). */
int conf_load_names(struct pstate *p, const struct key *k, const char *path,
                    int (*add)(struct pstate *, const struct key *, const char *, size_t,
                               const struct idng_conf_origin *));

#endif
