// Integer math: Miller–Rabin primality (bases 2, 3, 5, 7: exact below
// 3 215 031 751) over a window of large odd numbers, Euler's totient by
// trial-division factoring, and a gcd sum.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

static int64_t mulmod(int64_t a, int64_t b, int64_t m) { return a * b % m; }

static int64_t powmod(int64_t base, int64_t e, int64_t m) {
    int64_t result = 1;
    int64_t b = base % m;
    while (e > 0) {
        if ((e & 1) == 1) result = mulmod(result, b, m);
        b = mulmod(b, b, m);
        e = e >> 1;
    }
    return result;
}

static bool witness(int64_t a, int64_t n, int64_t d, int64_t s) {
    int64_t x = powmod(a, d, n);
    if (x == 1 || x == n - 1) return false;
    for (int64_t r = 1; r < s; r++) {
        x = mulmod(x, x, n);
        if (x == n - 1) return false;
    }
    return true;
}

static bool is_prime(int64_t n) {
    if (n < 2) return false;
    static const int64_t small[4] = {2, 3, 5, 7};
    for (int64_t i = 0; i < 4; i++)
        if (n % small[i] == 0) return n == small[i];
    int64_t d = n - 1, s = 0;
    while (d % 2 == 0) {
        d /= 2;
        s += 1;
    }
    for (int64_t i = 0; i < 4; i++)
        if (witness(small[i], n, d, s)) return false;
    return true;
}

static int64_t totient(int64_t n) {
    int64_t result = n;
    for (int64_t p = 2; p * p <= n; p++) {
        if (n % p == 0) {
            while (n % p == 0) n /= p;
            result -= result / p;
        }
    }
    if (n > 1) result -= result / n;
    return result;
}

static int64_t gcd(int64_t a, int64_t b) {
    while (b != 0) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int main(void) {
    int64_t start = 2000000001, count = 0, largest = 0;
    for (int64_t k = 0; k < 400000; k++) {
        int64_t n = start + 2 * k;
        if (is_prime(n)) {
            count += 1;
            largest = n;
        }
    }
    printf("%lld %lld\n", (long long)count, (long long)largest);
    int64_t phi_sum = 0;
    for (int64_t n = 1; n < 150001; n++) phi_sum += totient(n);
    printf("%lld\n", (long long)phi_sum);
    int64_t gcd_sum = 0;
    for (int64_t a = 1; a < 2501; a++)
        for (int64_t b = 1; b < 2501; b++) gcd_sum += gcd(a * 7919 % 100003, b);
    printf("%lld\n", (long long)gcd_sum);
    return 0;
}
