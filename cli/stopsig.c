/**
 * \file
 * SIGINT and SIGTERM stop a long-running command (see stopsig.h).
 */
#include "stopsig.h"

#include <string.h>

volatile sig_atomic_t idng_stop;

static void on_signal(int sig)
{
    (void)sig;
    idng_stop = 1;
}

void idng_stop_on_signals(int ignore_sigpipe)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (ignore_sigpipe) {
        sa.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &sa, NULL);
    }
}
