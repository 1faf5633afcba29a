// Monte Carlo with an xorshift64 generator (shifts and xors; logical right
// shifts by masking): estimates pi by darts in a quarter circle, the area
// under a parabola, and fills a histogram of popcounts of random words.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t state = 0x2545F4914F6CDD1DULL;

static uint64_t xorshift(void) {
    uint64_t x = state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    state = x;
    return x;
}

// A uniform int in 0..2^bits from the high bits.
static int64_t random_bits(int64_t bits) {
    return (int64_t)(xorshift() >> (64 - bits));
}

static int64_t popcount(int64_t x) {
    int64_t n = 0;
    while (x != 0) {
        x &= x - 1;
        n += 1;
    }
    return n;
}

int main(void) {
    int64_t darts = 20000000;
    int64_t inside = 0;
    int64_t r2 = (int64_t)1 << 40;
    for (int64_t i = 0; i < darts; i++) {
        int64_t x = random_bits(20);
        int64_t y = random_bits(20);
        if (x * x + y * y < r2) inside += 1;
    }
    double pi = 4.0 * (double)inside / (double)darts;
    printf("%lld %lld\n", (long long)inside, (long long)(pi * 1000000.0));

    // Points under y = x^2 on the unit square, in fixed point.
    int64_t under = 0;
    for (int64_t i = 0; i < darts; i++) {
        int64_t x = random_bits(24);
        int64_t y = random_bits(24);
        if (y < (x * x) >> 24) under += 1;
    }
    printf("%lld %lld\n", (long long)under, (long long)((double)under / (double)darts * 1000000.0));

    // Popcount histogram of random 32-bit words.
    int64_t hist[33] = {0};
    int64_t samples = 12000000;
    for (int64_t i = 0; i < samples; i++) hist[popcount(random_bits(32))] += 1;
    int64_t mode = 0, mean_num = 0;
    for (int64_t k = 0; k < 33; k++) {
        if (hist[k] > hist[mode]) mode = k;
        mean_num += k * hist[k];
    }
    printf("%lld %lld %lld %lld %lld\n", (long long)mode, (long long)hist[16], (long long)hist[8],
           (long long)hist[24], (long long)(hist[0] + hist[32]));
    printf("%lld %lld %lld\n", (long long)mean_num,
           (long long)((double)mean_num / (double)samples * 1000000.0), (long long)(int64_t)state);
    return 0;
}
