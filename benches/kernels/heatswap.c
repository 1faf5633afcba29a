// Jacobi relaxation of the 2-D heat equation on row-pointer grids: the top
// edge is held hot, a small square in the middle is held cold; two grids
// are swapped every sweep and the largest change per sweep is tracked.
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <math.h>

static double **make_grid(long n) {
    double **g = malloc(n * sizeof *g);
    for (long i = 0; i < n; i++) g[i] = calloc(n, sizeof **g);
    return g;
}

static void apply_boundary(double **g, long n) {
    for (long j = 0; j < n; j++) {
        g[0][j] = 100.0;
        g[n - 1][j] = 0.0;
    }
    for (long i = 0; i < n; i++) {
        g[i][0] = 50.0 * (double)(n - 1 - i) / (double)(n - 1);
        g[i][n - 1] = 0.0;
    }
    long c = n / 2;
    for (long i = c - 4; i < c + 4; i++)
        for (long j = c - 4; j < c + 4; j++) g[i][j] = -20.0;
}

static bool is_fixed(long i, long j, long n) {
    long c = n / 2;
    return i >= c - 4 && i < c + 4 && j >= c - 4 && j < c + 4;
}

static double sweep(double **src, double **dst, long n) {
    double change = 0.0;
    for (long i = 1; i < n - 1; i++) {
        const double *up = src[i - 1], *row = src[i], *down = src[i + 1];
        double *out = dst[i];
        for (long j = 1; j < n - 1; j++) {
            if (is_fixed(i, j, n)) {
                out[j] = row[j];
            } else {
                double v = 0.25 * (up[j] + down[j] + row[j - 1] + row[j + 1]);
                change = fmax(change, fabs(v - row[j]));
                out[j] = v;
            }
        }
    }
    return change;
}

static double total(double **g, long n) {
    double s = 0.0;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) s += g[i][j];
    return s;
}

int main(void) {
    long n = 256;
    double **a = make_grid(n), **b = make_grid(n);
    apply_boundary(a, n);
    apply_boundary(b, n);
    long iters = 0, maxiter = 6000;
    double tol = 1e-6, change = 1.0;
    while (iters < maxiter && change > tol) {
        change = sweep(a, b, n);
        double **t = a;
        a = b;
        b = t;
        iters += 1;
        if (iters % 1000 == 0)
            printf("%ld %ld %ld %ld\n", iters, (long)(change * 1e9), (long)(total(a, n) * 1000.0),
                   (long)(a[n / 4][n / 4] * 1e9));
    }
    printf("%ld %ld %ld\n", iters, (long)(change * 1e12), (long)(total(a, n) * 1000.0));
    return 0;
}
