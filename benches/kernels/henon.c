// RK4 integration of the Henon-Heiles system, state [x, y, px, py].
#include <stdio.h>
#include <math.h>

#define N 4

static void deriv(const double *s, double *out) {
    double x = s[0], y = s[1];
    out[0] = s[2];
    out[1] = s[3];
    out[2] = -x - 2.0 * x * y;
    out[3] = -y - x * x + y * y;
}

// r = y + h * k
static void axpy(const double *y, double h, const double *k, double *r) {
    for (long i = 0; i < N; i++) r[i] = y[i] + h * k[i];
}

static void rk4_step(const double *s, double h, double *out) {
    double k1[N], k2[N], k3[N], k4[N], tmp[N];
    deriv(s, k1);
    axpy(s, 0.5 * h, k1, tmp);
    deriv(tmp, k2);
    axpy(s, 0.5 * h, k2, tmp);
    deriv(tmp, k3);
    axpy(s, h, k3, tmp);
    deriv(tmp, k4);
    for (long i = 0; i < N; i++)
        out[i] = s[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

static double energy(const double *s) {
    double x = s[0], y = s[1];
    return 0.5 * (s[2] * s[2] + s[3] * s[3]) + 0.5 * (x * x + y * y)
        + x * x * y - y * y * y / 3.0;
}

int main(void) {
    double h = 0.01;
    long steps = 1000000;
    for (long orbit = 0; orbit < 4; orbit++) {
        double y0 = 0.05 * (double)orbit - 0.1;
        double s[N] = {0.0, y0, 0.35 + 0.02 * (double)orbit, 0.1};
        double e0 = energy(s);
        double maxr = 0.0;
        long crossings = 0;
        for (long t = 0; t < steps; t++) {
            double next[N];
            rk4_step(s, h, next);
            if (s[0] < 0.0 && next[0] >= 0.0) crossings += 1;
            for (long i = 0; i < N; i++) s[i] = next[i];
            double r = sqrt(s[0] * s[0] + s[1] * s[1]);
            maxr = fmax(maxr, r);
        }
        double drift = fabs(energy(s) - e0);
        printf("%ld %ld %ld %ld\n", orbit, (long)(e0 * 1e12), crossings, (long)(maxr * 1e9));
        printf("%ld %ld %ld %ld %ld\n", (long)(s[0] * 1e9), (long)(s[1] * 1e9), (long)(s[2] * 1e9),
               (long)(s[3] * 1e9), (long)(drift * 1e15));
    }
    return 0;
}
