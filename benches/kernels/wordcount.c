// Text processing on int arrays of character codes: generating text, counting
// lines, words and letters as `wc` does, finding palindromic words,
// capitalizing sentences, and run-length encoding and decoding.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t seed = 4242;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

enum { SPACE = 32, NEWLINE = 10, PERIOD = 46, COMMA = 44 };

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int64_t *generate(int64_t n) {
    int64_t *text = malloc(n * sizeof *text);
    for (int64_t i = 0; i < n; i++) text[i] = SPACE;
    int64_t i = 0;
    while (i < n) {
        int64_t length = 1 + next_random() % 8;
        int64_t r = next_random() % 100;
        if (r < 10) {
            // A word that reads the same backwards.
            for (int64_t k = 0; k < length; k++) {
                if (i + k < n && i + 2 * length - 1 - k < n) {
                    int64_t c = 97 + next_random() % 3;
                    text[i + k] = c;
                    text[i + 2 * length - 1 - k] = c;
                }
            }
            length = 2 * length;
        } else if (r < 20) {
            // A run of one letter.
            int64_t c = 97 + next_random() % 26;
            for (int64_t k = 0; k < length; k++)
                if (i + k < n) text[i + k] = c;
        } else {
            for (int64_t k = 0; k < length; k++) {
                if (i + k < n) {
                    int64_t a = next_random() % 26;
                    int64_t b = next_random() % 26;
                    text[i + k] = 97 + (a + b) / 2;
                }
            }
        }
        i += length;
        if (i < n) {
            int64_t s = next_random() % 20;
            if (s == 0) text[i] = NEWLINE;
            else if (s == 1) text[i] = PERIOD;
            else if (s == 2) text[i] = COMMA;
            // Otherwise the space already there.
            i += 1;
        }
        if (i < n && next_random() % 4 == 0) i += 1;
    }
    return text;
}

static bool is_letter(int64_t c) { return (c >= 97 && c <= 122) || (c >= 65 && c <= 90); }

static int64_t lower(int64_t c) {
    if (c >= 65 && c <= 90) return c + 32;
    return c;
}

// Fills out with lines, words, letters, longest word, palindromes and the
// letter histogram.
static void count(const int64_t *text, int64_t n, int64_t *histogram, int64_t out[5]) {
    int64_t lines = 0, words = 0, letters = 0, longest = 0, palindromes = 0, start = 0;
    bool in_word = false;
    for (int64_t i = 0; i < n + 1; i++) {
        int64_t c = SPACE;
        if (i < n) c = text[i];
        if (c == NEWLINE) lines += 1;
        if (is_letter(c)) {
            letters += 1;
            histogram[lower(c) - 97] += 1;
            if (!in_word) {
                in_word = true;
                start = i;
                words += 1;
            }
        } else if (in_word) {
            in_word = false;
            int64_t length = i - start;
            longest = max64(longest, length);
            if (length >= 2) {
                int64_t lo = start, hi = i - 1;
                while (lo < hi && lower(text[lo]) == lower(text[hi])) {
                    lo += 1;
                    hi -= 1;
                }
                if (lo >= hi) palindromes += 1;
            }
        }
    }
    out[0] = lines;
    out[1] = words;
    out[2] = letters;
    out[3] = longest;
    out[4] = palindromes;
}

// Upper-cases the first letter of the text and of every sentence.
static int64_t capitalize(int64_t *text, int64_t n) {
    int64_t changed = 0;
    bool sentence_start = true;
    for (int64_t i = 0; i < n; i++) {
        int64_t c = text[i];
        if (c == PERIOD) {
            sentence_start = true;
        } else if (sentence_start && is_letter(c)) {
            if (c >= 97) {
                text[i] = c - 32;
                changed += 1;
            }
            sentence_start = false;
        }
    }
    return changed;
}

// Run-length encoding into two arrays; returns the number of runs.
static int64_t encode(const int64_t *text, int64_t len, int64_t *chars, int64_t *runs) {
    int64_t n = 0, i = 0;
    while (i < len) {
        int64_t c = text[i];
        int64_t j = i + 1;
        while (j < len && text[j] == c) j += 1;
        chars[n] = c;
        runs[n] = j - i;
        n += 1;
        i = j;
    }
    return n;
}

static int64_t decode(const int64_t *chars, const int64_t *runs, int64_t n, int64_t *out) {
    int64_t k = 0;
    for (int64_t r = 0; r < n; r++) {
        for (int64_t j = 0; j < runs[r]; j++) {
            out[k] = chars[r];
            k += 1;
        }
    }
    return k;
}

int main(void) {
    int64_t size = 5000000;
    int64_t histogram[26] = {0};
    int64_t *chars = calloc(size, sizeof *chars);
    int64_t *runs = calloc(size, sizeof *runs);
    int64_t *copy = calloc(size, sizeof *copy);
    for (int64_t round = 0; round < 3; round++) {
        int64_t *text = generate(size);
        int64_t c[5];
        count(text, size, histogram, c);
        int64_t capitals = capitalize(text, size);
        int64_t n = encode(text, size, chars, runs);
        int64_t longest_run = 0;
        for (int64_t r = 0; r < n; r++) longest_run = max64(longest_run, runs[r]);
        int64_t decoded = decode(chars, runs, n, copy);
        int64_t differ = 0;
        uint64_t hash = 0;
        for (int64_t i = 0; i < size; i++) {
            if (copy[i] != text[i]) differ += 1;
            hash = hash * 131 + (uint64_t)text[i];
        }
        printf("%lld %lld %lld %lld %lld\n", (long long)c[0], (long long)c[1], (long long)c[2],
               (long long)c[3], (long long)c[4]);
        printf("%lld %lld %lld %lld %lld %lld\n", (long long)capitals, (long long)n,
               (long long)longest_run, (long long)decoded, (long long)differ,
               (long long)(int64_t)hash);
        free(text);
    }
    int64_t common = 0;
    for (int64_t l = 0; l < 26; l++)
        if (histogram[l] > histogram[common]) common = l;
    printf("%lld %lld %lld %lld\n", (long long)common, (long long)histogram[common],
           (long long)histogram[0], (long long)histogram[25]);
    return 0;
}
