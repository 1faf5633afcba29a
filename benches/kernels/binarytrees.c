// Binary-trees allocation benchmark: every node is a fresh malloc'd pair
// holding the pool indices of its children (-1 for a leaf). Many short-lived
// trees are built and checked recursively; one long-lived tree stays alive.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static int64_t next_id = 0;

static int64_t build(int64_t **pool, int64_t depth) {
    int64_t id = next_id;
    next_id += 1;
    int64_t *node = malloc(2 * sizeof(int64_t));
    if (depth == 0) {
        node[0] = -1;
        node[1] = -1;
        pool[id] = node;
        return id;
    }
    int64_t l = build(pool, depth - 1);
    int64_t r = build(pool, depth - 1);
    node[0] = l;
    node[1] = r;
    pool[id] = node;
    return id;
}

static int64_t check(int64_t **pool, int64_t id) {
    int64_t *node = pool[id];
    if (node[0] < 0) return 1;
    return 1 + check(pool, node[0]) + check(pool, node[1]);
}

typedef struct { int64_t **pool; int64_t size; } Tree;

static Tree make_tree(int64_t depth) {
    Tree t;
    t.size = ((int64_t)1 << (depth + 1)) - 1;
    t.pool = malloc(t.size * sizeof(int64_t *));
    next_id = 0;
    build(t.pool, depth);
    return t;
}

static void free_tree(Tree t) {
    for (int64_t i = 0; i < t.size; i++) free(t.pool[i]);
    free(t.pool);
}

int main(void) {
    int64_t min_depth = 4, max_depth = 16, stretch_depth = max_depth + 1;
    Tree stretch = make_tree(stretch_depth);
    printf("stretch tree of depth %lld check: %lld\n", (long long)stretch_depth,
           (long long)check(stretch.pool, 0));
    free_tree(stretch);
    Tree long_lived = make_tree(max_depth);
    for (int64_t depth = min_depth; depth <= max_depth; depth += 2) {
        int64_t iterations = (int64_t)1 << (max_depth - depth + min_depth);
        int64_t total = 0;
        for (int64_t i = 0; i < iterations; i++) {
            Tree t = make_tree(depth);
            total += check(t.pool, 0);
            free_tree(t);
        }
        printf("%lld trees of depth %lld check: %lld\n", (long long)iterations,
               (long long)depth, (long long)total);
    }
    printf("long lived tree of depth %lld check: %lld\n", (long long)max_depth,
           (long long)check(long_lived.pool, 0));
    free_tree(long_lived);
    return 0;
}
