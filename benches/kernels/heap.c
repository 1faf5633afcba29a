// A binary min-heap priority queue on an int array: the "hold" model of
// event simulation (pop the earliest event, schedule a later one), then
// draining the queue in order.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t seed = 5150;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

// Adds key to heap[0..n]; the caller's count becomes n + 1.
static void push(int64_t *heap, int64_t n, int64_t key) {
    int64_t i = n;
    while (i > 0) {
        int64_t parent = (i - 1) / 2;
        if (heap[parent] <= key) break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = key;
}

// Removes and returns the smallest key of heap[0..n].
static int64_t pop(int64_t *heap, int64_t n) {
    int64_t top = heap[0];
    int64_t last = heap[n - 1];
    int64_t size = n - 1;
    int64_t i = 0;
    for (;;) {
        int64_t child = 2 * i + 1;
        if (child >= size) break;
        if (child + 1 < size && heap[child + 1] < heap[child]) child += 1;
        if (last <= heap[child]) break;
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = last;
    return top;
}

int main(void) {
    int64_t capacity = 400000;
    int64_t *heap = calloc(capacity, sizeof *heap);
    int64_t check = 0;
    for (int64_t round = 0; round < 3; round++) {
        int64_t n = 0;
        int64_t events = 100000 * (round + 1);
        for (int64_t e = 0; e < events; e++) {
            // Key: time in the high bits, event id in the low 20.
            push(heap, n, (next_random() % 100000) * 1048576 + e);
            n += 1;
        }
        int64_t now = 0, handled = 0;
        for (int64_t step = 0; step < 1000000; step++) {
            int64_t key = pop(heap, n);
            n -= 1;
            int64_t time = key / 1048576;
            if (time < now) printf("out of order %lld\n", (long long)step);
            now = time;
            handled += key % 1048576;
            int64_t a = next_random() % 1000;
            int64_t b = next_random() % 1000;
            int64_t delay = 1 + a + b;
            push(heap, n, (now + delay) * 1048576 + key % 1048576);
            n += 1;
        }
        int64_t last = -1;
        bool sorted = true;
        uint64_t sum = 0;
        while (n > 0) {
            int64_t key = pop(heap, n);
            n -= 1;
            if (key < last) sorted = false;
            last = key;
            sum = sum * 31 + (uint64_t)key;
        }
        printf("%lld %lld %lld %s %lld\n", (long long)events, (long long)now, (long long)handled,
               sorted ? "true" : "false", (long long)(int64_t)sum);
        check ^= (int64_t)sum;
    }
    printf("%lld\n", (long long)check);
    return 0;
}
