// Integer matrix exponentiation modulo a prime by repeated squaring on
// 64x64 matrices; prints the trace and a checksum of each power.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#define P 1000000007LL

static int64_t **zero_matrix(int64_t n) {
    int64_t **m = malloc(n * sizeof *m);
    for (int64_t i = 0; i < n; i++) m[i] = calloc(n, sizeof **m);
    return m;
}

static void free_matrix(int64_t **m, int64_t n) {
    for (int64_t i = 0; i < n; i++) free(m[i]);
    free(m);
}

static int64_t **identity(int64_t n) {
    int64_t **m = zero_matrix(n);
    for (int64_t i = 0; i < n; i++) m[i][i] = 1;
    return m;
}

static int64_t **mat_mul(int64_t **a, int64_t **b, int64_t n) {
    int64_t **c = zero_matrix(n);
    for (int64_t i = 0; i < n; i++) {
        int64_t *ai = a[i];
        int64_t *ci = c[i];
        for (int64_t k = 0; k < n; k++) {
            int64_t x = ai[k];
            if (x == 0) continue;
            int64_t *bk = b[k];
            for (int64_t j = 0; j < n; j++) ci[j] = (ci[j] + x * bk[j]) % P;
        }
    }
    return c;
}

static int64_t **mat_pow(int64_t **m, int64_t n, int64_t e) {
    int64_t **result = identity(n);
    int64_t **base = m;
    while (e > 0) {
        if (e % 2 == 1) {
            int64_t **r = mat_mul(result, base, n);
            free_matrix(result, n);
            result = r;
        }
        int64_t **b = mat_mul(base, base, n);
        if (base != m) free_matrix(base, n);
        base = b;
        e = e / 2;
    }
    if (base != m) free_matrix(base, n);
    return result;
}

static int64_t trace(int64_t **m, int64_t n) {
    int64_t t = 0;
    for (int64_t i = 0; i < n; i++) t = (t + m[i][i]) % P;
    return t;
}

static int64_t checksum(int64_t **m, int64_t n) {
    int64_t h = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) h = (h * 31 + m[i][j]) % P;
    return h;
}

int main(void) {
    int64_t n = 64;
    int64_t seed = 99991;
    int64_t **m = zero_matrix(n);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            seed = (seed * 48271) % 2147483647;
            m[i][j] = seed % 1000;
        }

    int64_t exponents[8] = {1, 2, 10, 1000000006, 123456789123, 999999999999999, 4611686018427387903LL, 7};
    for (int k = 0; k < 8; k++) {
        int64_t **r = mat_pow(m, n, exponents[k]);
        printf("%lld %lld %lld\n", (long long)exponents[k], (long long)trace(r, n), (long long)checksum(r, n));
        free_matrix(r, n);
    }
    // A batch of random 62-bit exponents, folded into one checksum.
    int64_t batch = 0;
    for (int k = 0; k < 12; k++) {
        seed = (seed * 48271) % 2147483647;
        int64_t hi = seed;
        seed = (seed * 48271) % 2147483647;
        int64_t e = (hi << 31) | seed;
        int64_t **r = mat_pow(m, n, e);
        batch = (batch * 1000 + trace(r, n) + checksum(r, n)) % P;
        free_matrix(r, n);
    }
    printf("%lld\n", (long long)batch);
    // Fermat-style check: M^(P-1) * M equals M^P.
    int64_t **pm = mat_pow(m, n, P - 1);
    int64_t **a = mat_mul(pm, m, n);
    int64_t **b = mat_pow(m, n, P);
    int same = 1;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            if (a[i][j] != b[i][j]) same = 0;
    printf("%s %lld %lld\n", same ? "true" : "false", (long long)trace(a, n), (long long)checksum(b, n));
    return 0;
}
