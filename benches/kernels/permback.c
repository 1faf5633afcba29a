// Permutations by backtracking with a [bool] used-array: counts permutations of
// 0..n-1 with no two neighbours differing by 1, and derangements, with checksums.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static int64_t weight = 0;

// Extends perm[0..pos) in every way that keeps adjacent values at least 2 apart.
static int64_t no_adjacent(int64_t *perm, bool *used, int64_t pos, int64_t n) {
    if (pos == n) {
        weight = (weight + perm[0] * 7 + perm[n - 1]) % 1000000007;
        return 1;
    }
    int64_t count = 0;
    for (int64_t v = 0; v < n; v++) {
        if (used[v]) continue;
        if (pos > 0 && llabs(perm[pos - 1] - v) == 1) continue;
        used[v] = true;
        perm[pos] = v;
        count += no_adjacent(perm, used, pos + 1, n);
        used[v] = false;
    }
    return count;
}

// Permutations with no fixed point; also sums the position of the value 0.
static int64_t derange(int64_t *perm, bool *used, int64_t pos, int64_t n) {
    if (pos == n) {
        int64_t p = 0;
        while (perm[p] != 0) p += 1;
        weight = (weight * 3 + p) % 1000000007;
        return 1;
    }
    int64_t count = 0;
    for (int64_t v = 0; v < n; v++) {
        if (!used[v] && v != pos) {
            used[v] = true;
            perm[pos] = v;
            count += derange(perm, used, pos + 1, n);
            used[v] = false;
        }
    }
    return count;
}

int main(void) {
    for (int64_t n = 4; n < 12; n++) {
        int64_t *perm = calloc(n, sizeof *perm);
        bool *used = calloc(n, sizeof *used);
        weight = 0;
        int64_t a = no_adjacent(perm, used, 0, n);
        int64_t wa = weight;
        weight = 0;
        int64_t d = 0;
        if (n <= 11) d = derange(perm, used, 0, n);
        printf("%lld %lld %lld %lld %lld\n", (long long)n, (long long)a, (long long)wa, (long long)d,
               (long long)weight);
        free(perm);
        free(used);
    }
    return 0;
}
