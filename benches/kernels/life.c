// Conway's Game of Life on a toroidal [[bool]] grid, double-buffered,
// seeded from an LCG; reports the population every 250 generations.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t seed = 31337;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static bool **make_grid(int64_t rows, int64_t cols) {
    bool **g = malloc(rows * sizeof *g);
    for (int64_t r = 0; r < rows; r++) g[r] = calloc(cols, sizeof **g);
    return g;
}

static void step(bool **cur, bool **next, int64_t rows, int64_t cols) {
    for (int64_t r = 0; r < rows; r++) {
        bool *up = cur[(r + rows - 1) % rows];
        bool *mid = cur[r];
        bool *down = cur[(r + 1) % rows];
        bool *out = next[r];
        for (int64_t c = 0; c < cols; c++) {
            int64_t left = (c + cols - 1) % cols;
            int64_t right = (c + 1) % cols;
            int64_t n = 0;
            if (up[left]) n += 1;
            if (up[c]) n += 1;
            if (up[right]) n += 1;
            if (mid[left]) n += 1;
            if (mid[right]) n += 1;
            if (down[left]) n += 1;
            if (down[c]) n += 1;
            if (down[right]) n += 1;
            if (mid[c]) out[c] = n == 2 || n == 3;
            else out[c] = n == 3;
        }
    }
}

static int64_t population(bool **g, int64_t rows, int64_t cols) {
    int64_t count = 0;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            if (g[r][c]) count += 1;
    return count;
}

int main(void) {
    int64_t rows = 256, cols = 256;
    bool **a = make_grid(rows, cols);
    bool **b = make_grid(rows, cols);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) a[r][c] = next_random() % 100 < 30;
    // A glider in a corner, for good measure.
    a[1][2] = true;
    a[2][3] = true;
    a[3][1] = true;
    a[3][2] = true;
    a[3][3] = true;

    int64_t generations = 2000;
    for (int64_t gen = 1; gen < generations + 1; gen++) {
        step(a, b, rows, cols);
        bool **t = a;
        a = b;
        b = t;
        if (gen % 250 == 0) printf("%lld %lld\n", (long long)gen, (long long)population(a, rows, cols));
    }
    uint64_t hash = 0;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            if (a[r][c]) hash = hash * 31 + (uint64_t)(r * cols + c);
    printf("%lld\n", (long long)(int64_t)hash);
    return 0;
}
