#include <stdio.h>
#include <stdlib.h>

#define CAP 50000L
#define HEAD CAP
static long keys[CAP + 1], vals[CAP + 1], prev_[CAP + 1], next_[CAP + 1];
#define TBITS 17
#define TSIZE (1L << TBITS)
#define MASK (TSIZE - 1)
static long table[TSIZE];
static long used = 0;

static unsigned long seed = 2024;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

static long hash(long k) {
    return (long)((((unsigned long)k * 0x9E3779B97F4A7C15UL) >> (64 - TBITS)) & MASK);
}

static long find_pos(long k) {
    long i = hash(k);
    while (table[i] != -1) {
        if (keys[table[i]] == k) return i;
        i = (i + 1) & MASK;
    }
    return -1;
}

static void table_insert(long k, long slot) {
    long i = hash(k);
    while (table[i] != -1) i = (i + 1) & MASK;
    table[i] = slot;
}

static void table_remove(long pos) {
    long i = pos, j = pos;
    for (;;) {
        j = (j + 1) & MASK;
        if (table[j] == -1) break;
        long h = hash(keys[table[j]]);
        int stays;
        if (i <= j) stays = i < h && h <= j;
        else stays = i < h || h <= j;
        if (!stays) {
            table[i] = table[j];
            i = j;
        }
    }
    table[i] = -1;
}

static void unlink_(long s) {
    next_[prev_[s]] = next_[s];
    prev_[next_[s]] = prev_[s];
}

static void push_front(long s) {
    long f = next_[HEAD];
    next_[s] = f;
    prev_[s] = HEAD;
    prev_[f] = s;
    next_[HEAD] = s;
}

static long hits = 0, misses = 0, evictions = 0, sum = 0;

static void access_(long k) {
    long pos = find_pos(k);
    if (pos != -1) {
        long s = table[pos];
        hits += 1;
        sum += vals[s];
        vals[s] += 1;
        unlink_(s);
        push_front(s);
        return;
    }
    misses += 1;
    long s;
    if (used < CAP) {
        s = used;
        used += 1;
    } else {
        s = prev_[HEAD];
        evictions += 1;
        sum += vals[s] * 3;
        table_remove(find_pos(keys[s]));
        unlink_(s);
    }
    keys[s] = k;
    vals[s] = k % 1000;
    table_insert(k, s);
    push_front(s);
}

int main(void) {
    for (long i = 0; i < TSIZE; i++) table[i] = -1;
    next_[HEAD] = HEAD;
    prev_[HEAD] = HEAD;
    long OPS = 25000000;
    for (long i = 0; i < OPS; i++) {
        long k;
        if (rnd() % 10 < 8) k = rnd() % 70000;
        else k = rnd() % 5000000;
        access_(k);
    }
    long s = next_[HEAD];
    long n = 0;
    unsigned long lh = 0;
    while (s != HEAD) {
        lh = lh * 131 + (unsigned long)keys[s];
        n += 1;
        s = next_[s];
    }
    printf("hits %ld misses %ld evictions %ld\n", hits, misses, evictions);
    printf("sum %ld list %ld %ld\n", sum, n, (long)lh);
    return 0;
}
