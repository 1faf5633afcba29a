// Classical fourth-order Runge–Kutta integration of two coupled, damped
// Duffing oscillators; the right-hand side takes ten arguments.
// State: x1, v1, x2, v2.
#include <stdio.h>
#include <stdint.h>
#include <math.h>

static void derivative(const double *y, double *out, double a1, double b1, double d1,
                       double a2, double b2, double d2, double coupling, double force) {
    double x1 = y[0], v1 = y[1], x2 = y[2], v2 = y[3];
    out[0] = v1;
    out[1] = -d1 * v1 - a1 * x1 - b1 * x1 * x1 * x1 + coupling * (x2 - x1) + force;
    out[2] = v2;
    out[3] = -d2 * v2 - a2 * x2 - b2 * x2 * x2 * x2 + coupling * (x1 - x2);
}

static void rk4_step(double *y, int64_t n, double h, double *k1, double *k2, double *k3,
                     double *k4, double *tmp, const double *p) {
    derivative(y, k1, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
    for (int64_t i = 0; i < n; i++) tmp[i] = y[i] + 0.5 * h * k1[i];
    derivative(tmp, k2, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
    for (int64_t i = 0; i < n; i++) tmp[i] = y[i] + 0.5 * h * k2[i];
    derivative(tmp, k3, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
    for (int64_t i = 0; i < n; i++) tmp[i] = y[i] + h * k3[i];
    derivative(tmp, k4, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
    for (int64_t i = 0; i < n; i++)
        y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

static double energy(const double *y, const double *p) {
    double x1 = y[0], x2 = y[2];
    double kinetic = 0.5 * (y[1] * y[1] + y[3] * y[3]);
    double potential = 0.5 * p[0] * x1 * x1 + 0.25 * p[1] * x1 * x1 * x1 * x1
        + 0.5 * p[3] * x2 * x2 + 0.25 * p[4] * x2 * x2 * x2 * x2
        + 0.5 * p[6] * (x1 - x2) * (x1 - x2);
    return kinetic + potential;
}

int main(void) {
    double k1[4] = {0}, k2[4] = {0}, k3[4] = {0}, k4[4] = {0}, tmp[4] = {0};
    double h = 0.001;
    for (int64_t run = 0; run < 3; run++) {
        double y[4] = {1.0, 0.0, -0.5 + 0.25 * (double)run, 0.1};
        double force = 0.05 * (double)run;
        double p[8] = {1.0, 0.5, 0.002, 1.5, 0.25, 0.003, 0.2 + 0.1 * (double)run, force};
        double peak = 0.0;
        for (int64_t step = 0; step < 2000000; step++) {
            rk4_step(y, 4, h, k1, k2, k3, k4, tmp, p);
            if (fabs(y[0]) > peak) peak = fabs(y[0]);
        }
        printf("%lld %lld %lld %lld\n", (long long)(y[0] * 1e12), (long long)(y[1] * 1e12),
               (long long)(y[2] * 1e12), (long long)(y[3] * 1e12));
        printf("%lld %lld\n", (long long)(energy(y, p) * 1e12), (long long)(peak * 1e12));
    }
    return 0;
}
