// Kahn's topological sort of random DAGs stored as adjacency arrays of
// arrays, followed by a longest-path DP over the order; several graphs, each
// sorted several times with different start values.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static int64_t seed = 8888;

static int64_t next_random(void) {
    seed = seed * 48271 % 2147483647;
    return seed;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

// Out-neighbours and edge weights of every node. Node ranks come from a
// random permutation; each edge goes from the lower to the higher rank.
static void random_dag(int64_t n, int64_t m, int64_t **adj, int64_t **weight, int64_t *len) {
    int64_t *perm = malloc(n * sizeof *perm);
    for (int64_t i = 0; i < n; i++) perm[i] = i;
    for (int64_t i = 0; i < n - 1; i++) {
        int64_t j = i + next_random() % (n - i);
        int64_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    int64_t *from = malloc(m * sizeof *from), *to = malloc(m * sizeof *to);
    int64_t *degree = calloc(n, sizeof *degree);
    for (int64_t e = 0; e < m; e++) {
        int64_t a = next_random() % n;
        int64_t b = next_random() % n;
        while (b == a) b = next_random() % n;
        from[e] = perm[min64(a, b)];
        to[e] = perm[max64(a, b)];
        degree[from[e]] += 1;
    }
    for (int64_t u = 0; u < n; u++) {
        adj[u] = malloc(degree[u] * sizeof(int64_t));
        weight[u] = malloc(degree[u] * sizeof(int64_t));
        len[u] = degree[u];
        degree[u] = 0;
    }
    for (int64_t e = 0; e < m; e++) {
        int64_t u = from[e];
        adj[u][degree[u]] = to[e];
        weight[u][degree[u]] = 1 + next_random() % 100;
        degree[u] += 1;
    }
    free(perm);
    free(from);
    free(to);
    free(degree);
}

// Fills order with a topological order; returns how many nodes it holds.
static int64_t kahn(int64_t n, int64_t **adj, const int64_t *len, int64_t *order) {
    int64_t *indegree = calloc(n, sizeof *indegree);
    for (int64_t u = 0; u < n; u++)
        for (int64_t k = 0; k < len[u]; k++) indegree[adj[u][k]] += 1;
    int64_t tail = 0;
    for (int64_t u = 0; u < n; u++)
        if (indegree[u] == 0) order[tail++] = u;
    int64_t head = 0;
    while (head < tail) {
        int64_t u = order[head++];
        const int64_t *out = adj[u];
        for (int64_t k = 0; k < len[u]; k++) {
            int64_t v = out[k];
            indegree[v] -= 1;
            if (indegree[v] == 0) order[tail++] = v;
        }
    }
    free(indegree);
    return tail;
}

static int64_t longest_path(int64_t n, int64_t **adj, int64_t **weight, const int64_t *len,
                            const int64_t *order, int64_t *dist) {
    int64_t best = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t u = order[i];
        int64_t du = dist[u];
        best = max64(best, du);
        const int64_t *out = adj[u], *w = weight[u];
        for (int64_t k = 0; k < len[u]; k++) {
            int64_t v = out[k];
            dist[v] = max64(dist[v], du + w[k]);
        }
    }
    return best;
}

int main(void) {
    int64_t n = 60000, m = 360000;
    int64_t check = 0;
    for (int64_t graph = 0; graph < 3; graph++) {
        int64_t **adj = malloc(n * sizeof *adj), **weight = malloc(n * sizeof *weight);
        int64_t *len = malloc(n * sizeof *len);
        random_dag(n, m, adj, weight, len);
        int64_t *order = calloc(n, sizeof *order), *dist = calloc(n, sizeof *dist);
        for (int64_t round = 0; round < 20; round++) {
            int64_t count = kahn(n, adj, len, order);
            for (int64_t i = 0; i < n; i++) {
                check = (check * 31 + order[i]) % 1000000007;
                dist[i] = (i * (round + 1)) % 53;
            }
            int64_t longest = longest_path(n, adj, weight, len, order, dist);
            check = (check + longest) % 1000000007;
            if (round == 0)
                printf("%lld %lld %lld\n", (long long)graph, (long long)count, (long long)longest);
        }
        for (int64_t u = 0; u < n; u++) {
            free(adj[u]);
            free(weight[u]);
        }
        free(adj);
        free(weight);
        free(len);
        free(order);
        free(dist);
    }
    printf("%lld\n", (long long)check);
    return 0;
}
