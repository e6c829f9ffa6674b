/* The monotonic clock in seconds, for time limits that every layer checks the same way. */
#ifndef KM_CORE_CLOCK_H
#define KM_CORE_CLOCK_H

/* Seconds of CLOCK_MONOTONIC (an arbitrary origin: compare two readings). */
double km_monotonic_seconds(void);

#endif
