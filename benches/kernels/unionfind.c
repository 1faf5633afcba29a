// Union-find (disjoint sets) with union by size and path compression,
// merging random edges over a million vertices; tracks the number of
// components and the largest one, and answers connectivity queries.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t seed = 99991;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static int64_t find(int64_t *parent, int64_t x) {
    int64_t root = x;
    while (parent[root] != root) root = parent[root];
    // Second pass: point everything on the path at the root.
    while (parent[x] != root) {
        int64_t next = parent[x];
        parent[x] = root;
        x = next;
    }
    return root;
}

// Returns true if x and y were in different sets.
static bool unite(int64_t *parent, int64_t *size, int64_t x, int64_t y) {
    int64_t rx = find(parent, x);
    int64_t ry = find(parent, y);
    if (rx == ry) return false;
    if (size[rx] < size[ry]) {
        int64_t t = rx;
        rx = ry;
        ry = t;
    }
    parent[ry] = rx;
    size[rx] += size[ry];
    return true;
}

int main(void) {
    int64_t n = 1000000;
    int64_t check = 0;
    for (int64_t round = 0; round < 3; round++) {
        int64_t *parent = malloc(n * sizeof *parent);
        int64_t *size = malloc(n * sizeof *size);
        for (int64_t i = 0; i < n; i++) size[i] = 1;
        for (int64_t i = 0; i < n; i++) parent[i] = i;
        int64_t components = n, largest = 1;
        int64_t batch = 200000;
        int64_t edges = 0;
        uint64_t line = 0;
        for (int64_t b = 0; b < 6; b++) {
            for (int64_t e = 0; e < batch; e++) {
                int64_t x = next_random() % n;
                int64_t y = 0;
                if (round == 1) {
                    // Mostly local edges: long paths before compression.
                    y = (x + 1 + next_random() % 16) % n;
                } else {
                    y = next_random() % n;
                }
                if (unite(parent, size, x, y)) {
                    components -= 1;
                    int64_t s = size[find(parent, x)];
                    if (s > largest) largest = s;
                }
                edges += 1;
            }
            int64_t connected = 0;
            for (int64_t q = 0; q < 100000; q++) {
                int64_t u = find(parent, next_random() % n);
                int64_t v = find(parent, next_random() % n);
                if (u == v) connected += 1;
            }
            line = line * 1000003 + (uint64_t)(components * 7 + connected);
            if (b % 2 == 1)
                printf("%lld %lld %lld %lld %lld\n", (long long)round, (long long)edges, (long long)components,
                       (long long)largest, (long long)connected);
        }
        check ^= (int64_t)line;
        free(parent);
        free(size);
    }
    printf("%lld\n", (long long)check);
    return 0;
}
