/* The method table's flags and descriptions (mkl/method.h) against the entries' other members: what the
 * flags claim is what the members do (a k-means method has weight groups, empirical Bayes keeps a data
 * section, a joint multiclass or primal-objective method learns weights); km_mkl_method_flags answers
 * the entry's flags and 0 for an id without one; a regularization path runs over a parameter the method
 * reads; every method's settings are one text line naming it, or JSON members without NaN. */
#include <string.h>

#include "check.h"
#include "mkl/method.h"

KM_TEST_CASE(flags_agree_with_members)
{
    size_t count = 0;
    for (const km_mkl_method_entry *e; (e = km_mkl_method_at(count)); count++) {
        unsigned f = e->flags;
        CHECK(km_mkl_method_flags(e->id) == f);
        CHECK(!(f & KM_METHOD_KMEANS_CLUSTERS) || e->weight_groups);
        CHECK(!(f & KM_METHOD_HARD_MEMBERSHIPS) || (f & KM_METHOD_KMEANS_CLUSTERS));
        CHECK(!(f & KM_METHOD_EMPIRICAL_BAYES) || e->data_section);
        unsigned needs_learning = KM_METHOD_JOINT_MULTICLASS | KM_METHOD_READS_ROW_BLOCKS |
                                  KM_METHOD_PRIMAL_OBJECTIVE | KM_METHOD_EMPIRICAL_BAYES | KM_METHOD_ALIGNMENT |
                                  KM_METHOD_KMEANS_CLUSTERS;
        CHECK(!(f & needs_learning) || (f & KM_METHOD_LEARNS_WEIGHTS));
    }
    CHECK(count >= 16);
    CHECK(km_mkl_method_flags((km_mkl_method)999) == 0);
    CHECK(km_mkl_method_flags(KM_MKL_FIXED) == 0);
}

KM_TEST_CASE(path_parameter_is_read_by_the_method)
{
    km_params *params = NULL;
    CHECK_OK(km_params_new(&params));
    size_t paths = 0;
    for (size_t k = 0; km_mkl_method_at(k); k++) {
        const km_mkl_method_entry *e = km_mkl_method_at(k);
        for (int reg = KM_REG_LQ; reg <= KM_REG_ELASTICNET; reg++) {
            km_mkl_params mkl = km_mkl_params_of(params);
            mkl.method = e->id;
            mkl.regularizer = (km_mkl_regularizer)reg;
            const char *title = NULL;
            km_param id = km_mkl_path_parameter(&mkl, &title);
            if (!id)
                continue;
            paths++;
            CHECK(title && *title);
            CHECK(km_param_read_by(id, KM_TASK_SVC, e->id));
        }
    }
    CHECK(paths >= 3);
    km_params_free(params);
}

KM_TEST_CASE(settings_are_one_line_and_json_members)
{
    km_params *params = NULL;
    CHECK_OK(km_params_new(&params));
    km_record record = {0};
    double theta[2] = {0.5, 0.25};
    for (size_t k = 0; km_mkl_method_at(k); k++) {
        km_mkl_params mkl = km_mkl_params_of(params);
        mkl.method = km_mkl_method_at(k)->id;
        for (int json = 0; json < 2; json++) {
            char buffer[4096] = {0};
            FILE *out = fmemopen(buffer, sizeof buffer - 1, "w");
            km_mkl_description d = {KM_DESCRIBE_SETTINGS, json, out, &mkl, 1.0, 2, theta, &record};
            km_mkl_describe(&d);
            fclose(out);
            const char *name = km_enum_name(KM_ENUM_MKL_METHOD, mkl.method);
            if (json) {
                CHECK(!*buffer || !strncmp(buffer, ", \"", 3));
                CHECK(!strstr(buffer, "nan") && !strstr(buffer, ": inf") && !strstr(buffer, ": -inf"));
            } else {
                CHECK(strchr(buffer, '\n') == buffer + strlen(buffer) - 1);
                CHECK(strstr(buffer, name) != NULL);
            }
        }
    }
    km_params_free(params);
}
