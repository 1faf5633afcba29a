// LU decomposition with partial pivoting on a dense [[float]] matrix
// (Doolittle, in place, with a row permutation), then forward and back
// substitution; checks the solution of A x = A * ones and the
// reconstruction of a few entries of P A = L U. Repeated on new matrices.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>

static uint64_t seed = 4711;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

// Uniform in [-1, 1).
static double random_float(void) {
    return (double)next_random() / 1073741824.0 - 1.0;
}

static double **random_matrix(int64_t n) {
    double **a = malloc(n * sizeof *a);
    for (int64_t i = 0; i < n; i++) {
        double *row = malloc(n * sizeof *row);
        for (int64_t j = 0; j < n; j++) row[j] = random_float();
        a[i] = row;
    }
    return a;
}

static double **copy_matrix(double **a, int64_t n) {
    double **b = malloc(n * sizeof *b);
    for (int64_t i = 0; i < n; i++) {
        double *row = malloc(n * sizeof *row);
        for (int64_t j = 0; j < n; j++) row[j] = a[i][j];
        b[i] = row;
    }
    return b;
}

static void free_matrix(double **a, int64_t n) {
    for (int64_t i = 0; i < n; i++) free(a[i]);
    free(a);
}

// Factors a in place; perm[i] is the original row now at row i.
// Returns the number of row swaps.
static int64_t lu_decompose(double **a, int64_t n, int64_t *perm) {
    for (int64_t i = 0; i < n; i++) perm[i] = i;
    int64_t swaps = 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t p = k;
        double best = fabs(a[k][k]);
        for (int64_t i = k + 1; i < n; i++) {
            if (fabs(a[i][k]) > best) {
                best = fabs(a[i][k]);
                p = i;
            }
        }
        if (p != k) {
            double *t = a[p];
            a[p] = a[k];
            a[k] = t;
            int64_t tp = perm[p];
            perm[p] = perm[k];
            perm[k] = tp;
            swaps += 1;
        }
        double *pivot_row = a[k];
        double pivot = pivot_row[k];
        for (int64_t i = k + 1; i < n; i++) {
            double *row = a[i];
            double factor = row[k] / pivot;
            row[k] = factor;
            for (int64_t j = k + 1; j < n; j++) row[j] -= factor * pivot_row[j];
        }
    }
    return swaps;
}

static double *lu_solve(double **lu, int64_t n, const int64_t *perm, const double *b) {
    double *y = calloc(n, sizeof *y);
    for (int64_t i = 0; i < n; i++) {
        double s = b[perm[i]];
        double *row = lu[i];
        for (int64_t j = 0; j < i; j++) s -= row[j] * y[j];
        y[i] = s;
    }
    double *x = calloc(n, sizeof *x);
    for (int64_t i = n - 1; i >= 0; i--) {
        double s = y[i];
        double *row = lu[i];
        for (int64_t j = i + 1; j < n; j++) s -= row[j] * x[j];
        x[i] = s / row[i];
    }
    free(y);
    return x;
}

int main(void) {
    int64_t n = 450;
    int64_t total_swaps = 0;
    double worst = 0.0;
    for (int64_t rep = 0; rep < 12; rep++) {
        double **a = random_matrix(n);
        double *b = calloc(n, sizeof *b);
        for (int64_t i = 0; i < n; i++) {
            double s = 0.0;
            for (int64_t j = 0; j < n; j++) s += a[i][j];
            b[i] = s;
        }
        double **lu = copy_matrix(a, n);
        int64_t *perm = calloc(n, sizeof *perm);
        int64_t swaps = lu_decompose(lu, n, perm);
        total_swaps += swaps;
        double *x = lu_solve(lu, n, perm, b);
        double err = 0.0, sum = 0.0;
        for (int64_t i = 0; i < n; i++) {
            err = fmax(err, fabs(x[i] - 1.0));
            sum += x[i];
        }
        worst = fmax(worst, err);
        // (L U)[i][j] against (P A)[i][j] for a few entries.
        double recon = 0.0;
        for (int64_t t = 0; t < 50; t++) {
            int64_t i = (t * 37) % n;
            int64_t j = (t * 91) % n;
            double s = 0.0;
            int64_t kmax = (i < j ? i : j) + 1;
            for (int64_t k = 0; k < kmax; k++) {
                double l = 1.0;
                if (k < i) l = lu[i][k];
                s += l * lu[k][j];
            }
            recon = fmax(recon, fabs(s - a[perm[i]][j]));
        }
        printf("%lld %lld %lld %s %s %lld\n", (long long)rep, (long long)swaps, (long long)(sum * 1000000.0),
               err < 0.000001 ? "true" : "false", recon < 0.000000001 ? "true" : "false",
               (long long)(lu[n - 1][n - 1] * 1000000.0));
        free_matrix(a, n);
        free_matrix(lu, n);
        free(b);
        free(x);
        free(perm);
    }
    printf("%lld %s\n", (long long)total_swaps, worst < 0.000001 ? "true" : "false");
    return 0;
}
