#include <stdio.h>
#include <stdlib.h>

#define CAP 500000L
static long key[CAP], left_[CAP], right_[CAP], height[CAP], count[CAP];
static long nodes = 0;

static unsigned long seed = 12345;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

static long lmax(long a, long b) { return a > b ? a : b; }

static void update(long n) {
    height[n] = 1 + lmax(height[left_[n]], height[right_[n]]);
}

static long rotate_right(long y) {
    long x = left_[y];
    left_[y] = right_[x];
    right_[x] = y;
    update(y);
    update(x);
    return x;
}

static long rotate_left(long x) {
    long y = right_[x];
    right_[x] = left_[y];
    left_[y] = x;
    update(x);
    update(y);
    return y;
}

static long rebalance(long n) {
    update(n);
    long b = height[left_[n]] - height[right_[n]];
    if (b > 1) {
        long l = left_[n];
        if (height[left_[l]] < height[right_[l]]) {
            left_[n] = rotate_left(l);
        }
        return rotate_right(n);
    }
    if (b < -1) {
        long r = right_[n];
        if (height[right_[r]] < height[left_[r]]) {
            right_[n] = rotate_right(r);
        }
        return rotate_left(n);
    }
    return n;
}

static long insert(long n, long k) {
    if (n == 0) {
        nodes += 1;
        key[nodes] = k;
        left_[nodes] = 0;
        right_[nodes] = 0;
        height[nodes] = 1;
        count[nodes] = 1;
        return nodes;
    }
    if (k == key[n]) {
        count[n] += 1;
        return n;
    }
    if (k < key[n]) {
        long t = insert(left_[n], k);
        left_[n] = t;
    } else {
        long t = insert(right_[n], k);
        right_[n] = t;
    }
    return rebalance(n);
}

static long find(long root, long k) {
    long n = root;
    while (n != 0) {
        if (k == key[n]) return count[n];
        if (k < key[n]) n = left_[n];
        else n = right_[n];
    }
    return 0;
}

static unsigned long walk_hash = 0;
static long walk_prev = -1;
static long walk_bad = 0;
static void walk(long n) {
    if (n == 0) return;
    walk(left_[n]);
    if (key[n] <= walk_prev) walk_bad += 1;
    walk_prev = key[n];
    walk_hash = walk_hash * 31 + (unsigned long)(key[n] * count[n]);
    walk(right_[n]);
}

int main(void) {
    long N = 400000;
    long RANGE = 1600000;
    long root = 0;
    for (long i = 0; i < N; i++) {
        root = insert(root, rnd() % RANGE);
    }
    long found = 0, total = 0;
    for (long i = 0; i < 2 * N; i++) {
        long c = find(root, rnd() % RANGE);
        if (c > 0) {
            found += 1;
            total += c;
        }
    }
    walk(root);
    printf("nodes %ld height %ld\n", nodes, height[root]);
    printf("found %ld total %ld\n", found, total);
    printf("walk %ld %ld\n", (long)walk_hash, walk_bad);
    return 0;
}
