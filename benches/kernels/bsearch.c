// Binary search: lower and upper bounds in a sorted int array with
// duplicates (built from random gaps), answering many random queries;
// also a monotone "first x with f(x) >= target" search for integer roots.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 1234567;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

// First index i with a[i] >= key (n if none).
static int64_t lower_bound(const int64_t *a, int64_t n, int64_t key) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// First index i with a[i] > key (n if none).
static int64_t upper_bound(const int64_t *a, int64_t n, int64_t key) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (a[mid] <= key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// Largest r with r * r * r <= x, by bisection.
static int64_t icbrt(int64_t x) {
    int64_t lo = 0, hi = 2097152;
    while (hi - lo > 1) {
        int64_t mid = (lo + hi) / 2;
        if (mid * mid * mid <= x) lo = mid;
        else hi = mid;
    }
    return lo;
}

int main(void) {
    int64_t n = 1000000;
    int64_t *a = calloc(n, sizeof *a);
    int64_t value = 0;
    for (int64_t i = 0; i < n; i++) {
        // Gaps of 0 make duplicates.
        value += next_random() % 8;
        a[i] = value;
    }
    int64_t top = a[n - 1];

    int64_t queries = 2000000;
    int64_t found = 0, total_count = 0, position_sum = 0;
    for (int64_t q = 0; q < queries; q++) {
        int64_t key = next_random() % (top + 10);
        int64_t lo = lower_bound(a, n, key);
        int64_t hi = upper_bound(a, n, key);
        if (hi > lo) {
            found += 1;
            total_count += hi - lo;
        }
        position_sum += lo;
    }
    printf("%lld %lld %lld %lld\n", (long long)top, (long long)found, (long long)total_count,
           (long long)position_sum);

    int64_t root_sum = 0, exact = 0;
    for (int64_t q = 0; q < 1000000; q++) {
        int64_t hi_part = next_random() * 4096;
        int64_t x = hi_part + next_random() % 4096;
        int64_t r = icbrt(x);
        root_sum += r;
        if (r * r * r == x) exact += 1;
    }
    printf("%lld %lld %lld %lld\n", (long long)root_sum, (long long)exact, (long long)icbrt(1000000000000),
           (long long)icbrt(999999999999));
    return 0;
}
