// Backtracking sudoku solver on an array of 81 cells: the first empty cell
// gets each digit that passes the row, column and box checks in turn.
// Several hard puzzles, each solved several times from a fresh copy.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

static int64_t nodes = 0;

static bool ok(const int64_t *grid, int64_t row, int64_t col, int64_t d) {
    int64_t br = row / 3 * 3, bc = col / 3 * 3;
    for (int64_t i = 0; i < 9; i++) {
        if (grid[row * 9 + i] == d) return false;
        if (grid[i * 9 + col] == d) return false;
        if (grid[(br + i / 3) * 9 + bc + i % 3] == d) return false;
    }
    return true;
}

static bool solve(int64_t *grid, int64_t pos) {
    nodes += 1;
    while (pos < 81 && grid[pos] != 0) pos += 1;
    if (pos == 81) return true;
    int64_t row = pos / 9, col = pos % 9;
    for (int64_t d = 1; d < 10; d++) {
        if (ok(grid, row, col, d)) {
            grid[pos] = d;
            if (solve(grid, pos + 1)) return true;
        }
    }
    grid[pos] = 0;
    return false;
}

// 0 marks an empty cell.
static const int64_t puzzles[][81] = {
    {
        8, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 3, 6, 0, 0, 0, 0, 0,
        0, 7, 0, 0, 9, 0, 2, 0, 0,
        0, 5, 0, 0, 0, 7, 0, 0, 0,
        0, 0, 0, 0, 4, 5, 7, 0, 0,
        0, 0, 0, 1, 0, 0, 0, 3, 0,
        0, 0, 1, 0, 0, 0, 0, 6, 8,
        0, 0, 8, 5, 0, 0, 0, 1, 0,
        0, 9, 0, 0, 0, 0, 4, 0, 0
    },
    {
        1, 0, 0, 0, 0, 7, 0, 9, 0,
        0, 3, 0, 0, 2, 0, 0, 0, 8,
        0, 0, 9, 6, 0, 0, 5, 0, 0,
        0, 0, 5, 3, 0, 0, 9, 0, 0,
        0, 1, 0, 0, 8, 0, 0, 0, 2,
        6, 0, 0, 0, 0, 4, 0, 0, 0,
        3, 0, 0, 0, 0, 0, 0, 1, 0,
        0, 4, 0, 0, 0, 0, 0, 0, 7,
        0, 0, 7, 0, 0, 0, 3, 0, 0
    },
    {
        6, 0, 0, 0, 0, 0, 8, 0, 3,
        0, 4, 0, 7, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 5, 0, 4, 0, 7, 0,
        3, 0, 0, 2, 0, 0, 0, 0, 0,
        1, 0, 6, 0, 0, 0, 0, 0, 0,
        0, 2, 0, 0, 0, 0, 0, 5, 0,
        0, 0, 0, 0, 8, 0, 6, 0, 0,
        0, 0, 0, 0, 1, 0, 0, 0, 0
    },
    {
        1, 0, 0, 0, 0, 0, 0, 0, 2,
        0, 9, 0, 4, 0, 0, 0, 5, 0,
        0, 0, 6, 0, 0, 0, 7, 0, 0,
        0, 5, 0, 9, 0, 3, 0, 0, 0,
        0, 0, 0, 0, 7, 0, 0, 0, 0,
        0, 0, 0, 8, 5, 0, 0, 4, 0,
        7, 0, 0, 0, 0, 0, 6, 0, 0,
        0, 3, 0, 0, 0, 9, 0, 8, 0,
        0, 0, 2, 0, 0, 0, 0, 0, 1
    },
    {
        0, 2, 0, 4, 0, 3, 7, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 3, 2,
        0, 0, 0, 0, 0, 0, 0, 0, 4,
        0, 4, 0, 2, 0, 0, 0, 7, 0,
        8, 0, 0, 0, 5, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 1, 0, 0, 0,
        5, 0, 0, 0, 0, 0, 9, 0, 0,
        0, 3, 0, 9, 0, 0, 0, 0, 7,
        0, 0, 1, 0, 0, 8, 6, 0, 0
    },
    {
        4, 8, 0, 3, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 7, 1,
        0, 2, 0, 0, 0, 0, 0, 0, 0,
        7, 0, 5, 0, 0, 0, 0, 6, 0,
        0, 0, 0, 2, 0, 0, 8, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 1, 0, 7, 6, 0, 0, 0,
        3, 0, 0, 0, 0, 0, 4, 0, 0,
        0, 0, 0, 0, 5, 0, 0, 0, 0
    }
};

int main(void) {
    int64_t np = sizeof puzzles / sizeof puzzles[0];
    int64_t total = 0, check = 0;
    for (int64_t round = 0; round < 3; round++) {
        for (int64_t p = 0; p < np; p++) {
            int64_t grid[81];
            for (int64_t i = 0; i < 81; i++) grid[i] = puzzles[p][i];
            nodes = 0;
            bool solved = solve(grid, 0);
            int64_t cs = 0;
            for (int64_t i = 0; i < 81; i++) cs = (cs * 10 + grid[i]) % 1000000007;
            if (round == 0)
                printf("%lld %s %lld %lld\n", (long long)p, solved ? "true" : "false",
                       (long long)nodes, (long long)cs);
            total += nodes;
            check = (check * 31 + cs) % 1000000007;
        }
    }
    printf("%lld %lld\n", (long long)total, (long long)check);
    return 0;
}
