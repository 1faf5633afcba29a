// Tail-recursive helpers in functional style (digit sum, digit reversal, gcd,
// modular power with accumulator, binary search) called from a hot loop.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static int64_t sum_digits(int64_t n, int64_t acc) {
    if (n == 0) return acc;
    return sum_digits(n / 10, acc + n % 10);
}

static int64_t reverse_digits(int64_t n, int64_t acc) {
    if (n == 0) return acc;
    return reverse_digits(n / 10, acc * 10 + n % 10);
}

static int64_t gcd(int64_t a, int64_t b) {
    if (b == 0) return a;
    return gcd(b, a % b);
}

// b^e * acc mod m, for m below 2^31.
static int64_t pow_mod(int64_t b, int64_t e, int64_t m, int64_t acc) {
    if (e == 0) return acc;
    if (e % 2 == 1) return pow_mod(b * b % m, e / 2, m, acc * b % m);
    return pow_mod(b * b % m, e / 2, m, acc);
}

// First index in a[lo..hi) whose value is >= key (a sorted).
static int64_t lower_bound(const int64_t *a, int64_t key, int64_t lo, int64_t hi) {
    if (lo >= hi) return lo;
    int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < key) return lower_bound(a, key, mid + 1, hi);
    return lower_bound(a, key, lo, mid);
}

int main(void) {
    int64_t n = 200000;
    int64_t *table = calloc(n, sizeof *table);
    int64_t x = 77, v = 0;
    for (int64_t i = 0; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648LL;
        v += 1 + x % 9;
        table[i] = v;
    }
    int64_t top = table[n - 1];

    const int64_t MOD = 1000000007;
    int64_t digits = 0, revs = 0, gsum = 0, coprime = 0, psum = 0, found = 0, isum = 0;
    for (int64_t i = 1; i < 1000001; i++) {
        x = (x * 1103515245 + 12345) % 2147483648LL;
        int64_t y = x >> 3;
        digits += sum_digits(y, 0);
        revs = (revs + reverse_digits(y, 0)) % MOD;
        int64_t g = gcd(y, i * 7 + 5);
        gsum += g;
        if (g == 1) coprime += 1;
        psum = (psum + pow_mod(y % MOD, i, MOD, 1)) % MOD;
        int64_t key = y % (top + 10);
        int64_t idx = lower_bound(table, key, 0, n);
        if (idx < n && table[idx] == key) found += 1;
        isum += idx;
    }
    printf("%lld %lld %lld %lld\n", (long long)digits, (long long)revs, (long long)gsum, (long long)coprime);
    printf("%lld %lld %lld\n", (long long)psum, (long long)found, (long long)isum);
    free(table);
    return 0;
}
