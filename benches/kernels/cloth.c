// Cloth: a spring-mass grid, 2-D vectors as structs passed by value.
#include <stdio.h>
#include <math.h>

static unsigned long seed = 20240611;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}
static double rndf(void) { return (double)rnd() / 2147483648.0; }

typedef struct { double x, y; } vec2;
static vec2 vec(double x, double y) { vec2 r = {x, y}; return r; }
static vec2 add(vec2 a, vec2 b) { return vec(a.x + b.x, a.y + b.y); }
static vec2 sub(vec2 a, vec2 b) { return vec(a.x - b.x, a.y - b.y); }
static vec2 scale(vec2 a, double s) { return vec(a.x * s, a.y * s); }
static double dot(vec2 a, vec2 b) { return a.x * b.x + a.y * b.y; }
static double length(vec2 a) { return sqrt(dot(a, a)); }

#define W 24
#define H 24
#define N (W * H)
static const double mass = 1.0, k = 400.0, damp = 2.0, floor_y = -30.0;
static vec2 gravity;

static vec2 pos[N], vel[N], force[N];
#define MAXS (4 * N)
static long sa[MAXS], sb[MAXS];
static double rest[MAXS];
static long ns = 0;

static void spring(long a, long b) {
    sa[ns] = a;
    sb[ns] = b;
    rest[ns] = length(sub(pos[b], pos[a]));
    ns += 1;
}

static int pinned(long p) { return p == 0 || p == W - 1; }

static void step(double dt) {
    for (long p = 0; p < N; p++) force[p] = scale(gravity, mass);
    for (long s = 0; s < ns; s++) {
        long a = sa[s], b = sb[s];
        vec2 d = sub(pos[b], pos[a]);
        double l = length(d);
        vec2 fs = scale(d, k * (l - rest[s]) / l);
        vec2 rv = sub(vel[b], vel[a]);
        vec2 fd = scale(d, damp * dot(rv, d) / (l * l));
        vec2 f = add(fs, fd);
        force[a] = add(force[a], f);
        force[b] = sub(force[b], f);
    }
    for (long p = 0; p < N; p++) {
        if (pinned(p)) continue;
        vel[p] = scale(add(vel[p], scale(force[p], dt / mass)), 0.9995);
        pos[p] = add(pos[p], scale(vel[p], dt));
        if (pos[p].y < floor_y) {
            pos[p] = vec(pos[p].x, floor_y);
            vel[p] = vec(vel[p].x * 0.8, -vel[p].y * 0.5);
        }
    }
}

static void report(long t) {
    vec2 c = vec(0.0, 0.0);
    double e = 0.0;
    for (long p = 0; p < N; p++) {
        c = add(c, pos[p]);
        e += 0.5 * mass * dot(vel[p], vel[p]);
    }
    c = scale(c, 1.0 / (double)N);
    printf("%ld %ld %ld %ld\n", t, (long)(c.x * 1000000.0), (long)(c.y * 1000000.0), (long)(e * 1000.0));
}

int main(void) {
    gravity = vec(0.0, -9.81);
    for (long j = 0; j < H; j++)
        for (long i = 0; i < W; i++) {
            long p = j * W + i;
            double rx = rndf();
            double ry = rndf();
            pos[p] = vec((double)i + 0.05 * (rx - 0.5), -(double)j + 0.05 * (ry - 0.5));
            vel[p] = vec(0.0, 0.0);
            force[p] = vec(0.0, 0.0);
        }
    for (long j = 0; j < H; j++)
        for (long i = 0; i < W; i++) {
            long p = j * W + i;
            if (i + 1 < W) spring(p, p + 1);
            if (j + 1 < H) spring(p, p + W);
            if (i + 1 < W && j + 1 < H) spring(p, p + W + 1);
            if (i > 0 && j + 1 < H) spring(p, p + W - 1);
        }
    printf("springs %ld\n", ns);
    long steps = 50000;
    for (long t = 0; t < steps; t++) {
        step(0.002);
        if ((t + 1) % 10000 == 0) report(t + 1);
    }
    return 0;
}
