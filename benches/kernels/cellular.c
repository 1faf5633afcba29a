// One-dimensional cellular automata (rules 30 and 110) on a ring of cells:
// first one cell per int64 element, then bit-packed 64 cells to a word,
// stepping whole words with shifts and masks. Both must agree.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 777;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static void step_cells(const int64_t *cur, int64_t *next, int64_t n, int64_t rule) {
    for (int64_t i = 0; i < n; i++) {
        int64_t left = cur[(i + n - 1) % n];
        int64_t right = cur[(i + 1) % n];
        int64_t pattern = left * 4 + cur[i] * 2 + right;
        next[i] = (rule >> pattern) & 1;
    }
}

static int64_t count_cells(const int64_t *cells, int64_t n) {
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++) c += cells[i];
    return c;
}

// Cell i lives in word i / 64, bit i % 64.
static uint64_t *pack(const int64_t *cells, int64_t n) {
    uint64_t *words = calloc(n / 64, sizeof *words);
    for (int64_t i = 0; i < n; i++)
        if (cells[i] == 1) words[i / 64] = words[i / 64] | ((uint64_t)1 << (i % 64));
    return words;
}

static void step_words(const uint64_t *cur, uint64_t *next, int64_t n, int64_t rule) {
    for (int64_t w = 0; w < n; w++) {
        uint64_t c = cur[w];
        uint64_t prev = cur[(w + n - 1) % n];
        uint64_t after = cur[(w + 1) % n];
        // Bit j of l is the left neighbour (cell j - 1) of bit j of c.
        uint64_t l = (c << 1) | (prev >> 63);
        uint64_t r = (c >> 1) | (after << 63);
        if (rule == 30) next[w] = l ^ (c | r);
        else next[w] = (c ^ r) | (c & ~l);
    }
}

static int64_t popcount(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int64_t)((x * 0x0101010101010101ULL) >> 56);
}

static int64_t count_words(const uint64_t *words, int64_t n) {
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++) c += popcount(words[i]);
    return c;
}

int main(void) {
    int64_t n = 102400;
    int64_t *start = calloc(n, sizeof *start);
    for (int64_t i = 0; i < n; i++)
        if (next_random() % 3 == 0) start[i] = 1;
    int64_t rules[2] = {30, 110};
    for (int k = 0; k < 2; k++) {
        int64_t rule = rules[k];
        int64_t gens = 600;
        int64_t *a = calloc(n, sizeof *a);
        int64_t *b = calloc(n, sizeof *b);
        for (int64_t i = 0; i < n; i++) a[i] = start[i];
        int64_t total = 0;
        for (int64_t g = 0; g < gens; g++) {
            step_cells(a, b, n, rule);
            int64_t *t = a;
            a = b;
            b = t;
            total += count_cells(a, n);
        }
        int64_t nw = n / 64;
        uint64_t *pa = pack(start, n);
        uint64_t *pb = calloc(nw, sizeof *pb);
        int64_t wide_gens = gens * 20;
        int64_t wide_total = 0;
        int agree = 1;
        for (int64_t g = 0; g < wide_gens; g++) {
            step_words(pa, pb, nw, rule);
            uint64_t *t = pa;
            pa = pb;
            pb = t;
            int64_t c = count_words(pa, nw);
            wide_total += c;
            if (g == gens - 1) {
                uint64_t *packed = pack(a, n);
                for (int64_t w = 0; w < nw; w++)
                    if (packed[w] != pa[w]) agree = 0;
                if (wide_total != total) agree = 0;
                free(packed);
            }
        }
        printf("%lld %lld %lld %s %lld %lld %lld %lld\n", (long long)rule, (long long)total,
               (long long)count_cells(a, n), agree ? "true" : "false", (long long)wide_total,
               (long long)count_words(pa, nw), (long long)(int64_t)pa[0], (long long)(int64_t)pa[nw - 1]);
        free(a);
        free(b);
        free(pa);
        free(pb);
    }
    return 0;
}
