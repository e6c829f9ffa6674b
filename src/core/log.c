#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>

void km_log(const km_logger *logger, km_log_level level, const char *fmt, ...)
{
    if (!logger || !logger->fn)
        return;
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    logger->fn(logger->user, level, message);
}
