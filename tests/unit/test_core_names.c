/* The enumeration names: one table per enumeration, the public lookup km_enum_name / km_enum_value /
 * km_enum_name_at, aliases accepted but never written, and the "a, b or c" phrase of the messages. */
#include <string.h>

#include "check.h"
#include "core/names.h"
#include "kernelmix.h"

static void test_public_lookup(void)
{
    int value = -1;
    CHECK(!strcmp(km_enum_name(KM_ENUM_TASK, KM_TASK_SVR), "svr"));
    CHECK(!strcmp(km_enum_name(KM_ENUM_MKL_SOLVER, KM_MKL_SIMPLEMKL), "simplemkl"));
    CHECK(!strcmp(km_enum_name(KM_ENUM_CACHE_VALUES, KM_CACHE_FLOAT), "float"));
    CHECK(km_enum_name(KM_ENUM_MULTICLASS, 7) == NULL);
    CHECK(km_enum_name((km_enum)99, 0) == NULL);
    CHECK_OK(km_enum_value(KM_ENUM_MKL_REGULARIZER, "blockp", &value));
    CHECK(value == KM_REG_BLOCKP);
    CHECK_OK(km_enum_value(KM_ENUM_KERNEL_TYPE, "chi2", &value));
    CHECK(value == KM_KERNEL_CHI2);
    CHECK_STATUS(km_enum_value(KM_ENUM_MKL_METHOD, "simplex", &value), KM_EINVAL);
    CHECK(!strcmp(km_last_error(), "'simplex' is not fixed, lp, elasticnet, tikhonov, align, align-q, alignf, alignf-linear, l2krr, l1krr, eb-rw, eb-mackay, obscure, clmkl, hlmkl or lmkl"));
    CHECK_STATUS(km_enum_value(KM_ENUM_MULTICLASS, NULL, &value), KM_EINVAL);
    CHECK_STATUS(km_enum_value((km_enum)0, "svc", &value), KM_EINVAL);
}

/* Aliases read as their value; the canonical name is what is written and listed. */
static void test_aliases(void)
{
    int value = -1;
    CHECK_OK(km_enum_value(KM_ENUM_TASK, "one-class", &value));
    CHECK(value == KM_TASK_ONECLASS);
    CHECK(!strcmp(km_enum_name(KM_ENUM_TASK, KM_TASK_ONECLASS), "oneclass"));
    CHECK_OK(km_enum_value(KM_ENUM_NORMALIZATION, "multiplicative", &value));
    CHECK(value == KM_NORM_MULTIPLICATIVE);
    CHECK(!strcmp(km_enum_name(KM_ENUM_NORMALIZATION, KM_NORM_MULTIPLICATIVE), "mult"));
    char phrase[64];
    CHECK(!strcmp(km_names_phrase(km_task_names, phrase, sizeof phrase), "svc, svr, oneclass, nu-svc, nu-svr or krr"));
    CHECK(!strcmp(km_names_phrase(km_multiclass_names, phrase, sizeof phrase), "ovo, ovr or joint"));
    CHECK(!strcmp(km_names_phrase(km_task_names, phrase, 6), "svc, "));
}

/* km_enum_name_at lists every value once, in table order, and agrees with km_enum_name. */
static void test_listing(void)
{
    static const km_enum all[] = {KM_ENUM_TASK,          KM_ENUM_MULTICLASS,  KM_ENUM_MKL_METHOD,
                                  KM_ENUM_MKL_SOLVER,    KM_ENUM_MKL_REGULARIZER, KM_ENUM_KERNEL_TYPE,
                                  KM_ENUM_NORMALIZATION, KM_ENUM_CACHE_VALUES, KM_ENUM_MU0,
                                  KM_ENUM_RANK1_WEIGHT};
    static const size_t counts[] = {6, 3, 16, 6, 5, 11, 4, 3, 3, 2};
    for (size_t e = 0; e < sizeof all / sizeof all[0]; e++) {
        size_t n = 0;
        int value;
        for (const char *name; (name = km_enum_name_at(all[e], n, &value)); n++) {
            CHECK(!strcmp(km_enum_name(all[e], value), name));
            int back = -1;
            CHECK_OK(km_enum_value(all[e], name, &back));
            CHECK(back == value);
        }
        CHECK(n == counts[e]);
    }
    CHECK(!strcmp(km_enum_name_at(KM_ENUM_TASK, 2, NULL), "oneclass"));
    CHECK(km_enum_name_at((km_enum)42, 0, NULL) == NULL);
}

KM_TEST_CASE(public_lookup) { test_public_lookup(); }
KM_TEST_CASE(aliases) { test_aliases(); }
KM_TEST_CASE(listing) { test_listing(); }
