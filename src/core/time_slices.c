#include "core/time_slices.h"

#include "core/clock.h"

void km_time_slices_init(km_time_slices *s)
{
    s->items = 1;
    s->started = 0;
}

size_t km_time_slices_begin(km_time_slices *s, size_t remaining, size_t limit)
{
    size_t count = remaining < s->items ? remaining : s->items;
    if (limit && count > limit)
        count = limit;
    if (count == 1 && remaining > 1 && limit != 1)
        count = 2;
    if (remaining - count == 1) { /* leave no single item behind */
        if (!limit || count < limit)
            count++;
        else if (count > 2)
            count--;
    }
    s->started = km_monotonic_seconds();
    return count;
}

void km_time_slices_end(km_time_slices *s, size_t count)
{
    double seconds = km_monotonic_seconds() - s->started;
    if (seconds > KM_SLICE_SECONDS) {
        double fit = (double)count * KM_SLICE_SECONDS / seconds;
        s->items = fit >= 1 ? (size_t)fit : 1;
    } else if (seconds < KM_SLICE_SECONDS / 4 && count >= s->items) {
        s->items *= 2;
    }
}
