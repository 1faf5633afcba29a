// N-queens by backtracking: columns and both diagonals marked in [bool] arrays.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static int64_t place(int64_t row, int64_t n, bool *cols, bool *diag1, bool *diag2) {
    if (row == n) return 1;
    int64_t count = 0;
    for (int64_t c = 0; c < n; c++) {
        int64_t d1 = row + c;
        int64_t d2 = row - c + n - 1;
        if (!cols[c] && !diag1[d1] && !diag2[d2]) {
            cols[c] = true;
            diag1[d1] = true;
            diag2[d2] = true;
            count += place(row + 1, n, cols, diag1, diag2);
            cols[c] = false;
            diag1[d1] = false;
            diag2[d2] = false;
        }
    }
    return count;
}

static int64_t queens(int64_t n) {
    bool *cols = calloc(n, sizeof *cols);
    bool *diag1 = calloc(2 * n - 1, sizeof *diag1);
    bool *diag2 = calloc(2 * n - 1, sizeof *diag2);
    int64_t solutions = place(0, n, cols, diag1, diag2);
    free(cols);
    free(diag1);
    free(diag2);
    return solutions;
}

int main(void) {
    int64_t total = 0;
    for (int64_t n = 4; n < 14; n++) {
        int64_t solutions = queens(n);
        printf("%lld %lld\n", (long long)n, (long long)solutions);
        total += solutions;
    }
    printf("%lld\n", (long long)total);
    return 0;
}
