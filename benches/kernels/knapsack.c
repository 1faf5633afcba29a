// 0/1 knapsack by dynamic programming over a full [[int]] table
// (items x capacity), then walking the table back to recover the chosen
// items. Several random instances.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t seed = 2718;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

// best[i][c] = best value using the first i items within capacity c.
static int64_t **solve(int64_t *weight, int64_t *value, int64_t n, int64_t cap) {
    int64_t **best = malloc((n + 1) * sizeof *best);
    for (int64_t i = 0; i < n + 1; i++) best[i] = calloc(cap + 1, sizeof **best);
    for (int64_t i = 1; i < n + 1; i++) {
        int64_t w = weight[i - 1];
        int64_t v = value[i - 1];
        int64_t *prev = best[i - 1];
        int64_t *row = best[i];
        for (int64_t c = 0; c < cap + 1; c++) {
            int64_t skip = prev[c];
            if (c >= w && prev[c - w] + v > skip) row[c] = prev[c - w] + v;
            else row[c] = skip;
        }
    }
    return best;
}

int main(void) {
    uint64_t check = 0;
    for (int64_t round = 0; round < 12; round++) {
        int64_t n = 300 + 30 * round;
        int64_t cap = 6000 + 600 * round;
        int64_t *weight = calloc(n, sizeof *weight);
        int64_t *value = calloc(n, sizeof *value);
        for (int64_t i = 0; i < n; i++) {
            weight[i] = 1 + next_random() % 200;
            value[i] = 1 + next_random() % 1000;
        }
        int64_t **best = solve(weight, value, n, cap);
        // Walk back to find which items were taken.
        int64_t c = cap, taken = 0, total_weight = 0, total_value = 0;
        uint64_t mask = 0;
        int64_t i = n;
        while (i > 0) {
            if (best[i][c] != best[i - 1][c]) {
                taken += 1;
                total_weight += weight[i - 1];
                total_value += value[i - 1];
                mask = mask * 31 + (uint64_t)i;
                c -= weight[i - 1];
            }
            i -= 1;
        }
        printf("%lld %lld %lld %lld %lld %s %lld\n", (long long)n, (long long)cap,
               (long long)best[n][cap], (long long)taken, (long long)total_weight,
               total_value == best[n][cap] ? "true" : "false", (long long)(int64_t)mask);
        check = check * 7 + (uint64_t)best[n][cap];
        for (int64_t k = 0; k < n + 1; k++) free(best[k]);
        free(best);
        free(weight);
        free(value);
    }
    printf("%lld\n", (long long)(int64_t)check);
    return 0;
}
