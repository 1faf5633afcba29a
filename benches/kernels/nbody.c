// The Benchmarks Game n-body simulation (5 bodies), arrays of floats.
#include <math.h>
#include <stdio.h>
#include <stdint.h>

static const double PI = 3.141592653589793;
#define SOLAR_MASS (4.0 * PI * PI)
static const double DAYS = 365.24;

// Each body: x, y, z, vx, vy, vz, mass.
static double bodies[5][7];

static void body(double *b, double x, double y, double z, double vx, double vy, double vz, double m) {
    b[0] = x; b[1] = y; b[2] = z;
    b[3] = vx * DAYS; b[4] = vy * DAYS; b[5] = vz * DAYS;
    b[6] = m * SOLAR_MASS;
}

static void offset_momentum(void) {
    double px = 0.0, py = 0.0, pz = 0.0;
    for (int i = 0; i < 5; i++) {
        double *b = bodies[i];
        px += b[3] * b[6];
        py += b[4] * b[6];
        pz += b[5] * b[6];
    }
    bodies[0][3] = -px / SOLAR_MASS;
    bodies[0][4] = -py / SOLAR_MASS;
    bodies[0][5] = -pz / SOLAR_MASS;
}

static double energy(void) {
    double e = 0.0;
    for (int i = 0; i < 5; i++) {
        double *b = bodies[i];
        e += 0.5 * b[6] * (b[3] * b[3] + b[4] * b[4] + b[5] * b[5]);
        for (int j = i + 1; j < 5; j++) {
            double *c = bodies[j];
            double dx = b[0] - c[0], dy = b[1] - c[1], dz = b[2] - c[2];
            e -= b[6] * c[6] / sqrt(dx * dx + dy * dy + dz * dz);
        }
    }
    return e;
}

static void advance(double dt) {
    for (int i = 0; i < 5; i++) {
        double *b = bodies[i];
        for (int j = i + 1; j < 5; j++) {
            double *c = bodies[j];
            double dx = b[0] - c[0], dy = b[1] - c[1], dz = b[2] - c[2];
            double d2 = dx * dx + dy * dy + dz * dz;
            double mag = dt / (d2 * sqrt(d2));
            b[3] -= dx * c[6] * mag;
            b[4] -= dy * c[6] * mag;
            b[5] -= dz * c[6] * mag;
            c[3] += dx * b[6] * mag;
            c[4] += dy * b[6] * mag;
            c[5] += dz * b[6] * mag;
        }
    }
    for (int i = 0; i < 5; i++) {
        double *b = bodies[i];
        b[0] += dt * b[3];
        b[1] += dt * b[4];
        b[2] += dt * b[5];
    }
}

int main(void) {
    body(bodies[0], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0);
    body(bodies[1], 4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
         1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
         9.54791938424326609e-04);
    body(bodies[2], 8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
         -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
         2.85885980666130812e-04);
    body(bodies[3], 1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
         2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
         4.36624404335156298e-05);
    body(bodies[4], 1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
         2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
         5.15138902046611451e-05);
    offset_momentum();
    printf("%lld\n", (long long)(energy() * 1000000000.0));
    for (int step = 0; step < 4000000; step++) advance(0.01);
    printf("%lld\n", (long long)(energy() * 1000000000.0));
    return 0;
}
