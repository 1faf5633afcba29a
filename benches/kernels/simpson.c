// Adaptive Simpson integration (recursive, many double arguments) of a few functions.
#include <stdio.h>
#include <math.h>

static long evals = 0;

static double f(long k, double x) {
    evals += 1;
    if (k == 0) return x * x * x - 2.0 * x + 1.0;
    else if (k == 1) return 1.0 / (1.0 + x * x);
    else if (k == 2) return (x * x + 1.0) / (x * x * x * x + x + 3.0);
    else if (k == 3) return 1.0 / (1.0 + 25.0 * x * x);
    else return x / (3.0 + x) - x * x * x * x * x * 0.01;
}

static double asr(long k, double a, double b, double eps, double whole, double fa, double fm, double fb, long depth) {
    double m = (a + b) / 2.0;
    double lm = (a + m) / 2.0;
    double rm = (m + b) / 2.0;
    double flm = f(k, lm);
    double frm = f(k, rm);
    double left = (m - a) / 6.0 * (fa + 4.0 * flm + fm);
    double right = (b - m) / 6.0 * (fm + 4.0 * frm + fb);
    double delta = left + right - whole;
    if (depth <= 0 || fabs(delta) <= 15.0 * eps) return left + right + delta / 15.0;
    double l = asr(k, a, m, eps / 2.0, left, fa, flm, fm, depth - 1);
    double r = asr(k, m, b, eps / 2.0, right, fm, frm, fb, depth - 1);
    return l + r;
}

static double integrate(long k, double a, double b, double eps) {
    double fa = f(k, a);
    double fb = f(k, b);
    double m = (a + b) / 2.0;
    double fm = f(k, m);
    double whole = (b - a) / 6.0 * (fa + 4.0 * fm + fb);
    return asr(k, a, b, eps, whole, fa, fm, fb, 40);
}

int main(void) {
    double total = 0.0;
    long rounds = 12000;
    for (long k = 0; k < 5; k++) {
        double sum = 0.0;
        for (long r = 0; r < rounds; r++) {
            double a = -1.0 + (double)r * 0.0001;
            double b = 2.0 + (double)(r % 7) * 0.25;
            sum += integrate(k, a, b, 0.000000000001);
        }
        total += sum;
        printf("%ld %ld %ld\n", k, (long)(sum * 1000000.0), evals);
    }
    printf("total %ld evals %ld\n", (long)(total * 1000000.0), evals);
    return 0;
}
