// A tiny ray tracer: spheres on a big "floor" sphere, one point light with
// hard shadows, Phong highlights and mirror reflections, 4x4 supersampling.
// Prints an integer checksum of the 8-bit pixel values.
#include <stdio.h>
#include <stdint.h>
#include <math.h>

#define NS 6
static const double cx[NS] = {0.0, -1.6, 0.0, 1.6, 0.8, -0.7};
static const double cy[NS] = {-1000.0, 0.0, 0.3, 0.0, -0.55, -0.6};
static const double cz[NS] = {0.0, 5.0, 6.5, 5.0, 3.6, 3.4};
static const double cr[NS] = {999.0, 1.0, 1.3, 1.0, 0.45, 0.4};
static const double colr[NS] = {0.8, 0.9, 0.3, 0.2, 1.0, 0.6};
static const double colg[NS] = {0.8, 0.2, 0.9, 0.4, 0.8, 0.6};
static const double colb[NS] = {0.7, 0.2, 0.3, 0.95, 0.1, 0.9};
static const double refl[NS] = {0.25, 0.3, 0.5, 0.2, 0.0, 0.7};

static const double lx = -4.0, ly = 6.0, lz = 0.0;

static double hit_t = 0.0;

static double dot3(double ax, double ay, double az, double bx, double by, double bz) {
    return ax * bx + ay * by + az * bz;
}

static void normalize(double *v) {
    double l = sqrt(dot3(v[0], v[1], v[2], v[0], v[1], v[2]));
    v[0] = v[0] / l;
    v[1] = v[1] / l;
    v[2] = v[2] / l;
}

// Distance along the ray to sphere i, or -1.0 on a miss.
static double hit_sphere(int64_t i, double ox, double oy, double oz, double dx, double dy, double dz) {
    double px = ox - cx[i], py = oy - cy[i], pz = oz - cz[i];
    double b = dot3(px, py, pz, dx, dy, dz);
    double c = dot3(px, py, pz, px, py, pz) - cr[i] * cr[i];
    double disc = b * b - c;
    if (disc < 0.0) return -1.0;
    double s = sqrt(disc);
    double t = -b - s;
    if (t > 0.0001) return t;
    t = -b + s;
    if (t > 0.0001) return t;
    return -1.0;
}

// Index of the nearest sphere hit (distance left in hit_t), or -1.
static int64_t nearest(double ox, double oy, double oz, double dx, double dy, double dz) {
    int64_t best = -1;
    hit_t = 1e30;
    for (int64_t i = 0; i < NS; i++) {
        double t = hit_sphere(i, ox, oy, oz, dx, dy, dz);
        if (t > 0.0 && t < hit_t) {
            hit_t = t;
            best = i;
        }
    }
    return best;
}

// Adds weight * (colour seen along the ray) into col.
static void trace(double ox, double oy, double oz, double dx, double dy, double dz, int64_t depth,
                  double weight, double *col) {
    int64_t i = nearest(ox, oy, oz, dx, dy, dz);
    if (i < 0) {
        double sky = 0.5 + 0.5 * dy;
        col[0] += weight * (0.3 + 0.4 * sky);
        col[1] += weight * (0.5 + 0.3 * sky);
        col[2] += weight * (0.9 + 0.1 * sky);
        return;
    }
    double t = hit_t;
    double px = ox + t * dx, py = oy + t * dy, pz = oz + t * dz;
    double n[3] = {(px - cx[i]) / cr[i], (py - cy[i]) / cr[i], (pz - cz[i]) / cr[i]};
    double l[3] = {lx - px, ly - py, lz - pz};
    double dist = sqrt(dot3(l[0], l[1], l[2], l[0], l[1], l[2]));
    normalize(l);
    double diffuse = dot3(n[0], n[1], n[2], l[0], l[1], l[2]);
    double spec = 0.0;
    if (diffuse < 0.0) {
        diffuse = 0.0;
    } else {
        int64_t s = nearest(px, py, pz, l[0], l[1], l[2]);
        if (s >= 0 && hit_t < dist) {
            diffuse = 0.0;
        } else {
            double dn = dot3(dx, dy, dz, n[0], n[1], n[2]);
            double rx = dx - 2.0 * dn * n[0];
            double ry = dy - 2.0 * dn * n[1];
            double rz = dz - 2.0 * dn * n[2];
            double rl = dot3(rx, ry, rz, l[0], l[1], l[2]);
            if (rl > 0.0) {
                double p = rl * rl;
                p = p * p;
                p = p * p;
                p = p * p;
                spec = 0.6 * p;
            }
        }
    }
    // Checkerboard on the floor.
    double shade = 1.0;
    if (i == 0) {
        int64_t ix = (int64_t)(px + 1000.0);
        int64_t iz = (int64_t)(pz + 1000.0);
        if ((ix + iz) % 2 == 0) shade = 0.55;
    }
    double k = 1.0 - refl[i];
    double light = 0.15 + 0.85 * diffuse;
    col[0] += weight * k * (colr[i] * shade * light + spec);
    col[1] += weight * k * (colg[i] * shade * light + spec);
    col[2] += weight * k * (colb[i] * shade * light + spec);
    if (depth < 4 && refl[i] > 0.0) {
        double dn = dot3(dx, dy, dz, n[0], n[1], n[2]);
        double rx = dx - 2.0 * dn * n[0];
        double ry = dy - 2.0 * dn * n[1];
        double rz = dz - 2.0 * dn * n[2];
        trace(px, py, pz, rx, ry, rz, depth + 1, weight * refl[i], col);
    }
}

static int64_t to_byte(double c) {
    double v = c;
    if (v > 1.0) v = 1.0;
    if (v < 0.0) v = 0.0;
    return (int64_t)(v * 255.0 + 0.5);
}

int main(void) {
    int64_t width = 200, height = 150, ss = 4, frames = 8;
    int64_t checksum = 0;
    int64_t histogram[8] = {0};
    for (int64_t f = 0; f < frames; f++) {
        // The camera moves sideways a little each frame.
        double camx = -0.4 + 0.1 * (double)f;
        int64_t frame_sum = 0;
        for (int64_t y = 0; y < height; y++) {
            for (int64_t x = 0; x < width; x++) {
                double col[3] = {0.0, 0.0, 0.0};
                for (int64_t sy = 0; sy < ss; sy++) {
                    for (int64_t sx = 0; sx < ss; sx++) {
                        double u = ((double)x + ((double)sx + 0.5) / (double)ss) / (double)width * 2.0 - 1.0;
                        double v = 1.0 - ((double)y + ((double)sy + 0.5) / (double)ss) / (double)height * 2.0;
                        double d[3] = {u * 1.3333, v, 1.5};
                        normalize(d);
                        trace(camx, 0.6, 0.0, d[0], d[1], d[2], 0, 1.0 / (double)(ss * ss), col);
                    }
                }
                int64_t r = to_byte(col[0]), g = to_byte(col[1]), b = to_byte(col[2]);
                frame_sum += r + g + b;
                checksum = (checksum * 31 + r * 65536 + g * 256 + b) % 1000000007;
                histogram[(r + g + b) / 96] += 1;
            }
        }
        printf("%lld %lld\n", (long long)f, (long long)frame_sum);
    }
    printf("%lld\n", (long long)checksum);
    printf("[");
    for (int i = 0; i < 8; i++) printf(i ? ", %lld" : "%lld", (long long)histogram[i]);
    printf("]\n");
    return 0;
}
