// Longest common subsequence and Needleman-Wunsch global alignment of two
// LCG-generated int-array "strings", each with a full 2-D table and a
// traceback; repeated over several alphabet sizes.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 8675309;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static int64_t *random_string(int64_t n, int64_t alphabet) {
    int64_t *s = malloc(n * sizeof *s);
    for (int64_t i = 0; i < n; i++) s[i] = 97 + next_random() % alphabet;
    return s;
}

static int64_t **make_table(int64_t rows, int64_t cols) {
    int64_t **t = malloc(rows * sizeof *t);
    for (int64_t i = 0; i < rows; i++) t[i] = calloc(cols, sizeof **t);
    return t;
}

static void free_table(int64_t **t, int64_t rows) {
    for (int64_t i = 0; i < rows; i++) free(t[i]);
    free(t);
}

// Returns the LCS length; the traceback folds the subsequence into lcs_hash.
static int64_t lcs_hash = 0;

static int64_t lcs(const int64_t *a, int64_t n, const int64_t *b, int64_t m) {
    int64_t **t = make_table(n + 1, m + 1);
    for (int64_t i = 1; i < n + 1; i++) {
        int64_t *row = t[i];
        int64_t *prev = t[i - 1];
        int64_t ai = a[i - 1];
        for (int64_t j = 1; j < m + 1; j++) {
            if (ai == b[j - 1]) row[j] = prev[j - 1] + 1;
            else if (prev[j] >= row[j - 1]) row[j] = prev[j];
            else row[j] = row[j - 1];
        }
    }
    // Walk back, hashing the common subsequence in reverse.
    int64_t i = n, j = m, h = 0;
    while (i > 0 && j > 0) {
        if (a[i - 1] == b[j - 1]) {
            h = (h * 131 + a[i - 1]) % 1000000007;
            i -= 1;
            j -= 1;
        } else if (t[i - 1][j] >= t[i][j - 1]) {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    lcs_hash = h;
    int64_t r = t[n][m];
    free_table(t, n + 1);
    return r;
}

#define MATCH 3
#define MISMATCH (-2)
#define GAP (-4)

static int64_t score(int64_t x, int64_t y) {
    if (x == y) return MATCH;
    return MISMATCH;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

// Returns the best global alignment score; the traceback counts matches,
// mismatches and gaps into counts.
static int64_t align(const int64_t *a, int64_t n, const int64_t *b, int64_t m, int64_t *counts) {
    int64_t **t = make_table(n + 1, m + 1);
    for (int64_t j = 0; j < m + 1; j++) t[0][j] = j * GAP;
    for (int64_t i = 1; i < n + 1; i++) {
        t[i][0] = i * GAP;
        for (int64_t j = 1; j < m + 1; j++) {
            int64_t diag = t[i - 1][j - 1] + score(a[i - 1], b[j - 1]);
            int64_t up = t[i - 1][j] + GAP;
            int64_t left = t[i][j - 1] + GAP;
            t[i][j] = max64(diag, max64(up, left));
        }
    }
    int64_t i = n, j = m;
    while (i > 0 || j > 0) {
        if (i > 0 && j > 0 && t[i][j] == t[i - 1][j - 1] + score(a[i - 1], b[j - 1])) {
            if (a[i - 1] == b[j - 1]) counts[0] += 1;
            else counts[1] += 1;
            i -= 1;
            j -= 1;
        } else if (i > 0 && t[i][j] == t[i - 1][j] + GAP) {
            counts[2] += 1;
            i -= 1;
        } else {
            counts[2] += 1;
            j -= 1;
        }
    }
    int64_t r = t[n][m];
    free_table(t, n + 1);
    return r;
}

int main(void) {
    int64_t alphabets[5] = {2, 4, 8, 20, 26};
    for (int64_t k = 0; k < 5; k++) {
        int64_t n = 3000 - 100 * k;
        int64_t *a = random_string(n, alphabets[k]);
        int64_t *b = random_string(n + 50, alphabets[k]);
        int64_t l = lcs(a, n, b, n + 50);
        int64_t counts[3] = {0, 0, 0};
        int64_t s = align(a, n, b, n + 50, counts);
        printf("%lld %lld %lld %lld %lld [%lld, %lld, %lld]\n", (long long)alphabets[k], (long long)n,
               (long long)l, (long long)lcs_hash, (long long)s, (long long)counts[0], (long long)counts[1],
               (long long)counts[2]);
        free(a);
        free(b);
    }
    return 0;
}
