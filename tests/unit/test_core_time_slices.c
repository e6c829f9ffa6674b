/* Time slices (core/time_slices.h): a slice never holds one item of several nor leaves a single one
 * behind (within its limit), for every remaining count, limit and slice size; slices that end quickly
 * double, one that takes twice KM_SLICE_SECONDS halves. */
#include <time.h>

#include "check.h"
#include "core/time_slices.h"

KM_TEST_CASE(never_a_single_item_of_several)
{
    const size_t limits[] = {0, 1, 2, 3, 5, 16}, sizes[] = {1, 2, 3, 7, 64};
    for (size_t remaining = 1; remaining <= 40; remaining++)
        for (size_t a = 0; a < sizeof limits / sizeof limits[0]; a++)
            for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++) {
                size_t limit = limits[a];
                km_time_slices s = {.items = sizes[b]};
                size_t count = km_time_slices_begin(&s, remaining, limit);
                CHECK(count >= 1 && count <= remaining);
                CHECK(!limit || count <= limit);
                if (remaining > 1 && limit != 1)
                    CHECK(count >= 2);
                if (remaining - count == 1) /* only where the limit leaves no other choice */
                    CHECK(limit && count == limit && count <= 2);
            }
}

KM_TEST_CASE(slices_follow_their_time)
{
    km_time_slices s;
    for (int attempt = 0; attempt < 3; attempt++) { /* (again if a busy machine paused the test) */
        km_time_slices_init(&s);
        CHECK(s.items == 1);
        for (int k = 0; k < 5; k++) { /* quick slices double */
            size_t count = km_time_slices_begin(&s, 1000, 0);
            km_time_slices_end(&s, count);
        }
        if (s.items == 32)
            break;
    }
    CHECK(s.items == 32);
    size_t count = km_time_slices_begin(&s, 1000, 0);
    CHECK(count == 32);
    struct timespec pause = {0, (long)(2 * KM_SLICE_SECONDS * 1e9)};
    nanosleep(&pause, NULL);
    km_time_slices_end(&s, count);
    CHECK(s.items >= 1 && s.items <= 16); /* 32 items in at least twice the slice time */
}
