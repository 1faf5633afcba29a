// Big-number arithmetic in base-10000 limb arrays (least significant limb
// first): N! by repeated small multiplication, 2^N by repeated doubling,
// and a large Fibonacci number by repeated addition. Prints digit counts,
// digit sums and a few leading limbs.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#define BASE 10000

// num[0..n] *= m (m < BASE * BASE); returns the new length.
static int64_t mul_small(int64_t *num, int64_t n, int64_t m) {
    int64_t carry = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t t = num[i] * m + carry;
        num[i] = t % BASE;
        carry = t / BASE;
    }
    while (carry > 0) {
        num[n] = carry % BASE;
        carry = carry / BASE;
        n += 1;
    }
    return n;
}

// c = a + b, where a has length na and b length nb; returns c's length.
static int64_t add(int64_t *a, int64_t na, int64_t *b, int64_t nb, int64_t *c) {
    int64_t n = na > nb ? na : nb;
    int64_t carry = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t t = carry;
        if (i < na) t += a[i];
        if (i < nb) t += b[i];
        if (t >= BASE) {
            c[i] = t - BASE;
            carry = 1;
        } else {
            c[i] = t;
            carry = 0;
        }
    }
    if (carry > 0) {
        c[n] = carry;
        n += 1;
    }
    return n;
}

static int64_t decimal_digits(int64_t *num, int64_t n) {
    int64_t top = num[n - 1];
    int64_t d = 0;
    while (top > 0) {
        d += 1;
        top /= 10;
    }
    return d + 4 * (n - 1);
}

static int64_t digit_sum(int64_t *num, int64_t n) {
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t x = num[i];
        while (x > 0) {
            s += x % 10;
            x /= 10;
        }
    }
    return s;
}

static void report(int64_t name, int64_t *num, int64_t n) {
    printf("%lld %lld %lld %lld %lld %lld\n", (long long)name, (long long)decimal_digits(num, n),
           (long long)digit_sum(num, n), (long long)num[n - 1], (long long)num[n - 2], (long long)num[0]);
}

int main(void) {
    // Factorial.
    int64_t *fact = calloc(20000, sizeof *fact);
    fact[0] = 1;
    int64_t nf = 1;
    for (int64_t k = 2; k < 12001; k++) nf = mul_small(fact, nf, k);
    report(12000, fact, nf);

    // Powers of two, by doubling.
    int64_t *pow = calloc(20000, sizeof *pow);
    pow[0] = 1;
    int64_t np = 1;
    for (int64_t k = 0; k < 40000; k++) np = mul_small(pow, np, 2);
    report(40000, pow, np);

    // Fibonacci, rotating three buffers.
    int64_t *f0 = calloc(20000, sizeof *f0);
    int64_t *f1 = calloc(20000, sizeof *f1);
    int64_t *f2 = calloc(20000, sizeof *f2);
    int64_t n0 = 1, n1 = 1;
    f1[0] = 1;
    for (int64_t k = 2; k < 60001; k++) {
        int64_t n2 = add(f0, n0, f1, n1, f2);
        int64_t *t = f0;
        f0 = f1;
        n0 = n1;
        f1 = f2;
        n1 = n2;
        f2 = t;
    }
    report(60000, f1, n1);
    return 0;
}
