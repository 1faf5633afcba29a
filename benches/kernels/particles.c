// 2-D soft-disc particles in a box under gravity; 2-D vectors as structs.
#include <stdio.h>
#include <math.h>

static unsigned long seed = 4242;
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

#define NP 360
static const long n = NP;
static const double box = 24.0, rc = 1.0, stiff = 200.0, dt = 0.004;
static vec2 gravity;
static vec2 pos[NP], vel[NP], acc[NP];
static long contacts = 0;

static void forces(void) {
    for (long i = 0; i < n; i++) acc[i] = gravity;
    for (long i = 0; i < n; i++)
        for (long j = i + 1; j < n; j++) {
            vec2 d = sub(pos[j], pos[i]);
            double r2 = dot(d, d);
            if (r2 < rc * rc && r2 > 0.0) {
                double r = sqrt(r2);
                vec2 f = scale(d, stiff * (rc - r) / r);
                acc[i] = sub(acc[i], f);
                acc[j] = add(acc[j], f);
                contacts += 1;
            }
        }
}

static void move(void) {
    for (long i = 0; i < n; i++) {
        vel[i] = add(vel[i], scale(acc[i], dt));
        pos[i] = add(pos[i], scale(vel[i], dt));
        vec2 p = pos[i], v = vel[i];
        if (p.x < 0.0) {
            pos[i] = vec(-p.x, p.y);
            vel[i] = vec(-0.9 * v.x, v.y);
        } else if (p.x > box) {
            pos[i] = vec(2.0 * box - p.x, p.y);
            vel[i] = vec(-0.9 * v.x, v.y);
        }
        p = pos[i];
        v = vel[i];
        if (p.y < 0.0) {
            pos[i] = vec(p.x, -p.y);
            vel[i] = vec(v.x, -0.9 * v.y);
        } else if (p.y > box) {
            pos[i] = vec(p.x, 2.0 * box - p.y);
            vel[i] = vec(v.x, -0.9 * v.y);
        }
    }
}

static void report(long t) {
    vec2 c = vec(0.0, 0.0);
    double ke = 0.0;
    for (long i = 0; i < n; i++) {
        c = add(c, pos[i]);
        ke += 0.5 * dot(vel[i], vel[i]);
    }
    c = scale(c, 1.0 / (double)n);
    printf("%ld %ld %ld %ld %ld\n", t, contacts, (long)(c.x * 1e6), (long)(c.y * 1e6), (long)(ke * 1e6));
}

int main(void) {
    gravity = vec(0.0, -2.0);
    for (long i = 0; i < n; i++) {
        double x = box * rndf();
        double y = box * rndf();
        pos[i] = vec(x, y);
        double vx = rndf() - 0.5;
        double vy = rndf() - 0.5;
        vel[i] = vec(vx, vy);
        acc[i] = vec(0.0, 0.0);
    }
    long steps = 5000;
    for (long t = 0; t < steps; t++) {
        forces();
        move();
        if ((t + 1) % 1000 == 0) report(t + 1);
    }
    return 0;
}
