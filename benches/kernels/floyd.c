// Floyd–Warshall all-pairs shortest paths on a random sparse digraph, [[int]].
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 777;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static const int64_t INF = (int64_t)1 << 40;

static int64_t **random_graph(int64_t n, int64_t degree) {
    int64_t **d = malloc(n * sizeof *d);
    for (int64_t i = 0; i < n; i++) {
        int64_t *row = malloc(n * sizeof *row);
        for (int64_t j = 0; j < n; j++) row[j] = INF;
        row[i] = 0;
        d[i] = row;
    }
    for (int64_t i = 0; i < n; i++) {
        for (int64_t e = 0; e < degree; e++) {
            int64_t j = next_random() % n;
            int64_t w = 1 + next_random() % 1000;
            if (w < d[i][j]) d[i][j] = w;
        }
    }
    return d;
}

static void floyd_warshall(int64_t **d, int64_t n) {
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++)
                if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
}

int main(void) {
    int64_t n = 720;
    int64_t **d = random_graph(n, 3);
    floyd_warshall(d, n);
    int64_t sum = 0, unreachable = 0, longest = 0;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) {
            if (d[i][j] >= INF) {
                unreachable += 1;
            } else {
                sum += d[i][j];
                if (d[i][j] > longest) longest = d[i][j];
            }
        }
    }
    printf("%lld %lld %lld\n", (long long)sum, (long long)unreachable, (long long)longest);
    printf("%lld %lld %lld\n", (long long)d[0][n - 1], (long long)d[n - 1][0],
           (long long)d[n / 2][n / 3]);
    return 0;
}
