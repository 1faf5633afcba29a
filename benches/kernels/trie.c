#include <stdio.h>
#include <stdlib.h>

#define K 5L
#define MAXN 2500000L
static long child[MAXN * K];
static long pass[MAXN];
static long ends[MAXN];
static long nodes = 1;

static unsigned long seed = 987654321;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

static long gen_word(long *w) {
    long n = 3 + rnd() % 10;
    for (long i = 0; i < n; i++) {
        long r = rnd() % 15;
        long c = 0;
        if (r >= 5) c = 1;
        if (r >= 9) c = 2;
        if (r >= 12) c = 3;
        if (r >= 14) c = 4;
        w[i] = c;
    }
    return n;
}

static void insert(long *w, long n) {
    long node = 0;
    pass[node] += 1;
    for (long i = 0; i < n; i++) {
        long slot = node * K + w[i];
        if (child[slot] == 0) {
            child[slot] = nodes;
            nodes += 1;
        }
        node = child[slot];
        pass[node] += 1;
    }
    ends[node] += 1;
}

static long count_prefix(long *w, long n) {
    long node = 0;
    for (long i = 0; i < n; i++) {
        node = child[node * K + w[i]];
        if (node == 0) return 0;
    }
    return pass[node];
}

static long count_exact(long *w, long n) {
    long node = 0;
    for (long i = 0; i < n; i++) {
        node = child[node * K + w[i]];
        if (node == 0) return 0;
    }
    return ends[node];
}

int main(void) {
    long *w = calloc(16, sizeof(long));
    long WORDS = 1000000;
    for (long i = 0; i < WORDS; i++) {
        long n = gen_word(w);
        insert(w, n);
    }
    long QUERIES = 3000000;
    long psum = 0, esum = 0, hits = 0;
    for (long q = 0; q < QUERIES; q++) {
        long n = gen_word(w);
        long p = count_prefix(w, 1 + n / 2);
        psum += p;
        long e = count_exact(w, n);
        esum += e;
        if (e > 0) hits += 1;
    }
    printf("nodes %ld\n", nodes);
    printf("prefix sum %ld\n", psum);
    printf("exact sum %ld hits %ld\n", esum, hits);
    return 0;
}
