// LSD radix sort with 8-bit digits and a counting array, four passes over
// 31-bit keys, ping-ponging between two buffers; each round sorts a fresh
// permutation of the key set (keys xor a random mask), verifies and sums.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static int64_t seed = 777;

static int64_t next_random(void) {
    seed = seed * 48271 % 2147483647;
    return seed;
}

static void radix_sort(int64_t *a, int64_t *tmp, int64_t n) {
    int64_t count[256];
    int64_t *src = a, *dst = tmp;
    for (int shift = 0; shift < 32; shift += 8) {
        for (int b = 0; b < 256; b++) count[b] = 0;
        for (int64_t i = 0; i < n; i++) count[(src[i] >> shift) & 255] += 1;
        int64_t sum = 0;
        for (int b = 0; b < 256; b++) {
            int64_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t v = src[i];
            int64_t d = (v >> shift) & 255;
            dst[count[d]] = v;
            count[d] += 1;
        }
        int64_t *t = src;
        src = dst;
        dst = t;
    }
}

int main(void) {
    int64_t n = 1000000;
    int64_t *keys = malloc(n * sizeof *keys);
    for (int64_t i = 0; i < n; i++) keys[i] = next_random();
    int64_t *a = malloc(n * sizeof *a), *tmp = malloc(n * sizeof *tmp);
    int64_t check = 0, unsorted = 0;
    for (int64_t round = 0; round < 40; round++) {
        int64_t mask = next_random();
        for (int64_t i = 0; i < n; i++) a[i] = keys[i] ^ mask;
        radix_sort(a, tmp, n);
        for (int64_t i = 1; i < n; i++)
            if (a[i - 1] > a[i]) unsorted += 1;
        for (int64_t i = 0; i < n; i += 997) check = (check * 31 + a[i]) % 1000000007;
        if (round % 10 == 0)
            printf("%lld %lld %lld %lld\n", (long long)round, (long long)a[0], (long long)a[n / 2],
                   (long long)a[n - 1]);
    }
    printf("%lld %lld\n", (long long)unsorted, (long long)check);
    return 0;
}
