// Recursion without memoization: Hofstadter's Q sequence, three mutually
// recursive automaton-state counters, and Chebyshev T/U polynomials over floats
// through their mutual recurrence.
#include <stdio.h>
#include <stdint.h>

static int64_t q(int64_t n) {
    if (n <= 2) return 1;
    return q(n - q(n - 1)) + q(n - q(n - 2));
}

// Strings over {a, b, c} of length n with no "aa" and no "bc", by last letter.
static int64_t ends_b(int64_t n);
static int64_t ends_c(int64_t n);

static int64_t ends_a(int64_t n) {
    if (n == 1) return 1;
    return (ends_b(n - 1) + ends_c(n - 1)) % 1000000007;
}

static int64_t ends_b(int64_t n) {
    if (n == 1) return 1;
    return (ends_a(n - 1) + ends_b(n - 1) + ends_c(n - 1)) % 1000000007;
}

static int64_t ends_c(int64_t n) {
    if (n == 1) return 1;
    return (ends_a(n - 1) + ends_c(n - 1)) % 1000000007;
}

// T_n = x T_{n-1} - (1 - x^2) U_{n-2},  U_n = x U_{n-1} + T_n.
static double cheb_u(int64_t n, double x);

static double cheb_t(int64_t n, double x) {
    if (n == 0) return 1.0;
    if (n == 1) return x;
    return x * cheb_t(n - 1, x) - (1.0 - x * x) * cheb_u(n - 2, x);
}

static double cheb_u(int64_t n, double x) {
    if (n < 0) return 0.0;
    if (n == 0) return 1.0;
    return x * cheb_u(n - 1, x) + cheb_t(n, x);
}

int main(void) {
    int64_t qs = 0;
    for (int64_t n = 1; n < 36; n++) qs = (qs * 31 + q(n)) % 1000000007;
    int64_t q36 = q(36);
    printf("q %lld %lld\n", (long long)q36, (long long)qs);

    for (int64_t n = 4; n < 25; n += 3) {
        int64_t a = ends_a(n);
        int64_t b = ends_b(n);
        int64_t c = ends_c(n);
        printf("strings %lld %lld %lld %lld %lld\n", (long long)n, (long long)a, (long long)b,
               (long long)c, (long long)((a + b + c) % 1000000007));
    }

    double total = 0.0;
    for (int64_t k = 0; k < 41; k++) {
        double x = -0.97 + (double)k * 0.047;
        double t = cheb_t(23, x);
        double u = cheb_u(21, x);
        total += t * 0.5 + u * 0.25;
        if (k % 8 == 0)
            printf("cheb %lld %lld %lld\n", (long long)k, (long long)(t * 1000000.0),
                   (long long)(u * 1000000.0));
    }
    printf("cheb total %lld\n", (long long)(total * 1000000.0));
    return 0;
}
