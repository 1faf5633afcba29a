#include <stdio.h>
#include <stdlib.h>

static unsigned long seed = 42;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

static void add(long *tree, long n, long i, long delta) {
    long j = i + 1;
    while (j < n) {
        tree[j] += delta;
        j += j & -j;
    }
}

static long prefix(long *tree, long i) {
    long s = 0;
    long j = i;
    while (j > 0) {
        s += tree[j];
        j -= j & -j;
    }
    return s;
}

static long range_sum(long *tree, long lo, long hi) {
    return prefix(tree, hi) - prefix(tree, lo);
}

static long lmin(long a, long b) { return a < b ? a : b; }
static long lmax(long a, long b) { return a > b ? a : b; }

int main(void) {
    long N = 1L << 20;
    long tn = N + 1;
    long *tree = calloc(tn, sizeof(long));
    long *plain = calloc(N, sizeof(long));
    for (long i = 0; i < N; i++) {
        long v = rnd() % 1000;
        plain[i] = v;
        add(tree, tn, i, v);
    }
    long OPS = 12000000;
    unsigned long check = 0;
    long updates = 0;
    for (long op = 0; op < OPS; op++) {
        long r = rnd();
        if (r % 4 == 0) {
            long i = rnd() % N;
            long v = rnd() % 1000;
            add(tree, tn, i, v - plain[i]);
            plain[i] = v;
            updates += 1;
        } else {
            long a = rnd() % N;
            long b = rnd() % N;
            long lo = lmin(a, b);
            long hi = lmax(a, b) + 1;
            long s = range_sum(tree, lo, hi);
            check = check * 1000003UL + (unsigned long)s;
        }
    }
    long bad = 0, acc = 0;
    for (long i = 0; i < N; i++) {
        acc += plain[i];
        if (i % 4096 == 0 && prefix(tree, i + 1) != acc) bad += 1;
    }
    printf("updates %ld total %ld bad %ld\n", updates, prefix(tree, N), bad);
    printf("check %ld\n", (long)check);
    return 0;
}
