#include "core/locale.h"

#include "core/error.h"

km_status km_numeric_locale_enter(km_numeric_locale *locale)
{
    locale->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (!locale->c_locale)
        return km_error_nomem("the C numeric locale");
    locale->previous = uselocale(locale->c_locale);
    return KM_OK;
}

void km_numeric_locale_leave(km_numeric_locale *locale)
{
    uselocale(locale->previous);
    freelocale(locale->c_locale);
}
