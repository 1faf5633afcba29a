// Polynomial arithmetic modulo the prime 998244353: a full schoolbook
// product of two random polynomials, then f^e mod x^m by repeated squaring
// with truncated products. Prints checksums.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static const int64_t P = 998244353;
static uint64_t seed = 555;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static int64_t *random_poly(int64_t n) {
    int64_t *a = malloc(n * sizeof *a);
    for (int64_t i = 0; i < n; i++) a[i] = next_random() % P;
    return a;
}

static int64_t *mul_full(const int64_t *a, int64_t na, const int64_t *b, int64_t nb) {
    int64_t *c = calloc(na + nb - 1, sizeof *c);
    for (int64_t i = 0; i < na; i++) {
        int64_t ai = a[i];
        for (int64_t j = 0; j < nb; j++) c[i + j] = (c[i + j] + ai * b[j]) % P;
    }
    return c;
}

// a * b mod x^m (both of length m)
static int64_t *mul_trunc(const int64_t *a, const int64_t *b, int64_t m) {
    int64_t *c = calloc(m, sizeof *c);
    for (int64_t i = 0; i < m; i++) {
        int64_t ai = a[i];
        if (ai == 0) continue;
        for (int64_t j = 0; j < m - i; j++) c[i + j] = (c[i + j] + ai * b[j]) % P;
    }
    return c;
}

static int64_t checksum(const int64_t *a, int64_t n) {
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s = (s + a[i] * ((i % 1000) + 1)) % P;
    return s;
}

static int64_t eval(const int64_t *p, int64_t n, int64_t x) {
    int64_t r = 0;
    for (int64_t i = n - 1; i >= 0; i--) r = (r * x + p[i]) % P;
    return r;
}

int main(void) {
    int64_t na = 8000, nb = 7000, nc = na + nb - 1;
    int64_t *a = random_poly(na);
    int64_t *b = random_poly(nb);
    int64_t *c = mul_full(a, na, b, nb);
    printf("%lld %lld %lld %lld %lld\n", (long long)nc, (long long)c[0], (long long)c[1000],
           (long long)c[nc - 1], (long long)checksum(c, nc));
    int64_t x0 = 123456789;
    int64_t ea = eval(a, na, x0);
    int64_t eb = eval(b, nb, x0);
    printf("%lld %lld\n", (long long)eval(c, nc, x0), (long long)(ea * eb % P));

    int64_t m = 5000;
    int64_t *f = calloc(m, sizeof *f);
    f[0] = 1;
    for (int64_t i = 1; i < 40; i++) f[i] = next_random() % P;
    int64_t e = 1000003;
    int64_t *result = calloc(m, sizeof *result);
    result[0] = 1;
    int64_t *base = f;
    int64_t steps = 0;
    while (e > 0) {
        if (e % 2 == 1) {
            int64_t *r = mul_trunc(result, base, m);
            free(result);
            result = r;
            steps += 1;
        }
        e = e / 2;
        if (e > 0) {
            int64_t *nbase = mul_trunc(base, base, m);
            free(base);
            base = nbase;
            steps += 1;
        }
    }
    printf("%lld %lld %lld %lld %lld\n", (long long)steps, (long long)result[1],
           (long long)result[2], (long long)result[m - 1], (long long)checksum(result, m));
    free(a); free(b); free(c); free(result); free(base);
    return 0;
}
