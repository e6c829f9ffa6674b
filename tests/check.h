/* The C unit tests' cases and assertions. A test file defines named cases,
 *
 *     KM_TEST_CASE(identities_svc_p4_3) { check_identities(KM_TASK_SVC, 4.0 / 3.0); }
 *
 * and no main(): this header supplies it. `test_x CASE` runs one case, `test_x --list` prints the
 * names, `test_x` alone runs every case, each in a child process. tests/CMakeLists.txt finds the
 * KM_TEST_CASE lines in the source (the macro must open its line) and registers each case as its own
 * ctest, test_x.CASE, so a crash in one case cannot hide the cases after it.
 *
 * Setup shared by the cases of a file is named once with KM_TEST_FIXTURE(setup, teardown) (either may
 * be NULL); it runs around every case, so a case also works alone. A case that cannot run (a missing
 * tool) calls KM_TEST_SKIP(reason): exit status 77, which ctest reports as skipped.
 *
 * Each failing check prints file:line, the case and the values; a case fails (exit status 1) when any
 * of its checks failed. */
#ifndef KM_TEST_CHECK_H
#define KM_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct km_test_case {
    const char *name;
    void (*run)(void);
} km_test_case;

enum { KM_TEST_MAX_CASES = 64, KM_TEST_SKIPPED = 77 };

static km_test_case km_test_cases[KM_TEST_MAX_CASES];
static int km_test_case_count;
static void (*km_test_setup)(void);
static void (*km_test_teardown)(void);
static const char *check_case = "(no case)"; /* the running case, named by every failure message */
static int check_failures;

static void km_test_register(const char *name, void (*run)(void))
{
    if (km_test_case_count == KM_TEST_MAX_CASES) {
        fprintf(stderr, "check.h: more than %d cases in one file\n", KM_TEST_MAX_CASES);
        exit(2);
    }
    km_test_cases[km_test_case_count].name = name;
    km_test_cases[km_test_case_count].run = run;
    km_test_case_count++;
}

/* Each case registers itself before main runs (a constructor), so the list cannot miss a case. */
#define KM_TEST_CASE(name)                                                                      \
    static void km_test_case_##name(void);                                                      \
    __attribute__((constructor)) static void km_test_register_##name(void)                      \
    {                                                                                           \
        km_test_register(#name, km_test_case_##name);                                           \
    }                                                                                           \
    static void km_test_case_##name(void)

#define KM_TEST_FIXTURE(setup, teardown)                                                        \
    __attribute__((constructor)) static void km_test_register_fixture(void)                     \
    {                                                                                           \
        km_test_setup = (setup);                                                                \
        km_test_teardown = (teardown);                                                          \
    }

#define KM_TEST_SKIP(reason)                                                                    \
    do {                                                                                        \
        fprintf(stderr, "SKIP %s: %s\n", check_case, (reason));                                 \
        exit(KM_TEST_SKIPPED);                                                                  \
    } while (0)

#define CHECK(cond)                                                                             \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            fprintf(stderr, "%s:%d: [%s] CHECK failed: %s\n", __FILE__, __LINE__, check_case,   \
                    #cond);                                                                     \
            check_failures++;                                                                   \
        }                                                                                       \
    } while (0)

/* |a - b| <= tol * max(1, |b|)  (relative for large values, absolute near zero) */
#define CHECK_NEAR(a, b, tol)                                                                   \
    do {                                                                                        \
        double check_a_ = (a), check_b_ = (b), check_t_ = (tol);                                \
        double check_s_ = fabs(check_b_) > 1.0 ? fabs(check_b_) : 1.0;                          \
        if (!(fabs(check_a_ - check_b_) <= check_t_ * check_s_)) {                              \
            fprintf(stderr, "%s:%d: [%s] CHECK_NEAR failed: %s = %.17g, %s = %.17g, tol %g\n",  \
                    __FILE__, __LINE__, check_case, #a, check_a_, #b, check_b_, check_t_);      \
            check_failures++;                                                                   \
        }                                                                                       \
    } while (0)

#define CHECK_STATUS(call, expected)                                                            \
    do {                                                                                        \
        int check_st_ = (int)(call);                                                            \
        if (check_st_ != (int)(expected)) {                                                     \
            fprintf(stderr, "%s:%d: [%s] %s returned %d, expected %d (%s)\n", __FILE__,         \
                    __LINE__, check_case, #call, check_st_, (int)(expected), km_last_error());  \
            check_failures++;                                                                   \
        }                                                                                       \
    } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, KM_OK)

/* Runs one case in this process: its exit status (0 passed, 1 failed). Output written by the test
 * bodies themselves follows the "case NAME" line, so it is attributed too. */
static int km_test_run_case(const km_test_case *c)
{
    check_case = c->name;
    fprintf(stderr, "case %s\n", c->name);
    if (km_test_setup)
        km_test_setup();
    c->run();
    if (km_test_teardown)
        km_test_teardown();
    if (check_failures)
        fprintf(stderr, "case %s: %d check(s) failed\n", c->name, check_failures);
    return check_failures ? 1 : 0;
}

/* Every case in a child process of its own; the parent names each case that failed, crashed or was
 * skipped. */
static int km_test_run_all(void)
{
    int failed = 0;
    fflush(NULL);
    for (int i = 0; i < km_test_case_count; i++) {
        pid_t child = fork();
        if (child == 0)
            exit(km_test_run_case(&km_test_cases[i]));
        int status = 0;
        if (child < 0 || waitpid(child, &status, 0) < 0) {
            perror("check.h: fork");
            return 1;
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == KM_TEST_SKIPPED) {
            fprintf(stderr, "case %s: skipped\n", km_test_cases[i].name);
        } else if (WIFSIGNALED(status)) {
            fprintf(stderr, "case %s: killed by signal %d\n", km_test_cases[i].name, WTERMSIG(status));
            failed++;
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "case %s: failed\n", km_test_cases[i].name);
            failed++;
        }
    }
    if (failed)
        fprintf(stderr, "%d of %d case(s) failed\n", failed, km_test_case_count);
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 1)
        return km_test_run_all();
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < km_test_case_count; i++)
            printf("%s\n", km_test_cases[i].name);
        return 0;
    }
    for (int i = 0; argc == 2 && i < km_test_case_count; i++)
        if (strcmp(argv[1], km_test_cases[i].name) == 0)
            return km_test_run_case(&km_test_cases[i]);
    fprintf(stderr, "usage: %s [--list | CASE]; no case named '%s'\n", argv[0], argc > 1 ? argv[1] : "");
    return 2;
}

#endif
