/* The orders of doubles for qsort (core/double_order.h). */
#include "core/double_order.h"

int km_double_ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int km_double_descending(const void *a, const void *b)
{
    return km_double_ascending(b, a);
}
