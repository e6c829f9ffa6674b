/* The parameter table describes every parameter (km_param_at, km_param_describe): names, options, help,
 * bounds and defaults agree with what the handle's setters and getters do, and km_params_set_text reads
 * values as users write them. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"

static km_param_info described(km_param id)
{
    km_param_info info = KM_PARAM_INFO_INIT;
    CHECK_OK(km_param_describe(id, &info));
    return info;
}

/* The value of parameter id in params as a double (integers converted). */
static double value_of(const km_params *params, km_param id, unsigned flags)
{
    double value = NAN;
    int64_t integer = 0;
    if (flags & KM_PARAM_INTEGER) {
        CHECK_OK(km_params_get_int(params, id, &integer));
        value = (double)integer;
    } else {
        CHECK_OK(km_params_get_double(params, id, &value));
    }
    return value;
}

/* Whether value lies in the described bounds. */
static int within(const km_param_info *info, double value)
{
    int above = info->flags & KM_PARAM_LOWER_OPEN ? value > info->lower : value >= info->lower;
    int below = info->flags & KM_PARAM_UPPER_OPEN ? value < info->upper : value <= info->upper;
    return above && below;
}

KM_TEST_CASE(every_parameter_described)
{
    km_params *params = NULL;
    CHECK_OK(km_params_new(&params));
    size_t count = 0, with_options = 0;
    km_param id;
    for (size_t k = 0; (id = km_param_at(k)); k++, count++) {
        km_param_info info = described(id);
        km_param by_name = 0;
        CHECK(info.id == id && info.name && info.help && info.help[0]);
        CHECK_OK(km_param_from_name(info.name, &by_name));
        CHECK(by_name == id && !strcmp(km_param_name(id), info.name));
        double lower, upper;
        unsigned flags;
        CHECK_OK(km_param_bounds(id, &lower, &upper, &flags));
        CHECK(lower == info.lower && upper == info.upper && flags == info.flags);
        /* the default is what a new handle holds, within the bounds or the automatic choice */
        double value = value_of(params, id, info.flags);
        CHECK(value == info.default_value);
        CHECK(within(&info, value) || (info.flags & KM_PARAM_AUTOMATIC));
        CHECK(!(info.flags & KM_PARAM_AUTOMATIC) || !within(&info, info.default_value));
        if (info.enumeration)
            CHECK(km_enum_name(info.enumeration, (int)info.default_value) != NULL);
        if (info.options) {
            with_options++;
            CHECK(info.options[0] == '-');
            /* a switch sets a value within the bounds */
            CHECK(info.value_name || within(&info, info.switch_value));
        }
        for (size_t j = 0; j < k; j++)
            CHECK(km_param_at(j) != id);
    }
    CHECK(km_param_at(count) == 0 && count >= 45 && with_options + 2 >= count);
    km_param_info unknown = KM_PARAM_INFO_INIT;
    CHECK_STATUS(km_param_describe((km_param)9999, &unknown), KM_EINVAL);
    km_params_free(params);
}

/* Sets parameter id from text, which must succeed, and returns its value. */
static double after(km_params *params, km_param id, const char *text)
{
    CHECK_OK(km_params_set_text(params, id, text));
    return value_of(params, id, described(id).flags);
}

/* Setting parameter id from text fails with a message containing expected, leaving the value. */
static void refused(km_params *params, km_param id, const char *text, const char *expected)
{
    unsigned flags = described(id).flags;
    double before = value_of(params, id, flags);
    CHECK_STATUS(km_params_set_text(params, id, text), KM_EINVAL);
    if (!strstr(km_last_error(), expected)) {
        fprintf(stderr, "%s: \"%s\" does not contain \"%s\"\n", text, km_last_error(), expected);
        check_failures++;
    }
    CHECK(value_of(params, id, flags) == before || (isnan(before) && isnan(value_of(params, id, flags))));
}

KM_TEST_CASE(values_as_users_write_them)
{
    km_params *params = NULL;
    CHECK_OK(km_params_new(&params));
    CHECK(after(params, KM_PARAM_C, "2^-3") == 0.125);
    CHECK(after(params, KM_PARAM_C, "1e3") == 1000);
    CHECK(after(params, KM_PARAM_P, "4/3") == 4.0 / 3);
    CHECK(isinf(after(params, KM_PARAM_P, "inf")));
    CHECK(after(params, KM_PARAM_P_BLOCK, "16/15") == 16.0 / 15);
    CHECK(after(params, KM_PARAM_P_BLOCK, "0") == 0);   /* the automatic choice: from p */
    CHECK(after(params, KM_PARAM_MULTICLASS, "ovr") == KM_MULTICLASS_OVR);
    CHECK(after(params, KM_PARAM_MKL_METHOD, "align-q") == KM_MKL_ALIGN_Q);
    CHECK(after(params, KM_PARAM_MKL_METHOD, "alignq") == KM_MKL_ALIGN_Q);   /* the alias */
    CHECK(after(params, KM_PARAM_MKL_MAX_OUTER, "2^4") == 16);
    CHECK(after(params, KM_PARAM_SEED, "9223372036854775807") == 9223372036854775807.0);
    CHECK(after(params, KM_PARAM_MAX_ITER, "0") == 0);  /* LIBSVM's limit */
    CHECK(isinf(after(params, KM_PARAM_OBSCURE_RADIUS, "inf")));
    CHECK(isinf(after(params, KM_PARAM_CLUSTER_TAU, "infinity")));
    refused(params, KM_PARAM_C, "inf", "parameter C: 'inf' is not finite");
    refused(params, KM_PARAM_C, "0", "parameter C: 0 is out of range (0, inf)");
    refused(params, KM_PARAM_C, "4/3", "parameter C: '4/3' is not a number");
    refused(params, KM_PARAM_P, "1/3", "parameter p: 1/3 is below 1");
    refused(params, KM_PARAM_P, "1/0", "division by zero");
    refused(params, KM_PARAM_MKL_MAX_OUTER, "1.5", "parameter mkl_max_outer: '1.5' is not an integer");
    refused(params, KM_PARAM_MAX_ITER, "-5", "out of range");
    refused(params, KM_PARAM_MULTICLASS, "ovx", "'ovx' is not ovo, ovr or joint");
    refused(params, KM_PARAM_MKL_SOLVER, "silpp", "did you mean");
    refused(params, KM_PARAM_LAMBDA, "", "not a number");
    CHECK_STATUS(km_params_set_text(params, (km_param)9999, "1"), KM_EINVAL);
    km_params_free(params);
}

/* The setters by type check the same bounds as the text, with the automatic choice accepted. */
KM_TEST_CASE(setters_share_the_bounds)
{
    km_params *params = NULL;
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MAX_ITER, 0));
    CHECK_STATUS(km_params_set_int(params, KM_PARAM_MAX_ITER, -1), KM_EINVAL);
    CHECK_OK(km_params_set_double(params, KM_PARAM_CLUSTER_TAU, -1));
    CHECK_STATUS(km_params_set_double(params, KM_PARAM_CLUSTER_TAU, -2), KM_EINVAL);
    CHECK_STATUS(km_params_set_double(params, KM_PARAM_P_BLOCK, 0.5), KM_EINVAL);
    CHECK(strstr(km_last_error(), "or 0 for the automatic choice") != NULL);
    CHECK_STATUS(km_params_set_double(params, KM_PARAM_MKL_MAX_OUTER, 3), KM_EINVAL);   /* an integer */
    km_params_free(params);
}
