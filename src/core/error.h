/* Error reporting: a thread-local message behind km_last_error(). */
#ifndef KM_CORE_ERROR_H
#define KM_CORE_ERROR_H

#include "kernelmix.h"

/* Formats the thread's error message and returns status, so failures read
 * `return km_error(KM_EFORMAT, "%s:%zu: bad index", path, line);`. */
km_status km_error(km_status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Puts "NAME: " before the thread's message (a failure of a step that does not know the file it works
 * for) and returns status. */
km_status km_error_in(const char *name, km_status status);
/* Shorthand for an allocation failure naming what was being allocated. */
km_status km_error_nomem(const char *what);
/* Clears the thread's message (successful calls do not need to). */
void km_error_clear(void);

#endif
