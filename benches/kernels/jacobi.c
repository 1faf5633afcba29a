// Jacobi relaxation of the 2-D Laplace equation on [[float]] grids: a
// five-point stencil, two grids swapped each sweep, the largest change of a
// sweep kept as a running maximum.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>

static double **grid(int64_t n) {
    double **g = malloc(n * sizeof *g);
    for (int64_t i = 0; i < n; i++) g[i] = calloc(n, sizeof **g);
    // Hot top edge, a warm left edge, cold elsewhere.
    for (int64_t j = 0; j < n; j++) g[0][j] = 100.0;
    for (int64_t i = 1; i < n; i++) g[i][0] = 50.0 * (double)(n - i) / (double)n;
    return g;
}

static double sweep(double **u, double **v, int64_t n) {
    double largest = 0.0;
    for (int64_t i = 1; i < n - 1; i++) {
        for (int64_t j = 1; j < n - 1; j++) {
            double next = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
            double change = fabs(next - u[i][j]);
            if (change > largest) largest = change;
            v[i][j] = next;
        }
    }
    return largest;
}

int main(void) {
    int64_t n = 500;
    double **u = grid(n);
    double **v = grid(n);
    int64_t sweeps = 0;
    double change = 1.0;
    while (sweeps < 1500 && change > 1e-9) {
        change = sweep(u, v, n);
        double **t = u;
        u = v;
        v = t;
        sweeps += 1;
        if (sweeps % 250 == 0) printf("%lld %lld\n", (long long)sweeps, (long long)(change * 1e12));
    }
    double total = 0.0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) total += u[i][j];
    printf("%lld %lld %lld\n", (long long)(total * 1e6), (long long)(u[n / 8][n / 2] * 1e12),
           (long long)(u[n / 4][n / 8] * 1e12));
    return 0;
}
