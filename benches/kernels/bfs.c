// Breadth-first search with an array queue on a random maze-like grid:
// distances from several sources, four neighbours per cell.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t seed = 31337;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static const int64_t width = 1000, height = 1000, cells = 1000 * 1000;
static bool *wall;
static int64_t *dist, *queue;
static const int64_t dx[4] = {1, -1, 0, 0};
static const int64_t dy[4] = {0, 0, 1, -1};

// Fills `dist` (-1 for unreached) and returns the number of reached cells.
static int64_t bfs(int64_t sx, int64_t sy) {
    for (int64_t i = 0; i < cells; i++) dist[i] = -1;
    int64_t start = sy * width + sx;
    wall[start] = false;
    dist[start] = 0;
    queue[0] = start;
    int64_t head = 0, tail = 1;
    while (head < tail) {
        int64_t cell = queue[head];
        head += 1;
        int64_t x = cell % width;
        int64_t y = cell / width;
        for (int64_t d = 0; d < 4; d++) {
            int64_t nx = x + dx[d];
            int64_t ny = y + dy[d];
            if (nx >= 0 && nx < width && ny >= 0 && ny < height) {
                int64_t next = ny * width + nx;
                if (!wall[next] && dist[next] < 0) {
                    dist[next] = dist[cell] + 1;
                    queue[tail] = next;
                    tail += 1;
                }
            }
        }
    }
    return tail;
}

int main(void) {
    wall = malloc(cells * sizeof *wall);
    for (int64_t i = 0; i < cells; i++) wall[i] = next_random() % 100 < 30;
    dist = calloc(cells, sizeof *dist);
    queue = calloc(cells, sizeof *queue);
    uint64_t check = 0;
    for (int64_t source = 0; source < 12; source++) {
        int64_t sx = next_random() % width;
        int64_t sy = next_random() % height;
        int64_t reached = bfs(sx, sy);
        int64_t far = 0, sum = 0;
        for (int64_t i = 0; i < cells; i++) {
            if (dist[i] > far) far = dist[i];
            if (dist[i] > 0) sum += dist[i];
        }
        printf("%lld %lld %lld %lld %lld\n", (long long)sx, (long long)sy, (long long)reached,
               (long long)far, (long long)sum);
        check = check * 1000003 + (uint64_t)sum;
    }
    printf("%lld\n", (long long)(int64_t)check);
    return 0;
}
