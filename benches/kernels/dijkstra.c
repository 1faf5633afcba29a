// Dijkstra's single-source shortest paths with the textbook O(n^2) scan
// for the closest unvisited vertex, on a random weighted digraph stored as
// an adjacency matrix [[int]]; run from many sources.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t seed = 8086;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

#define INF ((int64_t)1 << 50)

static int64_t **random_graph(int64_t n, int64_t percent) {
    int64_t **w = malloc(n * sizeof *w);
    for (int64_t i = 0; i < n; i++) {
        int64_t *row = malloc(n * sizeof *row);
        for (int64_t j = 0; j < n; j++) row[j] = INF;
        for (int64_t j = 0; j < n; j++)
            if (i != j && next_random() % 100 < percent) row[j] = 1 + next_random() % 1000;
        w[i] = row;
    }
    return w;
}

// Fills dist and parent for paths from source.
static void dijkstra(int64_t **w, int64_t n, int64_t source, int64_t *dist, int64_t *parent) {
    bool *done = calloc(n, sizeof *done);
    for (int64_t i = 0; i < n; i++) {
        dist[i] = INF;
        parent[i] = -1;
    }
    dist[source] = 0;
    for (int64_t round = 0; round < n; round++) {
        int64_t u = -1;
        int64_t best = INF;
        for (int64_t v = 0; v < n; v++) {
            if (!done[v] && dist[v] < best) {
                best = dist[v];
                u = v;
            }
        }
        if (u < 0) break;
        done[u] = true;
        int64_t *row = w[u];
        for (int64_t v = 0; v < n; v++) {
            if (!done[v] && row[v] < INF && best + row[v] < dist[v]) {
                dist[v] = best + row[v];
                parent[v] = u;
            }
        }
    }
    free(done);
}

int main(void) {
    int64_t n = 1500;
    int64_t **w = random_graph(n, 5);
    int64_t *dist = calloc(n, sizeof *dist);
    int64_t *parent = calloc(n, sizeof *parent);
    int64_t total = 0, farthest = 0, hops = 0, unreachable = 0;
    for (int64_t s = 0; s < 60; s++) {
        int64_t source = (s * 97) % n;
        dijkstra(w, n, source, dist, parent);
        for (int64_t v = 0; v < n; v++) {
            if (dist[v] >= INF) {
                unreachable += 1;
            } else {
                total += dist[v];
                if (dist[v] > farthest) farthest = dist[v];
            }
        }
        // Length in edges of the path to the last vertex.
        int64_t v = n - 1;
        while (parent[v] >= 0) {
            hops += 1;
            v = parent[v];
        }
        if (s % 20 == 0)
            printf("%lld %lld %lld %lld\n", (long long)source, (long long)dist[0], (long long)dist[n / 2],
                   (long long)dist[n - 1]);
    }
    printf("%lld %lld %lld %lld\n", (long long)total, (long long)farthest, (long long)hops,
           (long long)unreachable);
    return 0;
}
