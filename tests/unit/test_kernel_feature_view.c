/* Sparse feature views size their workspaces by the columns the rows use, not by the largest feature
 * index: views over feature indices near 2^31 give the dot products, column products, row sums and
 * mean distance of a plain computation on the few columns involved, and rows of another view meet
 * only the columns both use. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "data/dataset.h"
#include "kernel/feature_view.h"
#include "kernelmix.h"

enum { WIDE = 2000000000 };

/* 4 training rows and 3 test rows over columns that reach 2e9; test rows also use unseen columns */
static const int64_t train_ptr[] = {0, 2, 4, 5, 7};
static const int32_t train_col[] = {4, WIDE - 1, 0, 6, WIDE - 1, 2, 4};
static const double train_val[] = {2.0, 1.0, 1.0, 1.0, 2.0, 1.5, -3.0};
static const int64_t test_ptr[] = {0, 3, 4, 6};
static const int32_t test_col[] = {4, 100000000, WIDE - 1, 7, 0, 6};
static const double test_val[] = {1.0, 9.0, -1.0, 5.0, 2.0, 0.5};

/* value of column c in CSR row r, 0 when not stored */
static double value(const int64_t *ptr, const int32_t *col, const double *val, size_t r, int32_t c)
{
    for (int64_t p = ptr[r]; p < ptr[r + 1]; p++)
        if (col[p] == c)
            return val[p];
    return 0.0;
}

/* <a_i, b_j> over every column either row uses */
static double plain_dot(const int64_t *pa, const int32_t *ca, const double *va, size_t i, const int64_t *pb,
                        const int32_t *cb, const double *vb, size_t j)
{
    double s = 0.0;
    for (int64_t p = pa[i]; p < pa[i + 1]; p++)
        s += va[p] * value(pb, cb, vb, j, ca[p]);
    return s;
}

static km_dataset *csr(size_t n, const int64_t *ptr, const int32_t *col, const double *val)
{
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_csr(n, WIDE, ptr, col, val, NULL, &data));
    return data;
}

KM_TEST_CASE(sparse_view_over_huge_indices)
{
    km_dataset *train = csr(4, train_ptr, train_col, train_val), *test = csr(3, test_ptr, test_col, test_val);
    km_view vt, vs;
    CHECK_OK(km_view_build(train, NULL, 4, NULL, 0, WIDE, &vt));
    CHECK_OK(km_view_build(test, NULL, 3, NULL, 0, WIDE, &vs));
    CHECK(vt.sparse && vt.dim == WIDE && vs.sparse);
    CHECK(km_view_width(&vt) == 5);   /* columns 0, 2, 4, 6 and WIDE-1 */
    CHECK(km_view_width(&vs) == 6);

    /* training Gram matrix and test-by-training products against the plain sums */
    double gram[16], cross[12], back[12];
    CHECK_OK(km_view_gram(&vt, gram));
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++)
            CHECK_NEAR(gram[i * 4 + j], plain_dot(train_ptr, train_col, train_val, i, train_ptr, train_col, train_val, j),
                       1e-15);
    CHECK_OK(km_view_dots(&vs, 0, 3, &vt, cross));
    CHECK_OK(km_view_dots(&vt, 0, 4, &vs, back));
    for (size_t t = 0; t < 3; t++)
        for (size_t j = 0; j < 4; j++) {
            double expected = plain_dot(test_ptr, test_col, test_val, t, train_ptr, train_col, train_val, j);
            CHECK_NEAR(cross[t * 4 + j], expected, 1e-15);
            CHECK_NEAR(back[j * 3 + t], expected, 1e-15);
        }
    CHECK(cross[0 * 4 + 0] == 2.0 - 1.0);   /* row 1 of each: 1*2 at column 4, -1*1 at WIDE-1 */

    /* one column of the Gram matrix through the slot workspace, which is left zero */
    double work[5] = {0}, column[4];
    km_view_dot_column(&vt, 2, work, column);
    for (size_t j = 0; j < 4; j++)
        CHECK_NEAR(column[j], gram[2 * 4 + j], 1e-15);
    for (size_t s = 0; s < 5; s++)
        CHECK(work[s] == 0.0);

    /* row sums of the linear kernel and the mean squared distance over the 6 pairs */
    double *sums = NULL, row_sum[4];
    CHECK_OK(km_view_column_sums(&vt, &sums));
    km_view_dot_vector(&vt, sums, row_sum);
    double pairs = 0.0;
    for (size_t i = 0; i < 4; i++) {
        double expected = 0.0;
        for (size_t j = 0; j < 4; j++) {
            expected += gram[i * 4 + j];
            if (j > i)
                pairs += gram[i * 4 + i] + gram[j * 4 + j] - 2.0 * gram[i * 4 + j];
        }
        CHECK_NEAR(row_sum[i], expected, 1e-14);
    }
    double mean = 0.0;
    CHECK_OK(km_view_mean_sqdist(&vt, &mean));
    CHECK_NEAR(mean, pairs / 6.0, 1e-14);
    free(sums);
    km_view_free(&vt);
    km_view_free(&vs);
    km_dataset_free(train);
    km_dataset_free(test);
}

/* A two-row file with the feature index 2e9 trains and predicts (the view numbered only 2 columns). */
KM_TEST_CASE(model_on_huge_feature_index)
{
    static const int64_t ptr[] = {0, 1, 2};
    static const int32_t col[] = {WIDE - 1, 0};
    static const double val[] = {1.0, 1.0}, y[] = {1.0, -1.0};
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_csr(2, WIDE, ptr, col, val, y, &data));
    km_params *params = NULL;
    km_kernel_set *kernels = NULL;
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_kernel_set_new(&kernels));
    CHECK_OK(km_kernel_set_add_spec(kernels, "rbf:gamma=1/mean"));
    km_model *model = NULL;
    CHECK_OK(km_train(data, kernels, params, &model));
    double labels[2];
    CHECK_OK(km_predict(model, data, NULL, labels, NULL));
    CHECK(labels[0] == 1.0 && labels[1] == -1.0);
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(kernels);
    km_dataset_free(data);
}
