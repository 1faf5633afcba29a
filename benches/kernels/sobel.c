// Image filtering on a grey-scale image stored as an array of row pointers:
// a 3x3 box blur followed by Sobel edge detection (|gx| + |gy|, clamped to
// 255), repeated; the edge map is mixed back into the image each round.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 777;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static int64_t **make_image(int64_t h, int64_t w) {
    int64_t **img = malloc(h * sizeof *img);
    for (int64_t y = 0; y < h; y++) img[y] = calloc(w, sizeof **img);
    return img;
}

static int64_t iabs(int64_t x) { return x < 0 ? -x : x; }
static int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }

static void blur(int64_t **src, int64_t **dst, int64_t h, int64_t w) {
    for (int64_t y = 0; y < h; y++) {
        dst[y][0] = src[y][0];
        dst[y][w - 1] = src[y][w - 1];
    }
    for (int64_t x = 0; x < w; x++) {
        dst[0][x] = src[0][x];
        dst[h - 1][x] = src[h - 1][x];
    }
    for (int64_t y = 1; y < h - 1; y++) {
        int64_t *up = src[y - 1], *mid = src[y], *down = src[y + 1], *out = dst[y];
        for (int64_t x = 1; x < w - 1; x++) {
            int64_t s = up[x - 1] + up[x] + up[x + 1]
                + mid[x - 1] + mid[x] + mid[x + 1]
                + down[x - 1] + down[x] + down[x + 1];
            out[x] = s / 9;
        }
    }
}

static void sobel(int64_t **src, int64_t **dst, int64_t h, int64_t w) {
    for (int64_t y = 0; y < h; y++) {
        dst[y][0] = 0;
        dst[y][w - 1] = 0;
    }
    for (int64_t x = 0; x < w; x++) {
        dst[0][x] = 0;
        dst[h - 1][x] = 0;
    }
    for (int64_t y = 1; y < h - 1; y++) {
        for (int64_t x = 1; x < w - 1; x++) {
            int64_t gx = -src[y - 1][x - 1] + src[y - 1][x + 1]
                - 2 * src[y][x - 1] + 2 * src[y][x + 1]
                - src[y + 1][x - 1] + src[y + 1][x + 1];
            int64_t gy = -src[y - 1][x - 1] - 2 * src[y - 1][x] - src[y - 1][x + 1]
                + src[y + 1][x - 1] + 2 * src[y + 1][x] + src[y + 1][x + 1];
            int64_t g = iabs(gx) + iabs(gy);
            if (g > 255) g = 255;
            dst[y][x] = g;
        }
    }
}

int main(void) {
    int64_t h = 768, w = 1024;
    int64_t **img = make_image(h, w);
    // blocky random picture: random rectangles of random grey levels
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) img[y][x] = next_random() % 32;
    for (int64_t r = 0; r < 300; r++) {
        int64_t y0 = next_random() % h;
        int64_t x0 = next_random() % w;
        int64_t y1 = imin(h, y0 + 1 + next_random() % 120);
        int64_t x1 = imin(w, x0 + 1 + next_random() % 160);
        int64_t v = next_random() % 224;
        for (int64_t y = y0; y < y1; y++)
            for (int64_t x = x0; x < x1; x++) img[y][x] = (img[y][x] + v) % 256;
    }
    int64_t **blurred = make_image(h, w);
    int64_t **edges = make_image(h, w);
    for (int64_t round = 0; round < 64; round++) {
        blur(img, blurred, h, w);
        sobel(blurred, edges, h, w);
        int64_t sum = 0, strong = 0;
        for (int64_t y = 0; y < h; y++) {
            int64_t *e = edges[y], *b = blurred[y], *o = img[y];
            for (int64_t x = 0; x < w; x++) {
                sum += e[x] * (1 + (x + y) % 7);
                if (e[x] > 128) strong += 1;
                o[x] = (3 * b[x] + e[x]) / 4;
            }
        }
        if (round % 8 == 7)
            printf("%lld %lld %lld\n", (long long)round, (long long)sum, (long long)strong);
    }
    int64_t check = 0;
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) check = (check * 31 + img[y][x]) % 1000000007;
    printf("%lld\n", (long long)check);
    return 0;
}
