#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[1024];

const char *km_last_error(void) { return last_error; }

void km_error_clear(void) { last_error[0] = '\0'; }

km_status km_error(km_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

km_status km_error_in(const char *name, km_status status)
{
    char message[sizeof last_error];
    snprintf(message, sizeof message, "%s", last_error);
    return km_error(status, "%s: %s", name, message);
}

km_status km_error_nomem(const char *what)
{
    return km_error(KM_ENOMEM, "out of memory while allocating %s", what);
}

const char *km_status_name(km_status status)
{
    switch (status) {
    case KM_OK: return "KM_OK";
    case KM_EINVAL: return "KM_EINVAL";
    case KM_ENOMEM: return "KM_ENOMEM";
    case KM_EIO: return "KM_EIO";
    case KM_EFORMAT: return "KM_EFORMAT";
    case KM_ENOTCONV: return "KM_ENOTCONV";
    case KM_EINTERRUPTED: return "KM_EINTERRUPTED";
    }
    return "KM_UNKNOWN";
}

#define KM_STRINGIFY(x) #x
#define KM_NUMBER_TEXT(x) KM_STRINGIFY(x)

const char *km_version(void)
{
    return KM_NUMBER_TEXT(KM_VERSION_MAJOR) "." KM_NUMBER_TEXT(KM_VERSION_MINOR) "." KM_NUMBER_TEXT(KM_VERSION_PATCH);
}

unsigned km_version_number(void) { return KM_VERSION_NUMBER; }
