// Dense float matrix multiply (i-k-j order), arrays of arrays.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static double **matrix(int64_t n, double seed) {
    double **out = malloc(n * sizeof *out);
    for (int64_t i = 0; i < n; i++) {
        out[i] = malloc(n * sizeof **out);
        for (int64_t j = 0; j < n; j++)
            out[i][j] = (double)((i * 7 + j * 3) % 11) * seed - (double)((i + j) % 5);
    }
    return out;
}

static double **multiply(double **a, double **b, int64_t n) {
    double **c = malloc(n * sizeof *c);
    for (int64_t i = 0; i < n; i++) {
        double *ci = calloc(n, sizeof *ci);
        double *ai = a[i];
        for (int64_t k = 0; k < n; k++) {
            double aik = ai[k];
            double *bk = b[k];
            for (int64_t j = 0; j < n; j++) ci[j] += aik * bk[j];
        }
        c[i] = ci;
    }
    return c;
}

int main(void) {
    int64_t n = 800;
    double **a = matrix(n, 0.5), **b = matrix(n, 0.25);
    double **c = multiply(a, b, n);
    double trace = 0.0;
    for (int64_t i = 0; i < n; i++) trace += c[i][i] + c[i][n - 1 - i];
    printf("%lld\n", (long long)(trace * 1000.0));
    return 0;
}
