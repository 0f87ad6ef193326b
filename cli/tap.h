/**
 * \file
 * `idnguard tap`: the query log of any resolver that speaks dnstap.
 */
#ifndef IDNG_CLI_TAP_H
#define IDNG_CLI_TAP_H

/** Runs `idnguard tap ...`: argv[0] is the program, argv[1] "tap".
 *  @return the exit status. */
int idng_tap_main(int argc, char **argv);

#endif /* IDNG_CLI_TAP_H */
