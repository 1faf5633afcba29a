// Mandelbrot: escape-time iteration counts over a grid (float arithmetic).
#include <stdio.h>
#include <stdint.h>

static int64_t escape(double cr, double ci, int64_t limit) {
    double zr = 0.0, zi = 0.0;
    for (int64_t n = 0; n < limit; n++) {
        double zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0) return n;
        zi = 2.0 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
    }
    return limit;
}

int main(void) {
    int64_t size = 1200, total = 0;
    for (int64_t y = 0; y < size; y++) {
        double ci = 2.0 * (double)y / (double)size - 1.0;
        for (int64_t x = 0; x < size; x++) {
            double cr = 2.5 * (double)x / (double)size - 2.0;
            total += escape(cr, ci, 200);
        }
    }
    printf("%lld\n", (long long)total);
    return 0;
}
