// Plain tree recursion without memoization: p(n, k), the number of partitions
// of n into parts of size at most k, and binomials by Pascal's rule.
#include <stdio.h>
#include <stdint.h>

static int64_t parts(int64_t n, int64_t k) {
    if (n == 0) return 1;
    if (n < 0 || k == 0) return 0;
    return parts(n, k - 1) + parts(n - k, k);
}

static int64_t binom(int64_t n, int64_t k) {
    if (k == 0 || k == n) return 1;
    return binom(n - 1, k - 1) + binom(n - 1, k);
}

// Partitions of n into distinct parts, each at most k.
static int64_t distinct(int64_t n, int64_t k) {
    if (n == 0) return 1;
    if (k == 0 || n > k * (k + 1) / 2) return 0;
    if (k > n) return distinct(n, n);
    return distinct(n, k - 1) + distinct(n - k, k - 1);
}

int main(void) {
    int64_t total = 0;
    for (int64_t n = 10; n < 71; n++) {
        int64_t p = parts(n, n);
        total += p;
        if (n % 5 == 0) {
            int64_t q = parts(n, n / 3);
            printf("p %lld %lld %lld\n", (long long)n, (long long)p, (long long)q);
        }
    }
    printf("sum p %lld\n", (long long)total);

    int64_t bsum = 0;
    for (int64_t n = 18; n < 29; n++) {
        int64_t b = binom(n, n / 2);
        bsum += b;
        int64_t b3 = binom(n, 3);
        printf("C %lld %lld %lld %lld\n", (long long)n, (long long)(n / 2), (long long)b, (long long)b3);
    }
    printf("sum C %lld\n", (long long)bsum);

    int64_t dsum = 0;
    for (int64_t n = 90; n < 121; n++) dsum += distinct(n, n);
    int64_t d120 = distinct(120, 120);
    printf("distinct %lld %lld\n", (long long)d120, (long long)dsum);
    return 0;
}
