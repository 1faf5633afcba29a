// Recursive 4-way flood fill on random grids stored as [[int]]: counts the
// regions of filled and of empty cells, their largest sizes, and a size checksum.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static int64_t seed = 31337;
static int64_t next_random(void) {
    seed = (seed * 1103515245 + 12345) % 2147483648LL;
    return seed >> 8;
}

static int64_t h = 96, w = 128;

// Relabels the 4-connected region of value `from` containing (r, c) to `to`;
// returns its size.
static int64_t fill(int64_t **g, int64_t r, int64_t c, int64_t from, int64_t to) {
    if (r < 0 || r >= h || c < 0 || c >= w) return 0;
    if (g[r][c] != from) return 0;
    g[r][c] = to;
    return 1 + fill(g, r - 1, c, from, to) + fill(g, r + 1, c, from, to)
        + fill(g, r, c - 1, from, to) + fill(g, r, c + 1, from, to);
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

int main(void) {
    int64_t **grid = malloc(h * sizeof *grid);
    for (int64_t r = 0; r < h; r++) grid[r] = calloc(w, sizeof **grid);

    int64_t check = 0, total_regions = 0;
    for (int64_t round = 0; round < 1500; round++) {
        int64_t density = 40 + round % 25;
        for (int64_t r = 0; r < h; r++) {
            int64_t *row = grid[r];
            for (int64_t c = 0; c < w; c++) row[c] = next_random() % 100 < density ? 1 : 0;
        }
        int64_t full = 0, empty = 0, big_full = 0, big_empty = 0, sq = 0;
        for (int64_t r = 0; r < h; r++) {
            for (int64_t c = 0; c < w; c++) {
                int64_t v = grid[r][c];
                if (v == 1) {
                    int64_t s = fill(grid, r, c, 1, 2);
                    full += 1;
                    big_full = max64(big_full, s);
                    sq = (sq + s * s) % 1000003;
                } else if (v == 0) {
                    int64_t s = fill(grid, r, c, 0, 3);
                    empty += 1;
                    big_empty = max64(big_empty, s);
                    sq = (sq + s * 7) % 1000003;
                }
            }
        }
        total_regions += full + empty;
        check = (check * 131 + sq + big_full * 3 + big_empty) % 1000000007;
        if (round % 150 == 0)
            printf("%lld %lld %lld %lld %lld %lld %lld\n", (long long)round, (long long)density,
                   (long long)full, (long long)big_full, (long long)empty, (long long)big_empty,
                   (long long)sq);
    }
    printf("%lld %lld\n", (long long)total_regions, (long long)check);
    for (int64_t r = 0; r < h; r++) free(grid[r]);
    free(grid);
    return 0;
}
