// Travelling salesman by Held–Karp dynamic programming over subsets:
// dp[mask * n + i] = shortest path from city 0 visiting exactly `mask`,
// ending at city i. Distances are random (asymmetric) from an LCG.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 2024;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

#define INF ((int64_t)1 << 60)

static int64_t solve(int64_t n) {
    int64_t *dist = calloc(n * n, sizeof *dist);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            if (i != j) dist[i * n + j] = 1 + next_random() % 1000;
    int64_t full = (int64_t)1 << n;
    int64_t *dp = malloc(full * n * sizeof *dp);
    for (int64_t i = 0; i < full * n; i++) dp[i] = INF;
    dp[1 * n + 0] = 0;
    for (int64_t mask = 1; mask < full; mask++) {
        if ((mask & 1) == 0) continue;
        for (int64_t last = 0; last < n; last++) {
            int64_t cur = dp[mask * n + last];
            if (cur == INF) continue;
            for (int64_t nxt = 0; nxt < n; nxt++) {
                int64_t bit = (int64_t)1 << nxt;
                if ((mask & bit) != 0) continue;
                int64_t cand = cur + dist[last * n + nxt];
                int64_t idx = (mask | bit) * n + nxt;
                if (cand < dp[idx]) dp[idx] = cand;
            }
        }
    }
    int64_t best = INF, all = full - 1;
    for (int64_t last = 1; last < n; last++) {
        int64_t total = dp[all * n + last] + dist[last * n + 0];
        if (total < best) best = total;
    }
    // checksum over a slice of the table
    int64_t check = 0;
    for (int64_t mask = 0; mask < full; mask++) {
        int64_t v = dp[mask * n + (mask % n)];
        if (v != INF) check = (check * 31 + v) % 1000000007;
    }
    printf("%lld %lld %lld\n", (long long)n, (long long)best, (long long)check);
    free(dist);
    free(dp);
    return best;
}

int main(void) {
    int64_t sum = 0;
    sum += solve(12);
    sum += solve(15);
    for (int64_t k = 0; k < 8; k++) sum += solve(17);
    printf("%lld\n", (long long)sum);
    return 0;
}
