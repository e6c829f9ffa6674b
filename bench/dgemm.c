/* The machine's dgemm throughput on the shape of a Gram product: C = A * A^T with A n x d (row-major,
 * the call kernelmix makes for a full dot-product block), through the OpenBLAS that kernelmix links.
 *
 * usage: dgemm N D REPEATS
 * One untimed call warms the library up (threads, page faults of C); then REPEATS timed calls.
 * Prints one line: "n N d D flops F seconds T gflops G", T the median time of the timed calls and
 * G = F / T / 1e9 with F = 2 N^2 D (the full product, as dgemm computes it). */
#define _POSIX_C_SOURCE 200809L

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long parse_positive(const char *text, const char *what)
{
    char *end;
    long value = strtol(text, &end, 10);
    if (*end != '\0' || value < 1) {
        fprintf(stderr, "dgemm: %s must be a positive integer, got '%s'\n", what, text);
        exit(2);
    }
    return value;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: dgemm N D REPEATS\n");
        return 2;
    }
    long n = parse_positive(argv[1], "N"), d = parse_positive(argv[2], "D");
    long repeats = parse_positive(argv[3], "REPEATS");
    double *A = malloc((size_t)n * (size_t)d * sizeof *A);
    double *C = malloc((size_t)n * (size_t)n * sizeof *C);
    double *times = malloc((size_t)repeats * sizeof *times);
    if (!A || !C || !times) {
        fprintf(stderr, "dgemm: out of memory for N = %ld, D = %ld\n", n, d);
        return 1;
    }
    /* values in [0, 1), like scaled pixels; a fixed linear congruential sequence */
    unsigned long state = 1;
    for (size_t k = 0; k < (size_t)n * (size_t)d; k++) {
        state = state * 6364136223846793005UL + 1442695040888963407UL;
        A[k] = (double)(state >> 11) / 9007199254740992.0;
    }
    for (long r = -1; r < repeats; r++) {
        double start = seconds_now();
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)n, (int)d, 1.0, A, (int)d, A, (int)d, 0.0,
                    C, (int)n);
        if (r >= 0)
            times[r] = seconds_now() - start;
    }
    qsort(times, (size_t)repeats, sizeof *times, by_value);
    double median = repeats % 2 ? times[repeats / 2] : 0.5 * (times[repeats / 2 - 1] + times[repeats / 2]);
    double flops = 2.0 * (double)n * (double)n * (double)d;
    /* C[0] = ||a_0||^2 > 0 keeps the product observable */
    if (!(C[0] > 0.0)) {
        fprintf(stderr, "dgemm: unexpected product value %g\n", C[0]);
        return 1;
    }
    printf("n %ld d %ld flops %.0f seconds %.6f gflops %.3f\n", n, d, flops, median, flops / median / 1e9);
    free(A);
    free(C);
    free(times);
    return 0;
}
