// Longest increasing subsequence: the O(n log n) patience method (binary
// search over the tails array, with predecessor links to rebuild one LIS)
// on several LCG sequences, and the O(n^2) DP on a smaller one.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 4242;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static int64_t *make_seq(int64_t n, int64_t range) {
    int64_t *a = malloc(n * sizeof *a);
    for (int64_t i = 0; i < n; i++) a[i] = next_random() % range;
    return a;
}

// returns length; writes a checksum of one LIS into *out
static int64_t lis_fast(const int64_t *a, int64_t n, int64_t *out) {
    int64_t *tails = malloc(n * sizeof *tails);
    int64_t *prev = malloc(n * sizeof *prev);
    for (int64_t i = 0; i < n; i++) prev[i] = -1;
    int64_t len = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t x = a[i];
        int64_t lo = 0, hi = len;
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (a[tails[mid]] < x) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0) prev[i] = tails[lo - 1];
        tails[lo] = i;
        if (lo == len) len += 1;
    }
    int64_t check = 0;
    int64_t k = tails[len - 1];
    while (k >= 0) {
        check = (check * 1000003 + a[k]) % 2147483647;
        k = prev[k];
    }
    *out = check;
    free(tails);
    free(prev);
    return len;
}

static int64_t lis_slow(const int64_t *a, int64_t n) {
    int64_t *dp = malloc(n * sizeof *dp);
    int64_t best = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t ai = a[i];
        int64_t d = 1;
        for (int64_t j = 0; j < i; j++)
            if (a[j] < ai && dp[j] + 1 > d) d = dp[j] + 1;
        dp[i] = d;
        if (d > best) best = d;
    }
    free(dp);
    return best;
}

int main(void) {
    int64_t out = 0, total = 0;
    int64_t sizes[] = {1000000, 700000, 500000, 300000};
    int64_t ranges[] = {1000000000, 1000, 100000, 50};
    for (int s = 0; s < 4; s++) {
        int64_t *a = make_seq(sizes[s], ranges[s]);
        int64_t l = lis_fast(a, sizes[s], &out);
        printf("fast %lld %lld %lld %lld\n", (long long)sizes[s], (long long)ranges[s],
               (long long)l, (long long)out);
        total += l;
        free(a);
    }
    int64_t bn = 16000;
    int64_t *b = make_seq(bn, 1000000);
    int64_t l1 = lis_slow(b, bn);
    int64_t l2 = lis_fast(b, bn, &out);
    printf("slow %lld %lld %lld %lld\n", (long long)bn, (long long)l1, (long long)l2,
           (long long)out);
    printf("%lld\n", (long long)(total + l1));
    free(b);
    return 0;
}
