/* The eight-point set S8 of the alignment tests: X rows (0,0), (1,0), (0,1), (1,1), (2,1), (1,2),
 * (2,2), (3,1), labels y, and the raw kernels linear, (x.x' + 1)^2, exp(-0.5 d^2), exp(-d^2). */
#ifndef KM_TEST_S8_SET_H
#define KM_TEST_S8_SET_H

#include <math.h>

enum { S = 8, KS = 4 };

static const double s8_y[S] = {-1, -1, 1, -1, 1, 1, 1, -1};

static void s8_raw_kernels(double K[KS][S * S])
{
    static const double P[S][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 1}};
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++) {
            double dot = P[i][0] * P[j][0] + P[i][1] * P[j][1];
            double d2 = (P[i][0] - P[j][0]) * (P[i][0] - P[j][0]) + (P[i][1] - P[j][1]) * (P[i][1] - P[j][1]);
            K[0][i * S + j] = dot;
            K[1][i * S + j] = (dot + 1) * (dot + 1);
            K[2][i * S + j] = exp(-0.5 * d2);
            K[3][i * S + j] = exp(-d2);
        }
}

#endif
