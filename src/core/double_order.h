/* The orders of doubles that qsort takes (ascending and descending; NaN is not ordered). */
#ifndef KM_CORE_DOUBLE_ORDER_H
#define KM_CORE_DOUBLE_ORDER_H

int km_double_ascending(const void *a, const void *b);
int km_double_descending(const void *a, const void *b);

#endif
