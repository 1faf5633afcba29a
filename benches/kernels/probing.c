// Open-addressing hash map from int keys to int values: linear probing,
// tombstones for deletion, rebuild when used slots pass 3/4 of capacity.
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

static unsigned long seed = 31337;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

#define EMPTY 0
#define TOMB (-1)

static const long cap = 1L << 17;
static const long mask = (1L << 17) - 1;
static long *keys, *vals;
static long size = 0, tombs = 0, rebuilds = 0;

static long hash(long k) {
    long h = (long)((unsigned long)k * 0x2545F4914F6CDD1DUL);
    h = h ^ (h >> 29);
    return h & mask;
}

static void rebuild(void) {
    long *old_keys = keys, *old_vals = vals;
    keys = calloc(cap, sizeof *keys);
    vals = calloc(cap, sizeof *vals);
    for (long i = 0; i < cap; i++) {
        long k = old_keys[i];
        if (k != EMPTY && k != TOMB) {
            long j = hash(k);
            while (keys[j] != EMPTY) j = (j + 1) & mask;
            keys[j] = k;
            vals[j] = old_vals[i];
        }
    }
    free(old_keys);
    free(old_vals);
    tombs = 0;
    rebuilds += 1;
}

static void insert(long k, long v) {
    long i = hash(k);
    long slot = -1;
    while (keys[i] != EMPTY) {
        if (keys[i] == k) {
            vals[i] = v;
            return;
        }
        if (keys[i] == TOMB && slot < 0) slot = i;
        i = (i + 1) & mask;
    }
    if (slot >= 0) tombs -= 1;
    else slot = i;
    keys[slot] = k;
    vals[slot] = v;
    size += 1;
    if ((size + tombs) * 4 > cap * 3) rebuild();
}

static long find(long k) {
    long i = hash(k);
    while (keys[i] != EMPTY) {
        if (keys[i] == k) return i;
        i = (i + 1) & mask;
    }
    return -1;
}

static long lookup(long k) {
    long i = find(k);
    if (i < 0) return -1;
    return vals[i];
}

static bool remove_key(long k) {
    long i = find(k);
    if (i < 0) return false;
    keys[i] = TOMB;
    vals[i] = 0;
    size -= 1;
    tombs += 1;
    return true;
}

int main(void) {
    keys = calloc(cap, sizeof *keys);
    vals = calloc(cap, sizeof *vals);
    long range = 110000, ops = 15000000;
    long hits = 0, misses = 0, removed = 0, sum = 0;
    for (long t = 0; t < ops; t++) {
        long op = rnd() % 10;
        long k = rnd() % range + 1;
        if (op < 4) {
            insert(k, t);
        } else if (op < 7) {
            long v = lookup(k);
            if (v >= 0) {
                hits += 1;
                sum = (sum + v * k) % 1000000007;
            } else {
                misses += 1;
            }
        } else {
            if (remove_key(k)) removed += 1;
        }
        if ((t + 1) % 3000000 == 0)
            printf("%ld %ld %ld %ld %ld %ld %ld %ld\n", t + 1, size, tombs, rebuilds, hits, misses, removed, sum);
    }
    long check = 0;
    for (long i = 0; i < cap; i++)
        if (keys[i] > 0) check = (check * 131 + keys[i] * 7 + vals[i]) % 1000000007;
    printf("%ld %ld\n", size, check);
    return 0;
}
