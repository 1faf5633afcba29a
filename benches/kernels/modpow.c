// Deterministic Miller-Rabin (the first twelve prime bases) with modular
// multiplication by double-and-add, so no product ever overflows; counts the
// primes in windows of numbers up to about 10^15.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

static const int64_t bases[12] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};

// a * b mod m for 0 <= a, b < m < 2^62.
static int64_t mulmod(int64_t a, int64_t b, int64_t m) {
    int64_t r = 0;
    while (b > 0) {
        if (b & 1) {
            r += a;
            if (r >= m) r -= m;
        }
        a += a;
        if (a >= m) a -= m;
        b >>= 1;
    }
    return r;
}

static int64_t powmod(int64_t base, int64_t e, int64_t m) {
    int64_t result = 1, b = base % m;
    while (e > 0) {
        if (e & 1) result = mulmod(result, b, m);
        b = mulmod(b, b, m);
        e >>= 1;
    }
    return result;
}

static bool is_prime(int64_t n) {
    if (n < 2) return false;
    for (int i = 0; i < 12; i++)
        if (n % bases[i] == 0) return n == bases[i];
    int64_t d = n - 1, s = 0;
    while ((d & 1) == 0) {
        d >>= 1;
        s += 1;
    }
    for (int i = 0; i < 12; i++) {
        int64_t x = powmod(bases[i], d, n);
        if (x == 1 || x == n - 1) continue;
        bool composite = true;
        for (int64_t r = 1; r < s; r++) {
            x = mulmod(x, x, n);
            if (x == n - 1) {
                composite = false;
                break;
            }
        }
        if (composite) return false;
    }
    return true;
}

int main(void) {
    static const int64_t starts[5] = {1, 1000000007, 1000000000000, 562949953421312,
                                      999999999990000};
    int64_t total = 0, check = 0;
    for (int w = 0; w < 5; w++) {
        int64_t count = 0, last = 0;
        for (int64_t n = starts[w]; n < starts[w] + 30000; n++) {
            if (is_prime(n)) {
                count += 1;
                last = n;
                check = (check * 7 + n % 1000003) % 1000000007;
            }
        }
        printf("%lld %lld %lld\n", (long long)starts[w], (long long)count, (long long)last);
        total += count;
    }
    printf("%lld %lld\n", (long long)total, (long long)check);
    return 0;
}
