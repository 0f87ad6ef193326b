/**
 * \file
 * How the long-running commands (`idnguard tap`, `idnguard top`) are
 * stopped: SIGINT and SIGTERM set a flag their loops watch.  The handler
 * is installed without SA_RESTART, so a blocking poll() or read() returns
 * with EINTR and the loop sees the flag at once.
 */
#ifndef IDNG_CLI_STOPSIG_H
#define IDNG_CLI_STOPSIG_H

#include <signal.h>

/** Set to 1 by SIGINT or SIGTERM once idng_stop_on_signals() ran; the
 *  command may set it too (top's q key). */
extern volatile sig_atomic_t idng_stop;

/**
 * SIGINT and SIGTERM set idng_stop.  With ignore_sigpipe, SIGPIPE is
 * ignored as well: a reader gone is then an error of a write (EPIPE), not
 * the end of the process.
 */
void idng_stop_on_signals(int ignore_sigpipe);

#endif /* IDNG_CLI_STOPSIG_H */
