// Edit distance and longest common subsequence of random int sequences:
// dynamic programming over two rows, swapped after each row.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 2024;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static int64_t *random_sequence(int64_t n, int64_t alphabet) {
    int64_t *s = malloc(n * sizeof *s);
    for (int64_t i = 0; i < n; i++) s[i] = next_random() % alphabet;
    return s;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static int64_t edit_distance(const int64_t *a, int64_t n, const int64_t *b, int64_t m) {
    int64_t *prev = calloc(m + 1, sizeof *prev);
    int64_t *cur = calloc(m + 1, sizeof *cur);
    for (int64_t j = 0; j < m + 1; j++) prev[j] = j;
    for (int64_t i = 1; i < n + 1; i++) {
        cur[0] = i;
        int64_t ai = a[i - 1];
        for (int64_t j = 1; j < m + 1; j++) {
            int64_t cost = 1;
            if (ai == b[j - 1]) cost = 0;
            cur[j] = min64(min64(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
        }
        int64_t *t = prev;
        prev = cur;
        cur = t;
    }
    int64_t d = prev[m];
    free(prev);
    free(cur);
    return d;
}

static int64_t lcs(const int64_t *a, int64_t n, const int64_t *b, int64_t m) {
    int64_t *prev = calloc(m + 1, sizeof *prev);
    int64_t *cur = calloc(m + 1, sizeof *cur);
    for (int64_t i = 1; i < n + 1; i++) {
        int64_t ai = a[i - 1];
        for (int64_t j = 1; j < m + 1; j++) {
            if (ai == b[j - 1]) cur[j] = prev[j - 1] + 1;
            else if (prev[j] >= cur[j - 1]) cur[j] = prev[j];
            else cur[j] = cur[j - 1];
        }
        int64_t *t = prev;
        prev = cur;
        cur = t;
    }
    int64_t l = prev[m];
    free(prev);
    free(cur);
    return l;
}

int main(void) {
    uint64_t check = 0;
    for (int64_t round = 0; round < 4; round++) {
        int64_t alphabet = 2 + round * 6;
        int64_t n = 5000 + round * 100, m = 6000 - round * 100;
        int64_t *a = random_sequence(n, alphabet);
        int64_t *b = random_sequence(m, alphabet);
        int64_t d = edit_distance(a, n, b, m);
        int64_t l = lcs(a, n, b, m);
        printf("%lld %lld %lld %lld %lld\n", (long long)alphabet, (long long)n, (long long)m,
               (long long)d, (long long)l);
        check = check * 7919 + (uint64_t)(d * 31 + l);
        free(a);
        free(b);
    }
    printf("%lld\n", (long long)(int64_t)check);
    return 0;
}
