/* SIGINT, SIGTERM and SIGHUP remove the temporary files of unfinished outputs, then end the process
 * as the signal would have: an interrupted command leaves its outputs as they were. (train replaces
 * the SIGINT and SIGTERM handlers with a request to stop the solver, after which it writes nothing.) */
#include <signal.h>
#include <string.h>

#include "cli.h"

static void remove_temporaries_and_die(int signal_number)
{
    km_atomic_remove_temporaries();
    signal(signal_number, SIG_DFL);
    raise(signal_number); /* delivered when the handler returns: the usual exit status */
}

void cli_remove_partial_output_on_signals(void)
{
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = remove_temporaries_and_die;
    sigemptyset(&action.sa_mask);
    for (size_t k = 0; k < sizeof signals / sizeof signals[0]; k++)
        sigaddset(&action.sa_mask, signals[k]); /* one handler at a time */
    for (size_t k = 0; k < sizeof signals / sizeof signals[0]; k++)
        sigaction(signals[k], &action, NULL);
}
