// Lloyd's k-means on 2-D points held in parallel double arrays: points are
// drawn around hidden centres with LCG noise; centroids start at the first
// k points; a fixed number of iterations. Prints integer checksums.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 12345;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static double uniform(void) { return (double)next_random() / 2147483648.0; }

int main(void) {
    int64_t n = 300000, k = 12, iters = 80;
    double *px = calloc(n, sizeof *px), *py = calloc(n, sizeof *py);
    double *hx = calloc(k, sizeof *hx), *hy = calloc(k, sizeof *hy);
    for (int64_t c = 0; c < k; c++) {
        hx[c] = uniform() * 100.0;
        hy[c] = uniform() * 100.0;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t c = next_random() % k;
        // roughly bell-shaped noise: sum of four uniforms (left-to-right calls)
        double nx = uniform();
        nx += uniform(); nx += uniform(); nx += uniform(); nx -= 2.0;
        double ny = uniform();
        ny += uniform(); ny += uniform(); ny += uniform(); ny -= 2.0;
        px[i] = hx[c] + 6.0 * nx;
        py[i] = hy[c] + 6.0 * ny;
    }
    double *cx = calloc(k, sizeof *cx), *cy = calloc(k, sizeof *cy);
    for (int64_t c = 0; c < k; c++) {
        cx[c] = px[c];
        cy[c] = py[c];
    }
    int64_t *assign = calloc(n, sizeof *assign);
    double *sx = calloc(k, sizeof *sx), *sy = calloc(k, sizeof *sy);
    int64_t *cnt = calloc(k, sizeof *cnt);
    for (int64_t it = 0; it < iters; it++) {
        int64_t changed = 0;
        double inertia = 0.0;
        for (int64_t c = 0; c < k; c++) {
            sx[c] = 0.0;
            sy[c] = 0.0;
            cnt[c] = 0;
        }
        for (int64_t i = 0; i < n; i++) {
            double x = px[i], y = py[i];
            int64_t best = 0;
            double bestd = 1e300;
            for (int64_t c = 0; c < k; c++) {
                double dx = x - cx[c], dy = y - cy[c];
                double d = dx * dx + dy * dy;
                if (d < bestd) {
                    bestd = d;
                    best = c;
                }
            }
            if (assign[i] != best) {
                changed += 1;
                assign[i] = best;
            }
            inertia += bestd;
            sx[best] += x;
            sy[best] += y;
            cnt[best] += 1;
        }
        for (int64_t c = 0; c < k; c++) {
            if (cnt[c] > 0) {
                cx[c] = sx[c] / (double)cnt[c];
                cy[c] = sy[c] / (double)cnt[c];
            }
        }
        if (it % 20 == 19)
            printf("%lld %lld %lld\n", (long long)it, (long long)changed,
                   (long long)(inertia * 1000.0));
    }
    for (int64_t c = 0; c < k; c++)
        printf("%lld %lld %lld %lld\n", (long long)c, (long long)cnt[c],
               (long long)(cx[c] * 1000000.0), (long long)(cy[c] * 1000000.0));
    return 0;
}
