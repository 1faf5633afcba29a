#include <stdio.h>
#include <stdlib.h>

static unsigned long seed = 777;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

static long lmin(long a, long b) { return a < b ? a : b; }
static long lmax(long a, long b) { return a > b ? a : b; }

static long **make_matrix(long n) {
    long **m = malloc(n * sizeof(long *));
    for (long i = 0; i < n; i++) m[i] = calloc(n, sizeof(long));
    return m;
}

static long solve(long *dims, long nd, long **cost, long **split) {
    long n = nd - 1;
    for (long length = 2; length < n + 1; length++) {
        for (long i = 0; i < n - length + 1; i++) {
            long j = i + length - 1;
            long best = -1;
            long bestk = i;
            for (long k = i; k < j; k++) {
                long c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1];
                if (best < 0 || c < best) {
                    best = c;
                    bestk = k;
                }
            }
            cost[i][j] = best;
            split[i][j] = bestk;
        }
    }
    return cost[0][n - 1];
}

static unsigned long order_hash = 0;
static long depth(long **split, long i, long j) {
    if (i == j) {
        order_hash = order_hash * 31 + (unsigned long)i;
        return 0;
    }
    long k = split[i][j];
    long a = depth(split, i, k);
    long b = depth(split, k + 1, j);
    order_hash = order_hash * 37 + (unsigned long)k;
    return 1 + lmax(a, b);
}

int main(void) {
    long N = 1400;
    long *dims = calloc(N + 1, sizeof(long));
    for (long i = 0; i < N + 1; i++) dims[i] = 5 + rnd() % 96;
    long **cost = make_matrix(N);
    long **split = make_matrix(N);
    long best = solve(dims, N + 1, cost, split);
    long d = depth(split, 0, N - 1);
    long diag = 0;
    for (long i = 0; i < N - 1; i++) {
        diag += cost[i][i + 1] % 1000 + split[i][lmin(i + 50, N - 1)];
    }
    printf("best %ld depth %ld\n", best, d);
    printf("order %ld diag %ld\n", (long)order_hash, diag);
    return 0;
}
