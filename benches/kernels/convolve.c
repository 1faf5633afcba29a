// 1-D signal processing on [float]: repeated convolution with a small
// symmetric kernel (clamped at the edges), then box blurs computed from
// prefix sums, on a noisy generated signal.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>

static uint64_t seed = 60221;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

// Binomial weights 1 4 6 4 1 ... of width 2r+1, normalized.
static double *make_kernel(int64_t r) {
    double *k = calloc(2 * r + 1, sizeof *k);
    k[0] = 1.0;
    for (int64_t i = 1; i < 2 * r + 1; i++)
        for (int64_t j = i; j > 0; j--) k[j] += k[j - 1];
    double total = 0.0;
    for (int64_t i = 0; i < 2 * r + 1; i++) total += k[i];
    for (int64_t i = 0; i < 2 * r + 1; i++) k[i] /= total;
    return k;
}

static void convolve(const double *src, double *dst, int64_t n, const double *k, int64_t r) {
    for (int64_t i = 0; i < n; i++) {
        double s = 0.0;
        if (i >= r && i + r < n) {
            for (int64_t t = 0; t < 2 * r + 1; t++) s += k[t] * src[i - r + t];
        } else {
            for (int64_t t = 0; t < 2 * r + 1; t++) {
                int64_t j = min64(max64(i - r + t, 0), n - 1);
                s += k[t] * src[j];
            }
        }
        dst[i] = s;
    }
}

// dst[i] = mean of src over the window [i - r, i + r] clipped to the array.
static void box_blur(const double *src, double *dst, double *prefix, int64_t n, int64_t r) {
    prefix[0] = 0.0;
    for (int64_t i = 0; i < n; i++) prefix[i + 1] = prefix[i] + src[i];
    for (int64_t i = 0; i < n; i++) {
        int64_t lo = max64(i - r, 0);
        int64_t hi = min64(i + r + 1, n);
        dst[i] = (prefix[hi] - prefix[lo]) / (double)(hi - lo);
    }
}

static void summary(const double *a, int64_t n) {
    double sum = 0.0, energy = 0.0, peak = a[0];
    for (int64_t i = 0; i < n; i++) {
        sum += a[i];
        energy += a[i] * a[i];
        peak = fmax(peak, a[i]);
    }
    printf("%lld %lld %lld %lld\n", (long long)(sum * 1000.0), (long long)(energy * 1000.0),
           (long long)(peak * 1000000.0), (long long)(a[n / 3] * 1000000.0));
}

int main(void) {
    int64_t n = 1000000;
    double *a = calloc(n, sizeof *a);
    for (int64_t i = 0; i < n; i++) {
        // A slow ramp and a square wave under uniform noise.
        double base = (double)(i % 5000) / 5000.0;
        if ((i / 20000) % 2 == 0) base += 1.0;
        a[i] = base + (double)(next_random() % 2001 - 1000) / 1000.0;
    }
    double *b = calloc(n, sizeof *b);
    summary(a, n);

    int64_t r = 7;
    double *k = make_kernel(r);
    printf("%lld %lld\n", (long long)(k[r] * 1000000000.0), (long long)(k[0] * 1000000000000.0));
    for (int64_t pass = 0; pass < 24; pass++) {
        convolve(a, b, n, k, r);
        double *t = a;
        a = b;
        b = t;
    }
    summary(a, n);

    double *prefix = calloc(n + 1, sizeof *prefix);
    for (int64_t pass = 0; pass < 12; pass++) {
        box_blur(a, b, prefix, n, 25 + pass);
        double *t = a;
        a = b;
        b = t;
    }
    summary(a, n);
    return 0;
}
