// Heapsort of many short "strings" held as arrays of character codes,
// ordered by a lexicographic comparison function; then a check that the
// result is sorted, a count of distinct strings and a hash of the order.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    int64_t len;
    int64_t *c;
} word;

static uint64_t seed = 2024;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

// A random word of 2..9 letters over a skewed alphabet, so prefixes repeat.
static word *random_word(void) {
    int64_t n = 2 + next_random() % 8;
    word *w = malloc(sizeof *w);
    w->len = n;
    w->c = malloc(n * sizeof *w->c);
    for (int64_t i = 0; i < n; i++) {
        int64_t r = next_random() % 100;
        if (r < 40) w->c[i] = 97 + r % 4;
        else w->c[i] = 97 + r % 26;
    }
    return w;
}

// Negative, zero or positive as a sorts before, equal to or after b.
static int64_t compare(const word *a, const word *b) {
    int64_t n = a->len < b->len ? a->len : b->len;
    for (int64_t i = 0; i < n; i++)
        if (a->c[i] != b->c[i]) return a->c[i] - b->c[i];
    return a->len - b->len;
}

static void sift_down(word **words, int64_t start, int64_t end) {
    int64_t root = start;
    while (2 * root + 1 < end) {
        int64_t child = 2 * root + 1;
        if (child + 1 < end && compare(words[child], words[child + 1]) < 0) child += 1;
        if (compare(words[root], words[child]) >= 0) return;
        word *t = words[root];
        words[root] = words[child];
        words[child] = t;
        root = child;
    }
}

static void heapsort(word **words, int64_t n) {
    int64_t start = n / 2 - 1;
    while (start >= 0) {
        sift_down(words, start, n);
        start -= 1;
    }
    int64_t end = n - 1;
    while (end > 0) {
        word *t = words[0];
        words[0] = words[end];
        words[end] = t;
        sift_down(words, 0, end);
        end -= 1;
    }
}

static void print_word(const word *w) {
    printf("[");
    for (int64_t i = 0; i < w->len; i++) printf(i ? ", %lld" : "%lld", (long long)w->c[i]);
    printf("]");
}

int main(void) {
    int64_t n = 250000;
    for (int64_t round = 0; round < 2; round++) {
        word **words = malloc(n * sizeof *words);
        for (int64_t i = 0; i < n; i++) words[i] = random_word();
        heapsort(words, n);
        int sorted = 1;
        int64_t distinct = 1;
        for (int64_t i = 1; i < n; i++) {
            int64_t c = compare(words[i - 1], words[i]);
            if (c > 0) sorted = 0;
            if (c != 0) distinct += 1;
        }
        uint64_t h = 0;
        for (int64_t i = 0; i < n; i++) {
            word *w = words[i];
            for (int64_t j = 0; j < w->len; j++) h = h * 1000003 + (uint64_t)w->c[j];
            h = h ^ (uint64_t)(i * 7919);
        }
        printf("%lld %s %lld %lld ", (long long)round, sorted ? "true" : "false", (long long)distinct,
               (long long)(int64_t)h);
        print_word(words[0]);
        printf(" ");
        print_word(words[n / 2]);
        printf(" ");
        print_word(words[n - 1]);
        printf("\n");
        for (int64_t i = 0; i < n; i++) {
            free(words[i]->c);
            free(words[i]);
        }
        free(words);
    }
    return 0;
}
