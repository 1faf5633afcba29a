// Gaussian elimination with partial pivoting on double**; solves random systems.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

static unsigned long seed = 4242;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}
static double rndf(void) { return (double)rnd() / 2147483648.0 * 2.0 - 1.0; }

static double **random_matrix(long n) {
    double **a = malloc(n * sizeof(double *));
    for (long i = 0; i < n; i++) {
        double *row = malloc(n * sizeof(double));
        for (long j = 0; j < n; j++) row[j] = rndf();
        a[i] = row;
    }
    return a;
}

static double *mat_vec(double **a, double *x, long n) {
    double *y = malloc(n * sizeof(double));
    for (long i = 0; i < n; i++) {
        double s = 0.0;
        for (long j = 0; j < n; j++) s += a[i][j] * x[j];
        y[i] = s;
    }
    return y;
}

static double *solve(double **a, double *b, long n) {
    for (long k = 0; k < n; k++) {
        long p = k;
        double best = fabs(a[k][k]);
        for (long i = k + 1; i < n; i++)
            if (fabs(a[i][k]) > best) { best = fabs(a[i][k]); p = i; }
        if (p != k) {
            double *tr = a[k]; a[k] = a[p]; a[p] = tr;
            double tb = b[k]; b[k] = b[p]; b[p] = tb;
        }
        for (long i = k + 1; i < n; i++) {
            double f = a[i][k] / a[k][k];
            for (long j = k; j < n; j++) a[i][j] -= f * a[k][j];
            b[i] -= f * b[k];
        }
    }
    double *x = calloc(n, sizeof(double));
    long i = n - 1;
    while (i >= 0) {
        double s = b[i];
        for (long j = i + 1; j < n; j++) s -= a[i][j] * x[j];
        x[i] = s / a[i][i];
        i -= 1;
    }
    return x;
}

int main(void) {
    long n = 400, systems = 60;
    double total = 0.0, worst = 0.0;
    for (long sys = 0; sys < systems; sys++) {
        double **a = random_matrix(n);
        double *xt = malloc(n * sizeof(double));
        for (long i = 0; i < n; i++) xt[i] = rndf();
        double *b = mat_vec(a, xt, n);
        double *x = solve(a, b, n);
        double s = 0.0, err = 0.0;
        for (long i = 0; i < n; i++) {
            s += x[i] * (double)(i + 1);
            err = fmax(err, fabs(x[i] - xt[i]));
        }
        total += s;
        worst = fmax(worst, err);
        if (sys % 12 == 0) printf("%ld %ld %ld\n", sys, (long)(s * 1000000.0), (long)(err * 1000000000000000.0));
        for (long i = 0; i < n; i++) free(a[i]);
        free(a); free(xt); free(b); free(x);
    }
    printf("total %ld worst %ld\n", (long)(total * 1000000.0), (long)(worst * 1000000000000000.0));
    return 0;
}
