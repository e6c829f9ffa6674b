/* Copies between the library's and the caller's version of a struct with a leading size field. */
#include "core/sized_struct.h"

#include <string.h>

#include "core/error.h"

static km_status caller_size(const void *caller, size_t first_size, const char *what, size_t *size)
{
    memcpy(size, caller, sizeof *size);
    if (*size < first_size)
        return km_error(KM_EINVAL, "%s.size is %zu, below the struct's first size %zu: set it to sizeof(%s)", what,
                        *size, first_size, what);
    return KM_OK;
}

km_status km_sized_struct_fill(void *caller, const void *full, size_t full_size, size_t first_size, const char *what)
{
    size_t size;
    km_status st = caller_size(caller, first_size, what, &size);
    if (st)
        return st;
    size_t bytes = size < full_size ? size : full_size;
    memcpy((char *)caller + sizeof size, (const char *)full + sizeof size, bytes - sizeof size);
    return KM_OK;
}

km_status km_sized_struct_read(void *full, size_t full_size, const void *caller, size_t first_size, const char *what)
{
    size_t size;
    km_status st = caller_size(caller, first_size, what, &size);
    if (st)
        return st;
    size_t bytes = size < full_size ? size : full_size;
    memcpy((char *)full + sizeof size, (const char *)caller + sizeof size, bytes - sizeof size);
    return KM_OK;
}
