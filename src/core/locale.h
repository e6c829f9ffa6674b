/* The numeric "C" locale for the calling thread while files are read or written, so that the decimal
 * point is '.' whatever locale the application set (uselocale is per thread; nothing global changes). */
#ifndef KM_CORE_LOCALE_H
#define KM_CORE_LOCALE_H

#include <locale.h>

#include "kernelmix.h"

typedef struct km_numeric_locale {
    locale_t c_locale;
    locale_t previous;
} km_numeric_locale;

km_status km_numeric_locale_enter(km_numeric_locale *locale);
void km_numeric_locale_leave(km_numeric_locale *locale);

#endif
