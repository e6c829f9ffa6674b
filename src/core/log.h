/* Logging through the caller's callback; the library itself never prints. */
#ifndef KM_CORE_LOG_H
#define KM_CORE_LOG_H

#include "kernelmix.h"

typedef struct km_logger {
    km_log_fn fn;     /* NULL: messages are dropped */
    void *user;
} km_logger;

void km_log(const km_logger *logger, km_log_level level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
