// Knuth-Morris-Pratt substring search over int arrays: a text over a
// four-letter alphabet from an LCG, and patterns cut from the text or made
// periodic, each searched for all (overlapping) occurrences.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static int64_t seed = 2024;

static int64_t next_random(void) {
    seed = seed * 48271 % 2147483647;
    return seed;
}

static void build_failure(const int64_t *pat, int64_t m, int64_t *fail) {
    fail[0] = 0;
    int64_t k = 0;
    for (int64_t i = 1; i < m; i++) {
        while (k > 0 && pat[i] != pat[k]) k = fail[k - 1];
        if (pat[i] == pat[k]) k += 1;
        fail[i] = k;
    }
}

static int64_t search(const int64_t *text, int64_t n, const int64_t *pat, int64_t m,
                      const int64_t *fail) {
    int64_t count = 0, k = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t c = text[i];
        while (k > 0 && c != pat[k]) k = fail[k - 1];
        if (c == pat[k]) k += 1;
        if (k == m) {
            count += 1;
            k = fail[k - 1];
        }
    }
    return count;
}

int main(void) {
    int64_t n = 4000000;
    int64_t *text = malloc(n * sizeof *text);
    for (int64_t i = 0; i < n; i++) text[i] = (next_random() >> 8) % 4;
    // Stretches of a repeated short motif give the failure links work to do.
    for (int64_t block = 0; block < 200; block++) {
        int64_t start = next_random() % (n - 1000);
        int64_t period = 1 + next_random() % 5;
        for (int64_t i = 0; i < 1000; i++) text[start + i] = text[start + i % period];
    }
    int64_t total = 0, check = 0;
    for (int64_t p = 0; p < 24; p++) {
        int64_t m = 4 + p % 12;
        int64_t *pat = malloc(m * sizeof *pat);
        if (p % 3 == 2) {
            int64_t period = 1 + next_random() % 4;
            for (int64_t i = 0; i < m; i++) {
                pat[i] = next_random() % 4;
                if (i >= period) pat[i] = pat[i - period];
            }
        } else {
            int64_t start = next_random() % (n - m);
            for (int64_t i = 0; i < m; i++) pat[i] = text[start + i];
        }
        int64_t *fail = malloc(m * sizeof *fail);
        build_failure(pat, m, fail);
        int64_t count = search(text, n, pat, m, fail);
        for (int64_t i = 0; i < m; i++) check = (check * 7 + fail[i]) % 1000000007;
        total += count;
        if (p % 6 == 0) printf("%lld %lld %lld\n", (long long)p, (long long)m, (long long)count);
        free(pat);
        free(fail);
    }
    printf("%lld %lld\n", (long long)total, (long long)check);
    free(text);
    return 0;
}
