// Breadth-first search on a random 2-D maze from many start cells, with an
// explicit queue of cell indices y * W + x.
#include <stdio.h>
#include <stdbool.h>

static unsigned long seed = 777;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

#define W 200
#define H 180
static bool wall[H][W];
static long dist[H][W];
static long queue[W * H];
static const long dx[4] = {1, -1, 0, 0};
static const long dy[4] = {0, 0, 1, -1};
static long reached = 0, farthest = 0;

static long bfs(long sx, long sy) {
    for (long y = 0; y < H; y++)
        for (long x = 0; x < W; x++) dist[y][x] = -1;
    long head = 0, tail = 0;
    queue[tail++] = sy * W + sx;
    dist[sy][sx] = 0;
    long total = 0;
    farthest = 0;
    while (head < tail) {
        long cell = queue[head++];
        long x = cell % W, y = cell / W;
        long d = dist[y][x];
        total += d;
        if (d > farthest) farthest = d;
        for (long k = 0; k < 4; k++) {
            long nx = x + dx[k], ny = y + dy[k];
            if (nx >= 0 && nx < W && ny >= 0 && ny < H) {
                if (!wall[ny][nx] && dist[ny][nx] < 0) {
                    dist[ny][nx] = d + 1;
                    queue[tail++] = ny * W + nx;
                }
            }
        }
    }
    reached = tail;
    return total;
}

int main(void) {
    for (long y = 0; y < H; y++)
        for (long x = 0; x < W; x++) wall[y][x] = rnd() % 100 < 30;
    long starts = 800, grand = 0, best = 0, check = 0;
    for (long s = 0; s < starts; s++) {
        long sx = rnd() % W;
        long sy = rnd() % H;
        while (wall[sy][sx]) {
            sx = rnd() % W;
            sy = rnd() % H;
        }
        long total = bfs(sx, sy);
        grand += total;
        if (farthest > best) best = farthest;
        check = (check * 31 + reached * 7 + farthest) % 1000000007;
        if (s % 160 == 0) printf("%ld %ld %ld %ld %ld %ld\n", s, sx, sy, reached, farthest, total);
    }
    printf("%ld %ld %ld\n", grand, best, check);
    return 0;
}
