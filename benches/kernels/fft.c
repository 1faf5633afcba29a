// Iterative radix-2 complex FFT on separate re/im float arrays: bit-reversal
// permutation, butterflies with a twiddle table built from Taylor series,
// repeated forward transform, spectral filter, inverse transform.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>

static const double PI = 3.141592653589793;

static double sin_taylor(double x) {
    double x2 = x * x, term = x, sum = x;
    for (int64_t k = 1; k < 30; k++) {
        term = -term * x2 / (double)((2 * k) * (2 * k + 1));
        sum += term;
    }
    return sum;
}

static double cos_taylor(double x) {
    double x2 = x * x, term = 1.0, sum = 1.0;
    for (int64_t k = 1; k < 30; k++) {
        term = -term * x2 / (double)((2 * k - 1) * (2 * k));
        sum += term;
    }
    return sum;
}

static int64_t seed = 12345;

static int64_t next_random(void) {
    seed = seed * 48271 % 2147483647;
    return seed;
}

static double *cos_table, *sin_table;

static void fft(double *re, double *im, int64_t n, int inverse) {
    int64_t j = 0;
    for (int64_t i = 1; i < n; i++) {
        int64_t bit = n >> 1;
        while (j & bit) {
            j ^= bit;
            bit >>= 1;
        }
        j ^= bit;
        if (i < j) {
            double t = re[i]; re[i] = re[j]; re[j] = t;
            t = im[i]; im[i] = im[j]; im[j] = t;
        }
    }
    for (int64_t size = 2; size <= n; size *= 2) {
        int64_t half = size / 2, step = n / size;
        for (int64_t start = 0; start < n; start += size) {
            for (int64_t k = 0; k < half; k++) {
                double wr = cos_table[k * step];
                double wi = sin_table[k * step];
                if (!inverse) wi = -wi;
                int64_t a = start + k, b = a + half;
                double xr = re[b] * wr - im[b] * wi;
                double xi = re[b] * wi + im[b] * wr;
                re[b] = re[a] - xr;
                im[b] = im[a] - xi;
                re[a] += xr;
                im[a] += xi;
            }
        }
    }
    if (inverse) {
        double scale = 1.0 / (double)n;
        for (int64_t i = 0; i < n; i++) {
            re[i] *= scale;
            im[i] *= scale;
        }
    }
}

int main(void) {
    int64_t n = 1 << 16;
    cos_table = malloc(n / 2 * sizeof(double));
    sin_table = malloc(n / 2 * sizeof(double));
    for (int64_t k = 0; k < n / 2; k++) {
        double angle = 2.0 * PI * (double)k / (double)n;
        cos_table[k] = cos_taylor(angle);
        sin_table[k] = sin_taylor(angle);
    }
    double *re = calloc(n, sizeof(double)), *im = calloc(n, sizeof(double));
    for (int64_t i = 0; i < n; i++) re[i] = (double)next_random() / 2147483647.0 * 2.0 - 1.0;
    // A gentle low-pass filter applied in the frequency domain.
    double *filter = malloc(n * sizeof(double));
    for (int64_t k = 0; k < n; k++) {
        int64_t f = k < n - k ? k : n - k;
        filter[k] = 1.0 / (1.0 + (double)f / (double)n);
    }
    double energy = 0.0;
    int64_t peak = 0;
    for (int round = 0; round < 60; round++) {
        fft(re, im, n, 0);
        double e = 0.0, best = 0.0;
        for (int64_t k = 0; k < n; k++) {
            double p = re[k] * re[k] + im[k] * im[k];
            e += p;
            if (p > best) {
                best = p;
                peak = k;
            }
            re[k] *= filter[k];
            im[k] *= filter[k];
        }
        energy += e / (double)n;
        fft(re, im, n, 1);
    }
    double sum_re = 0.0, sum_abs = 0.0;
    for (int64_t i = 0; i < n; i++) {
        sum_re += re[i];
        sum_abs += fabs(re[i]) + fabs(im[i]);
    }
    printf("%lld %lld\n", (long long)(energy * 1000000.0), (long long)peak);
    printf("%lld %lld\n", (long long)(sum_re * 1000000000.0), (long long)(sum_abs * 1000000.0));
    return 0;
}
