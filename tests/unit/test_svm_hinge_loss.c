/* The best bias of a sum of hinges (km_refined_hinge_loss, svm/hinge_loss.h): against every
 * breakpoint tried in turn, the bias it returns has the least loss, on random hinges with repeated breakpoints, zero weights, one side only, and one term. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "svm/hinge_loss.h"

enum { MAX_TERMS = 400 };

static km_hinge given[MAX_TERMS];
static size_t n_given;

static size_t given_hinges(const km_machine_problem *problem, const double *g, km_hinge *out)
{
    (void)problem;
    (void)g;
    for (size_t k = 0; k < n_given; k++)
        out[k] = given[k];
    return n_given;
}

/* sum_k w_k max(0, b - t_k) (up) or w_k max(0, t_k - b) (down) */
static double given_loss_at(const km_machine_problem *problem, const double *g, double b)
{
    (void)problem;
    (void)g;
    double loss = 0;
    for (size_t k = 0; k < n_given; k++)
        loss += given[k].w * fmax(0.0, given[k].up ? b - given[k].t : given[k].t - b);
    return loss;
}

static uint64_t state = 88172645463325252u;

static double uniform(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (double)(state >> 11) / 9007199254740992.0;
}

/* Draws n terms: breakpoints on a grid of `levels` values (repeats when levels < n), weights in
 * [0, 1) with a share of zeros, "up" with probability up_share. */
static void draw(size_t n, int levels, double up_share)
{
    n_given = n;
    for (size_t k = 0; k < n; k++)
        given[k] = (km_hinge){floor(uniform() * levels) - levels / 2, uniform() < 0.1 ? 0.0 : uniform(),
                              uniform() < up_share};
}

/* From a start far right of every breakpoint, the loss returned is the least over the breakpoints
 * and the start, and the bias returned has it: a breakpoint, or the start where that is as good. */
static void check_against_every_breakpoint(void)
{
    const double start = 1e6;
    double best, loss = km_refined_hinge_loss(NULL, NULL, start, &best, n_given, given_hinges, given_loss_at);
    double least = given_loss_at(NULL, NULL, start);
    int at_breakpoint = 0;
    for (size_t k = 0; k < n_given; k++) {
        least = fmin(least, given_loss_at(NULL, NULL, given[k].t));
        at_breakpoint |= best == given[k].t;
    }
    CHECK_NEAR(loss, least, 1e-9 * fmax(1.0, least));
    CHECK_NEAR(given_loss_at(NULL, NULL, best), loss, 1e-12 * fmax(1.0, loss));
    CHECK(at_breakpoint || best == start);
}

KM_TEST_CASE(best_bias_has_the_least_loss)
{
    const int levels[] = {3, 17, 1000000};
    const double up_shares[] = {0.5, 0.1, 0.9};
    for (int round = 0; round < 60; round++) {
        draw(1 + (size_t)(uniform() * (MAX_TERMS - 1)), levels[round % 3], up_shares[(round / 3) % 3]);
        check_against_every_breakpoint();
    }
}

KM_TEST_CASE(one_sided_and_single_terms)
{
    draw(50, 20, 1.0); /* only "up" terms: the loss is 0 at and left of the smallest breakpoint */
    check_against_every_breakpoint();
    draw(50, 20, 0.0); /* only "down" terms: the loss is 0 at and right of the largest */
    check_against_every_breakpoint();
    draw(1, 5, 0.5);
    check_against_every_breakpoint();
    n_given = 0; /* no terms: the given bias stays */
    double best;
    CHECK(km_refined_hinge_loss(NULL, NULL, 2.5, &best, 1, given_hinges, given_loss_at) == 0.0 && best == 2.5);
}
