// Benchmarks Game fannkuch-redux: permutations, array reversal.
#include <stdio.h>
#include <stdint.h>

static void fannkuch(int64_t n, int64_t *checksum_out, int64_t *max_out) {
    int64_t perm[32], perm1[32], count[32];
    for (int64_t i = 0; i < n; i++) perm1[i] = i;
    int64_t max_flips = 0, checksum = 0, permutation = 0, r = n;
    for (;;) {
        while (r != 1) { count[r - 1] = r; r -= 1; }
        for (int64_t i = 0; i < n; i++) perm[i] = perm1[i];
        int64_t flips = 0, k = perm[0];
        while (k != 0) {
            int64_t lo = 0, hi = k;
            while (lo < hi) {
                int64_t t = perm[lo];
                perm[lo] = perm[hi];
                perm[hi] = t;
                lo += 1;
                hi -= 1;
            }
            flips += 1;
            k = perm[0];
        }
        if (flips > max_flips) max_flips = flips;
        if (permutation % 2 == 0) checksum += flips; else checksum -= flips;
        for (;;) {
            if (r == n) { *checksum_out = checksum; *max_out = max_flips; return; }
            int64_t first = perm1[0];
            for (int64_t i = 0; i < r; i++) perm1[i] = perm1[i + 1];
            perm1[r] = first;
            count[r] -= 1;
            if (count[r] > 0) break;
            r += 1;
        }
        permutation += 1;
    }
}

int main(void) {
    int64_t checksum, max_flips;
    fannkuch(10, &checksum, &max_flips);
    printf("%lld %lld\n", (long long)checksum, (long long)max_flips);
    return 0;
}
