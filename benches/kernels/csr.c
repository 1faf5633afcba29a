// Sparse matrix-vector products in CSR form (row_ptr, col_idx, vals) inside
// a power iteration: y = A x, Rayleigh quotient, normalise, repeat.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>

static int64_t seed = 31337;

static int64_t next_random(void) {
    seed = seed * 48271 % 2147483647;
    return seed;
}

static void spmv(int64_t n, const int64_t *row_ptr, const int64_t *col_idx, const double *vals,
                 const double *x, double *y) {
    for (int64_t i = 0; i < n; i++) {
        double sum = 0.0;
        for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; k++) sum += vals[k] * x[col_idx[k]];
        y[i] = sum;
    }
}

static double dot(int64_t n, const double *a, const double *b) {
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

int main(void) {
    // Build a random matrix: each row has a diagonal entry and 3..14 others.
    int64_t n = 100000;
    int64_t *row_ptr = calloc(n + 1, sizeof *row_ptr);
    for (int64_t i = 0; i < n; i++) row_ptr[i + 1] = row_ptr[i] + 4 + next_random() % 12;
    int64_t nnz = row_ptr[n];
    int64_t *col_idx = malloc(nnz * sizeof *col_idx);
    double *vals = malloc(nnz * sizeof *vals);
    for (int64_t i = 0; i < n; i++) {
        int64_t start = row_ptr[i];
        col_idx[start] = i;
        vals[start] = 2.0;
        for (int64_t k = start + 1; k < row_ptr[i + 1]; k++) {
            col_idx[k] = next_random() % n;
            vals[k] = (double)(next_random() % 1000 + 1) / 1000.0;
        }
    }
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (int64_t i = 0; i < n; i++) x[i] = 1.0 / sqrt((double)n);
    double lambda = 0.0;
    for (int64_t iter = 0; iter < 200; iter++) {
        spmv(n, row_ptr, col_idx, vals, x, y);
        lambda = dot(n, x, y);
        double norm = sqrt(dot(n, y, y));
        for (int64_t i = 0; i < n; i++) x[i] = y[i] / norm;
        if (iter % 50 == 0)
            printf("%lld %lld %lld\n", (long long)iter, (long long)(lambda * 1000000000.0),
                   (long long)(norm * 1000000000.0));
    }
    double weighted = 0.0;
    for (int64_t i = 0; i < n; i++) weighted += x[i] * (double)(i % 100);
    printf("%lld %lld %lld\n", (long long)nnz, (long long)(lambda * 1000000000.0),
           (long long)(weighted * 1000000000.0));
    return 0;
}
