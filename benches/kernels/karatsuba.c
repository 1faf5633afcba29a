// Karatsuba polynomial multiplication modulo 998244353, recursing on array
// halves with freshly allocated temporaries; checked against schoolbook.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static const int64_t P = 998244353;
static int64_t seed = 99991;
static int64_t next_random(void) {
    seed = (seed * 1103515245 + 12345) % 2147483648LL;
    return seed;
}

static int64_t *random_poly(int64_t n) {
    int64_t *a = malloc(n * sizeof *a);
    for (int64_t i = 0; i < n; i++) a[i] = next_random() % P;
    return a;
}

// Product of two length-n polynomials, as an array of length 2n.
static int64_t *schoolbook(const int64_t *a, const int64_t *b, int64_t n) {
    int64_t *c = calloc(2 * n, sizeof *c);
    for (int64_t i = 0; i < n; i++) {
        int64_t ai = a[i];
        for (int64_t j = 0; j < n; j++) c[i + j] = (c[i + j] + ai * b[j]) % P;
    }
    return c;
}

// n a power of two; returns an array of length 2n.
static int64_t *karatsuba(const int64_t *a, const int64_t *b, int64_t n) {
    if (n <= 32) return schoolbook(a, b, n);
    int64_t h = n / 2;
    int64_t *a0 = malloc(h * sizeof *a0), *a1 = malloc(h * sizeof *a1);
    int64_t *b0 = malloc(h * sizeof *b0), *b1 = malloc(h * sizeof *b1);
    int64_t *as = malloc(h * sizeof *as), *bs = malloc(h * sizeof *bs);
    for (int64_t i = 0; i < h; i++) {
        a0[i] = a[i];
        a1[i] = a[i + h];
        b0[i] = b[i];
        b1[i] = b[i + h];
        as[i] = (a0[i] + a1[i]) % P;
        bs[i] = (b0[i] + b1[i]) % P;
    }
    int64_t *z0 = karatsuba(a0, b0, h);
    int64_t *z2 = karatsuba(a1, b1, h);
    int64_t *z1 = karatsuba(as, bs, h);
    int64_t *c = calloc(2 * n, sizeof *c);
    for (int64_t i = 0; i < n; i++) {
        int64_t mid = (z1[i] - z0[i] - z2[i] + 2 * P) % P;
        c[i] = (c[i] + z0[i]) % P;
        c[i + h] = (c[i + h] + mid) % P;
        c[i + n] = (c[i + n] + z2[i]) % P;
    }
    free(a0); free(a1); free(b0); free(b1); free(as); free(bs);
    free(z0); free(z1); free(z2);
    return c;
}

static int64_t checksum(const int64_t *c, int64_t n) {
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s = (s * 31 + c[i]) % P;
    return s;
}

int main(void) {
    int64_t *a = random_poly(1024);
    int64_t *b = random_poly(1024);
    int64_t *k = karatsuba(a, b, 1024);
    int64_t *s = schoolbook(a, b, 1024);
    int64_t diffs = 0;
    for (int64_t i = 0; i < 2048; i++)
        if (k[i] != s[i]) diffs += 1;
    printf("check %d %lld %lld %lld\n", 2048, (long long)diffs, (long long)checksum(k, 2048),
           (long long)checksum(s, 2048));
    free(a); free(b); free(k); free(s);

    int64_t total = 0;
    for (int64_t round = 0; round < 35; round++) {
        int64_t n = 1024LL << (round % 5);
        int64_t *x = random_poly(n);
        int64_t *y = random_poly(n);
        int64_t *z = karatsuba(x, y, n);
        int64_t cs = checksum(z, 2 * n);
        printf("%lld %lld %lld %lld %lld\n", (long long)n, (long long)z[0], (long long)z[n - 1],
               (long long)z[2 * n - 2], (long long)cs);
        total = (total * 7 + cs) % P;
        free(x); free(y); free(z);
    }
    printf("%lld\n", (long long)total);
    return 0;
}
