/* The structs of the public API that begin with `size_t size` (kernelmix.h's ABI rule): the caller's
 * copy may be shorter (an older caller) or longer (a newer one) than the library's. */
#ifndef KM_CORE_SIZED_STRUCT_H
#define KM_CORE_SIZED_STRUCT_H

#include <stddef.h>

#include "kernelmix.h"

/* Copies the library's filled struct full (full_size bytes) into the caller's struct, as many bytes as
 * the caller's size field says fit, leaving that field as it is. first_size: the struct's size in its
 * first release; a smaller caller size (most likely an unset one) fails with KM_EINVAL naming what. */
km_status km_sized_struct_fill(void *caller, const void *full, size_t full_size, size_t first_size, const char *what);

/* The converse for a struct the library reads: full holds the defaults; the fields of the caller's
 * struct that fit in its size replace them. */
km_status km_sized_struct_read(void *full, size_t full_size, const void *caller, size_t first_size, const char *what);

#endif
