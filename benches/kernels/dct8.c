// JPEG-like 8x8 DCT / quantize / IDCT round trip over an int image, at many qualities.
#include <stdio.h>
#include <math.h>

static unsigned long seed = 99;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

static const double PI = 3.141592653589793;

static double cosine(double x) {
    x = fmod(x, 2.0 * PI);
    if (x > PI) x -= 2.0 * PI;
    if (x < -PI) x += 2.0 * PI;
    double term = 1.0, s = 1.0;
    for (long k = 1; k < 30; k++) {
        term = -term * x * x / (double)((2 * k - 1) * (2 * k));
        s += term;
    }
    return s;
}

static double T[64];
static const long QT[64] = {16, 11, 10, 16, 24, 40, 51, 61,
          12, 12, 14, 19, 26, 58, 60, 55,
          14, 13, 16, 24, 40, 57, 69, 56,
          14, 17, 22, 29, 51, 87, 80, 62,
          18, 22, 37, 56, 68, 109, 103, 77,
          24, 35, 55, 64, 81, 104, 113, 92,
          49, 64, 78, 87, 103, 121, 120, 101,
          72, 92, 95, 98, 112, 100, 103, 99};

static void fdct(double *blk, double *out, double *tmp) {
    for (long u = 0; u < 8; u++)
        for (long y = 0; y < 8; y++) {
            double s = 0.0;
            for (long x = 0; x < 8; x++) s += T[u * 8 + x] * blk[x * 8 + y];
            tmp[u * 8 + y] = s;
        }
    for (long u = 0; u < 8; u++)
        for (long v = 0; v < 8; v++) {
            double s = 0.0;
            for (long y = 0; y < 8; y++) s += tmp[u * 8 + y] * T[v * 8 + y];
            out[u * 8 + v] = s;
        }
}

static void idct(double *coef, double *out, double *tmp) {
    for (long x = 0; x < 8; x++)
        for (long v = 0; v < 8; v++) {
            double s = 0.0;
            for (long u = 0; u < 8; u++) s += T[u * 8 + x] * coef[u * 8 + v];
            tmp[x * 8 + v] = s;
        }
    for (long x = 0; x < 8; x++)
        for (long y = 0; y < 8; y++) {
            double s = 0.0;
            for (long v = 0; v < 8; v++) s += tmp[x * 8 + v] * T[v * 8 + y];
            out[x * 8 + y] = s;
        }
}

static long round_(double x) {
    if (x >= 0.0) return (long)(x + 0.5);
    return -(long)(-x + 0.5);
}
static long lmin(long a, long b) { return a < b ? a : b; }
static long lmax(long a, long b) { return a > b ? a : b; }

#define W 512
#define H 512
static long img[H][W];

int main(void) {
    for (long u = 0; u < 8; u++) {
        double cu = 0.5;
        if (u == 0) cu = 0.5 / sqrt(2.0);
        for (long x = 0; x < 8; x++) T[u * 8 + x] = cu * cosine((double)((2 * x + 1) * u) * PI / 16.0);
    }
    for (long y = 0; y < H; y++)
        for (long x = 0; x < W; x++) {
            long v = (x * 3 + y * 5) / 8 + ((x * y) >> 9) % 64 + rnd() % 24;
            if (x > 100 && x < 260 && y > 50 && y < 180) v = 230 - rnd() % 8;
            if ((x - 380) * (x - 380) + (y - 350) * (y - 350) < 4900) v = 20 + (x + y) % 16;
            img[y][x] = lmin(255, lmax(0, v));
        }
    double blk[64], coef[64], rec[64], tmp[64];
    long q[64];
    long grand = 0;
    long quality = 5;
    while (quality <= 95) {
        long scale = 0;
        if (quality < 50) scale = 5000 / quality; else scale = 200 - 2 * quality;
        for (long i = 0; i < 64; i++) q[i] = lmax(1, (QT[i] * scale + 50) / 100);
        long nonzero = 0, sse = 0;
        for (long by = 0; by < H; by += 8)
            for (long bx = 0; bx < W; bx += 8) {
                for (long y = 0; y < 8; y++)
                    for (long x = 0; x < 8; x++) blk[y * 8 + x] = (double)(img[by + y][bx + x] - 128);
                fdct(blk, coef, tmp);
                for (long i = 0; i < 64; i++) {
                    long c = round_(coef[i] / (double)q[i]);
                    if (c != 0) nonzero += 1;
                    coef[i] = (double)(c * q[i]);
                }
                idct(coef, rec, tmp);
                for (long y = 0; y < 8; y++)
                    for (long x = 0; x < 8; x++) {
                        long p = lmin(255, lmax(0, round_(rec[y * 8 + x]) + 128));
                        long d = p - img[by + y][bx + x];
                        sse += d * d;
                    }
            }
        grand += nonzero * 7 + sse;
        if (quality % 10 == 5) printf("%ld %ld %ld\n", quality, nonzero, sse);
        quality += 1;
    }
    printf("T %ld %ld grand %ld\n", (long)(T[9] * 1000000000000.0), (long)(T[63] * 1000000000000.0), grand);
    return 0;
}
