// Open-addressing hash table (linear probing) on int arrays: counting
// occurrences of random keys, then looking keys up.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 99;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static int64_t hash(int64_t key) {
    int64_t h = key ^ (key >> 16);
    h = h * 0x45d9f3b;
    h = h ^ (h >> 16);
    return h;
}

// Keys are positive; 0 marks an empty slot.
static const int64_t bits = 21;
static int64_t capacity, mask;
static int64_t *keys, *counts;
static int64_t size = 0;

static void add(int64_t key) {
    int64_t i = hash(key) & mask;
    while (keys[i] != 0) {
        if (keys[i] == key) {
            counts[i] += 1;
            return;
        }
        i = (i + 1) & mask;
    }
    keys[i] = key;
    counts[i] = 1;
    size += 1;
}

static int64_t lookup(int64_t key) {
    int64_t i = hash(key) & mask;
    while (keys[i] != 0) {
        if (keys[i] == key) return counts[i];
        i = (i + 1) & mask;
    }
    return 0;
}

int main(void) {
    capacity = (int64_t)1 << bits;
    mask = capacity - 1;
    keys = calloc(capacity, sizeof *keys);
    counts = calloc(capacity, sizeof *counts);
    int64_t n = 1200000, range = 1500000;
    for (int64_t i = 0; i < n; i++) add(1 + next_random() % range);
    int64_t found = 0, total = 0;
    for (int64_t round = 0; round < 4; round++) {
        for (int64_t i = 0; i < n; i++) {
            int64_t c = lookup(1 + next_random() % (2 * range));
            if (c > 0) {
                found += 1;
                total += c;
            }
        }
    }
    int64_t longest = 0, run = 0;
    for (int64_t i = 0; i < capacity; i++) {
        if (keys[i] != 0) {
            run += 1;
            if (run > longest) longest = run;
        } else {
            run = 0;
        }
    }
    printf("%lld %lld %lld %lld\n", (long long)size, (long long)found, (long long)total,
           (long long)longest);
    return 0;
}
