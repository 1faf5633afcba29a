// 2-D heat equation, explicit time stepping over two swapped grids.
#include <stdio.h>
#include <stdlib.h>

static unsigned long seed = 777;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

static double **grid(long n) {
    double **g = malloc(n * sizeof(double *));
    for (long i = 0; i < n; i++) g[i] = calloc(n, sizeof(double));
    return g;
}

static double total(double **g, long n) {
    double s = 0.0;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) s += g[i][j];
    return s;
}

int main(void) {
    long n = 512;
    double **u = grid(n), **v = grid(n);
    for (long i = 0; i < n; i++) { u[i][0] = 100.0; v[i][0] = 100.0; }
    for (long s = 0; s < 60; s++) {
        long ci = 1 + rnd() % (n - 12);
        long cj = 1 + rnd() % (n - 12);
        double t = (double)(rnd() % 1000) / 10.0;
        for (long i = ci; i < ci + 10; i++)
            for (long j = cj; j < cj + 10; j++) u[i][j] = t;
    }
    double r = 0.2;
    long steps = 2000;
    for (long step = 0; step < steps; step++) {
        for (long i = 1; i < n - 1; i++)
            for (long j = 1; j < n - 1; j++)
                v[i][j] = u[i][j] + r * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4.0 * u[i][j]);
        double **t = u; u = v; v = t;
        if ((step + 1) % 400 == 0)
            printf("%ld %ld %ld %ld\n", step + 1, (long)(total(u, n) * 1000.0), (long)(u[n / 2][n / 2] * 1000000.0), (long)(u[n / 3][10] * 1000000.0));
    }
    return 0;
}
