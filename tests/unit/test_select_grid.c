/* Grids of settings: the value lists and ranges of the command line (km_grid_values), the settings a
 * grid keeps (copies of the parameters), and the choice of the best setting with its tie rule (the
 * smaller C, then the larger p, then the earlier setting). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"
#include "select/choose.h"

/* The i-th text of a km_grid_values list. */
static const char *item(const char *values, size_t i)
{
    while (i--)
        values += strlen(values) + 1;
    return values;
}

/* The value parameter id reads from text. */
static double read_as(km_param id, const char *text)
{
    km_params *params;
    double value = NAN;
    if (km_params_new(&params) == KM_OK && km_params_set_text(params, id, text) == KM_OK)
        km_params_get_double(params, id, &value);
    km_params_free(params);
    return value;
}

KM_TEST_CASE(power_range_steps_on_the_exponent)
{
    char *values;
    size_t n;
    CHECK_OK(km_grid_values("2^-5..2^15:2", &values, &n));
    CHECK(n == 11);
    for (size_t k = 0; k < n; k++)
        CHECK(read_as(KM_PARAM_C, item(values, k)) == ldexp(1.0, -5 + 2 * (int)k));
    CHECK(!strcmp(item(values, 0), "2^-5") && !strcmp(item(values, 10), "2^15"));
    km_free(values);
    CHECK_OK(km_grid_values("10^-1..10^1", &values, &n));   /* step 1 by default */
    CHECK(n == 3 && fabs(read_as(KM_PARAM_C, item(values, 0)) - 0.1) < 1e-15 && read_as(KM_PARAM_C, item(values, 2)) == 10);
    km_free(values);
}

KM_TEST_CASE(plain_range_and_lists)
{
    char *values;
    size_t n;
    CHECK_OK(km_grid_values("0.5..2:0.5", &values, &n));
    CHECK(n == 4);
    for (size_t k = 0; k < n; k++)
        CHECK(read_as(KM_PARAM_C, item(values, k)) == 0.5 * (double)(k + 1));
    km_free(values);
    /* list items are kept as written for the parameter's parser: fractions, inf, names */
    CHECK_OK(km_grid_values("1,8/7,4/3,2,4,inf", &values, &n));
    CHECK(n == 6 && !strcmp(item(values, 1), "8/7") && !strcmp(item(values, 5), "inf"));
    CHECK(fabs(read_as(KM_PARAM_P, item(values, 2)) - 4.0 / 3.0) < 1e-15 && isinf(read_as(KM_PARAM_P, item(values, 5))));
    km_free(values);
    CHECK_OK(km_grid_values("lp,elasticnet,fixed", &values, &n));
    CHECK(n == 3 && !strcmp(item(values, 1), "elasticnet"));
    km_free(values);
    CHECK_OK(km_grid_values("0.1,1..3,2^4", &values, &n));   /* a range as a list item */
    CHECK(n == 5 && !strcmp(item(values, 0), "0.1") && !strcmp(item(values, 3), "3") && !strcmp(item(values, 4), "2^4"));
    km_free(values);
}

KM_TEST_CASE(bad_lists_are_refused)
{
    char *values = NULL;
    size_t n = 0;
    CHECK_STATUS(km_grid_values("2^1..8", &values, &n), KM_EINVAL);
    CHECK(strstr(km_last_error(), "mixes forms"));
    CHECK_STATUS(km_grid_values("5..1", &values, &n), KM_EINVAL);
    CHECK(strstr(km_last_error(), "is empty"));
    CHECK_STATUS(km_grid_values("1..2:0", &values, &n), KM_EINVAL);
    CHECK(strstr(km_last_error(), "step must be > 0"));
    CHECK_STATUS(km_grid_values("1..2:-1", &values, &n), KM_EINVAL);
    CHECK_STATUS(km_grid_values("1,,2", &values, &n), KM_EINVAL);
    CHECK(strstr(km_last_error(), "an empty value"));
    CHECK_STATUS(km_grid_values("1,", &values, &n), KM_EINVAL);
    CHECK_STATUS(km_grid_values("1..20000", &values, &n), KM_EINVAL);
    CHECK(strstr(km_last_error(), "more than 10000 values"));
    CHECK_STATUS(km_grid_values("a..b", &values, &n), KM_EINVAL);
    CHECK(values == NULL && n == 0);
}

KM_TEST_CASE(settings_are_copies)
{
    km_grid *grid;
    km_params *params;
    km_kernel_set *set;
    double c = 0;
    CHECK_OK(km_grid_new(&grid));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, 4));
    CHECK_OK(km_grid_add(grid, params, set, "-c 4"));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, 8));
    CHECK_OK(km_grid_add(grid, params, set, "-c 8"));
    CHECK(km_grid_size(grid) == 2);
    CHECK_OK(km_params_get_double(km_grid_params(grid, 0), KM_PARAM_C, &c));
    CHECK(c == 4);
    CHECK(!strcmp(km_grid_options(grid, 1), "-c 8"));
    CHECK(km_grid_options(grid, 2) == NULL && km_grid_params(grid, 2) == NULL);
    CHECK_STATUS(km_grid_add(grid, NULL, set, ""), KM_EINVAL);
    km_grid_free(grid);
    km_params_free(params);
    km_kernel_set_free(set);
}

/* A grid of settings (C, p), one per pair. */
static km_grid *grid_of(const double *c, const double *p, size_t n, km_kernel_set *set)
{
    km_grid *grid;
    km_params *params;
    CHECK_OK(km_grid_new(&grid));
    CHECK_OK(km_params_new(&params));
    for (size_t k = 0; k < n; k++) {
        CHECK_OK(km_params_set_double(params, KM_PARAM_C, c[k]));
        CHECK_OK(km_params_set_double(params, KM_PARAM_P, p[k]));
        CHECK_OK(km_grid_add(grid, params, set, ""));
    }
    km_params_free(params);
    return grid;
}

KM_TEST_CASE(ties_go_to_the_simpler_model)
{
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    const double c[] = {4, 0.5, 0.5, 0.5, 2}, p[] = {2, 1, INFINITY, 4.0 / 3.0, 2};
    km_grid *grid = grid_of(c, p, 5, set);
    /* equal means: the smaller C (0.5), among those the larger p (inf) */
    const double equal[] = {0.9, 0.9, 0.9, 0.9, 0.9};
    CHECK(km_cv_choose(grid, equal, NULL, 1) == 2);
    /* a mean differing in the 13th digit is a tie; a larger one in the 10th is not */
    const double close[] = {0.9 + 1e-14, 0.9, 0.9, 0.9, 0.9 + 1e-10};
    CHECK(km_cv_choose(grid, close, NULL, 1) == 4);
    /* lower is better for errors; considered limits the choice */
    const double errors[] = {0.3, 0.2, 0.25, 0.1, 0.1};
    const unsigned char considered[] = {1, 1, 1, 0, 1};
    CHECK(km_cv_choose(grid, errors, NULL, 0) == 3);
    CHECK(km_cv_choose(grid, errors, considered, 0) == 4);
    CHECK(km_cv_choose(grid, errors, considered, 1) == 0);
    km_grid_free(grid);
    /* all equal: the earlier setting */
    const double same_c[] = {1, 1}, same_p[] = {2, 2};
    grid = grid_of(same_c, same_p, 2, set);
    CHECK(km_cv_choose(grid, equal, NULL, 1) == 0);
    km_grid_free(grid);
    km_kernel_set_free(set);
}
