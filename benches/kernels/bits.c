// Bit manipulation on 64-bit ints: a xorshift64 generator, SWAR popcount,
// bit reversal, trailing zeros, parity and Gray codes.
#include <stdio.h>
#include <stdint.h>

static const uint64_t M1 = 0x5555555555555555ULL;
static const uint64_t M2 = 0x3333333333333333ULL;
static const uint64_t M4 = 0x0f0f0f0f0f0f0f0fULL;
static const uint64_t H01 = 0x0101010101010101ULL;

static uint64_t xorshift(uint64_t x) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

static int64_t popcount(uint64_t x) {
    x = x - ((x >> 1) & M1);
    x = (x & M2) + ((x >> 2) & M2);
    x = (x + (x >> 4)) & M4;
    return (int64_t)((x * H01) >> 56);
}

static uint64_t reverse(uint64_t x) {
    x = ((x >> 1) & M1) | ((x & M1) << 1);
    x = ((x >> 2) & M2) | ((x & M2) << 2);
    x = ((x >> 4) & M4) | ((x & M4) << 4);
    x = ((x >> 8) & 0x00ff00ff00ff00ffULL) | ((x & 0x00ff00ff00ff00ffULL) << 8);
    x = ((x >> 16) & 0x0000ffff0000ffffULL) | ((x & 0x0000ffff0000ffffULL) << 16);
    return (x >> 32) | (x << 32);
}

static int64_t trailing_zeros(uint64_t x) {
    if (x == 0) return 64;
    return popcount((x & -x) - 1);
}

static int64_t parity(uint64_t x) {
    x ^= x >> 32;
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    return (int64_t)(x & 1);
}

static uint64_t gray_decode(uint64_t g) {
    uint64_t x = g;
    for (int64_t s = 1; s < 64; s *= 2) x ^= x >> s;
    return x;
}

int main(void) {
    uint64_t x = 88172645463325252ULL;
    int64_t ones = 0, zeros = 0, odd = 0;
    uint64_t mixed = 0;
    for (int64_t i = 0; i < 36000000; i++) {
        x = xorshift(x);
        ones += popcount(x);
        zeros += trailing_zeros(x);
        odd += parity(x);
        uint64_t r = reverse(x);
        mixed ^= r + (uint64_t)i;
        uint64_t g = x ^ (x >> 1);
        if (gray_decode(g) != x) printf("gray code mismatch %lld\n", (long long)i);
        mixed = (mixed << 1) ^ (g >> 3);
    }
    printf("%lld %lld %lld\n", (long long)ones, (long long)zeros, (long long)odd);
    printf("%lld %lld\n", (long long)(int64_t)mixed, (long long)(int64_t)x);
    return 0;
}
