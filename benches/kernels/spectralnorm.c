// Benchmarks Game spectral-norm: float loops, division, calls.
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static double a(int64_t i, int64_t j) {
    int64_t ij = i + j;
    return 1.0 / (double)(ij * (ij + 1) / 2 + i + 1);
}

static void times(const double *v, double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double sum = 0.0;
        for (int64_t j = 0; j < n; j++) sum += a(i, j) * v[j];
        out[i] = sum;
    }
}

static void times_transposed(const double *v, double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double sum = 0.0;
        for (int64_t j = 0; j < n; j++) sum += a(j, i) * v[j];
        out[i] = sum;
    }
}

static void times_ata(const double *v, double *out, double *tmp, int64_t n) {
    times(v, tmp, n);
    times_transposed(tmp, out, n);
}

int main(void) {
    int64_t n = 2500;
    double *u = malloc(n * sizeof *u), *v = calloc(n, sizeof *v), *tmp = calloc(n, sizeof *tmp);
    for (int64_t i = 0; i < n; i++) u[i] = 1.0;
    for (int step = 0; step < 10; step++) {
        times_ata(u, v, tmp, n);
        times_ata(v, u, tmp, n);
    }
    double vbv = 0.0, vv = 0.0;
    for (int64_t i = 0; i < n; i++) {
        vbv += u[i] * v[i];
        vv += v[i] * v[i];
    }
    printf("%lld\n", (long long)(sqrt(vbv / vv) * 1000000000.0));
    return 0;
}
