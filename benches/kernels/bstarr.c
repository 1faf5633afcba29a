// Binary search tree stored in parallel int arrays (key/left/right, -1 = none):
// recursive insert, search, height, in-order rank-weighted sum and range count.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

#define CAP 200000
static int64_t key[CAP], left[CAP], right[CAP];
static int64_t count = 0, dups = 0;

static int64_t seed = 8675309;
static int64_t next_random(void) {
    seed = (seed * 1103515245 + 12345) % 2147483648LL;
    return seed >> 1;
}

static int64_t insert(int64_t node, int64_t k) {
    if (node == -1) {
        key[count] = k;
        left[count] = -1;
        right[count] = -1;
        count += 1;
        return count - 1;
    }
    if (k < key[node]) {
        int64_t c = insert(left[node], k);
        left[node] = c;
    } else if (k > key[node]) {
        int64_t c = insert(right[node], k);
        right[node] = c;
    } else {
        dups += 1;
    }
    return node;
}

static bool contains(int64_t node, int64_t k) {
    if (node == -1) return false;
    if (k == key[node]) return true;
    if (k < key[node]) return contains(left[node], k);
    return contains(right[node], k);
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int64_t height(int64_t node) {
    if (node == -1) return 0;
    return 1 + max64(height(left[node]), height(right[node]));
}

// In-order walk: adds key * rank (mod a prime) using the running rank.
static int64_t rank = 0;
static int64_t inorder_sum(int64_t node) {
    if (node == -1) return 0;
    int64_t s = inorder_sum(left[node]);
    rank += 1;
    s = (s + key[node] % 1000003 * rank) % 1000000007;
    return (s + inorder_sum(right[node])) % 1000000007;
}

// Number of keys in [lo, hi].
static int64_t count_range(int64_t node, int64_t lo, int64_t hi) {
    if (node == -1) return 0;
    int64_t k = key[node];
    if (k < lo) return count_range(right[node], lo, hi);
    if (k > hi) return count_range(left[node], lo, hi);
    return 1 + count_range(left[node], lo, hi) + count_range(right[node], lo, hi);
}

int main(void) {
    int64_t check = 0;
    for (int64_t round = 0; round < 6; round++) {
        count = 0;
        dups = 0;
        int64_t n = 50000 + round * 10000;
        int64_t range = n * (2 + round);
        int64_t root = -1;
        for (int64_t i = 0; i < n; i++) root = insert(root, next_random() % range);
        int64_t hits = 0;
        for (int64_t i = 0; i < n; i++)
            if (contains(root, next_random() % range)) hits += 1;
        int64_t h = height(root);
        rank = 0;
        int64_t s = inorder_sum(root);
        int64_t rc = 0;
        for (int64_t q = 0; q < 2000; q++) {
            int64_t lo = next_random() % range;
            rc += count_range(root, lo, lo + range / 50);
        }
        printf("%lld %lld %lld %lld %lld %lld %lld %lld\n", (long long)n, (long long)count,
               (long long)dups, (long long)hits, (long long)h, (long long)rank, (long long)s,
               (long long)rc);
        check = (check * 31 + s + h + rc) % 1000000007;
    }
    printf("%lld\n", (long long)check);
    return 0;
}
