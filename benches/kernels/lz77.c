// LZ77 compression of a generated symbol stream (an int array with lots of
// repetition), deflate-style: a hash of the next three symbols indexes
// chains of earlier positions, the longest match within the window wins.
// The token stream is then decompressed and compared with the input, for
// several chain limits (like gzip's levels).
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t seed = 1977;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

#define WINDOW 32768
#define MIN_MATCH 3
#define MAX_MATCH 258

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

// Text-like input: random symbols with a skewed distribution, interleaved
// with copies of earlier stretches.
static int64_t *generate(int64_t n) {
    int64_t *data = calloc(n, sizeof *data);
    int64_t i = 0;
    while (i < n) {
        int64_t r = next_random() % 100;
        if (r < 30 && i > 100) {
            int64_t dist = 1 + next_random() % min64(i, 5000);
            int64_t length = 3 + next_random() % 10;
            int64_t k = 0;
            while (k < length && i < n) {
                data[i] = data[i - dist];
                i += 1;
                k += 1;
            }
        } else {
            int64_t s = next_random() % 256;
            data[i] = (s * s) / 8192;
            i += 1;
        }
    }
    return data;
}

static int64_t hash3(int64_t *data, int64_t i) {
    return ((data[i] * 131 + data[i + 1]) * 131 + data[i + 2]) & 65535;
}

// Tokens: a literal is its symbol (>= 0); a match is -length followed by
// the distance. Returns the number of ints written to out.
static int64_t compress(int64_t *data, int64_t n, int64_t *out, int64_t max_chain) {
    int64_t *head = malloc(65536 * sizeof *head);
    int64_t *prev = malloc(WINDOW * sizeof *prev);
    for (int64_t k = 0; k < 65536; k++) head[k] = -1;
    for (int64_t k = 0; k < WINDOW; k++) prev[k] = -1;
    int64_t count = 0;
    int64_t i = 0;
    while (i < n) {
        int64_t best_len = 0, best_dist = 0;
        if (i + MIN_MATCH <= n) {
            int64_t h = hash3(data, i);
            int64_t cand = head[h];
            int64_t chain = 0;
            int64_t limit = min64(MAX_MATCH, n - i);
            while (cand >= 0 && i - cand <= WINDOW && chain < max_chain) {
                int64_t len = 0;
                while (len < limit && data[cand + len] == data[i + len]) len += 1;
                if (len > best_len) {
                    best_len = len;
                    best_dist = i - cand;
                    if (len == limit) break;
                }
                cand = prev[cand % WINDOW];
                chain += 1;
            }
        }
        int64_t step = 1;
        if (best_len >= MIN_MATCH) {
            out[count] = -best_len;
            out[count + 1] = best_dist;
            count += 2;
            step = best_len;
        } else {
            out[count] = data[i];
            count += 1;
        }
        // Insert every position we pass into the hash chains.
        for (int64_t k = i; k < i + step; k++) {
            if (k + MIN_MATCH <= n) {
                int64_t h = hash3(data, k);
                prev[k % WINDOW] = head[h];
                head[h] = k;
            }
        }
        i += step;
    }
    free(head);
    free(prev);
    return count;
}

static int64_t decompress(int64_t *tokens, int64_t count, int64_t *out) {
    int64_t n = 0, t = 0;
    while (t < count) {
        int64_t x = tokens[t];
        if (x >= 0) {
            out[n] = x;
            n += 1;
            t += 1;
        } else {
            int64_t dist = tokens[t + 1];
            for (int64_t k = 0; k < -x; k++) {
                out[n] = out[n - dist];
                n += 1;
            }
            t += 2;
        }
    }
    return n;
}

int main(void) {
    int64_t n = 1000000;
    int64_t *data = generate(n);
    int64_t *tokens = calloc(2 * n, sizeof *tokens);
    int64_t *back = calloc(n, sizeof *back);
    int64_t check = 0;
    int64_t max_chain = 4;
    while (max_chain <= 1024) {
        int64_t count = compress(data, n, tokens, max_chain);
        int64_t literals = 0, matches = 0, matched = 0, longest = 0;
        int64_t t = 0;
        while (t < count) {
            if (tokens[t] >= 0) {
                literals += 1;
                t += 1;
            } else {
                matches += 1;
                matched -= tokens[t];
                longest = max64(longest, -tokens[t]);
                t += 2;
            }
        }
        int64_t m = decompress(tokens, count, back);
        bool same = m == n;
        uint64_t hash = 0;
        for (int64_t i = 0; i < n; i++) {
            if (back[i] != data[i]) same = false;
            hash = hash * 131 + (uint64_t)back[i];
        }
        printf("%lld %lld %lld %lld %lld %lld %s %lld\n", (long long)max_chain, (long long)count,
               (long long)literals, (long long)matches, (long long)matched, (long long)longest,
               same ? "true" : "false", (long long)(int64_t)hash);
        check ^= (int64_t)(hash + (uint64_t)count);
        max_chain *= 4;
    }
    printf("%lld\n", (long long)check);
    return 0;
}
