/* Fuzz target: the kernel spec language. The first input byte is the data dimension the set is told
 * (0: unknown), the rest the spec. A spec either fails with a message or expands to kernels whose
 * canonical descriptions parse back to the same description (the round trip the model file and
 * `kernelmix kernel --list` rely on). */
#include "fuzz_support.h"

/* Descriptions checked per input: enough for every shape of spec, few enough for fast runs. */
#define CHECKED_KERNELS 64

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_enter_empty_directory();
    return 0;
}

static char *describe(const km_kernel_set *set, size_t m)
{
    size_t len = km_kernel_set_describe(set, m, NULL, 0);
    char *text = malloc(len + 1);
    if (text && km_kernel_set_describe(set, m, text, len + 1) != len)
        fuzz_fail("describe returned different lengths");
    return text;
}

static void check_round_trip(const km_kernel_set *set, size_t dimension)
{
    size_t n = km_kernel_set_size(set);
    for (size_t m = 0; m < n && m < CHECKED_KERNELS; m++) {
        char *first = describe(set, m);
        km_kernel_set *back = NULL;
        if (first && km_kernel_set_new(&back) == KM_OK && km_kernel_set_set_dimension(back, dimension) == KM_OK) {
            if (km_kernel_set_add_spec(back, first) != KM_OK || km_kernel_set_size(back) != 1)
                fuzz_fail("a canonical description does not parse to one kernel");
            char *second = describe(back, 0);
            if (second && strcmp(first, second) != 0)
                fuzz_fail("a canonical description changes when parsed back");
            free(second);
        }
        km_kernel_set_free(back);
        free(first);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || memchr(data, '/', size))
        return 0;
    size_t dimension = data[0] % 32;
    char *spec = fuzz_string(data + 1, size - 1);
    km_kernel_set *set = NULL;
    if (spec && km_kernel_set_new(&set) == KM_OK && km_kernel_set_set_dimension(set, dimension) == KM_OK) {
        size_t before = km_kernel_set_size(set);
        if (km_kernel_set_add_spec(set, spec) == KM_OK)
            check_round_trip(set, dimension);
        else if (km_last_error()[0] == '\0' || km_kernel_set_size(set) != before)
            fuzz_fail("a rejected spec left no message or added kernels");
    }
    km_kernel_set_free(set);
    free(spec);
    return 0;
}
