#include <stdio.h>
#include <stdlib.h>

static unsigned long seed = 31337;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

#define NSYM 2048L
static long weight[2 * NSYM], parent[2 * NSYM], heap[2 * NSYM];
static long heap_size = 0;
static long lengths[NSYM];

static long lmax(long a, long b) { return a > b ? a : b; }

static int less(long a, long b) {
    return weight[a] < weight[b] || (weight[a] == weight[b] && a < b);
}

static void heap_push(long node) {
    long i = heap_size;
    heap_size += 1;
    heap[i] = node;
    while (i > 0) {
        long p = (i - 1) / 2;
        if (less(heap[i], heap[p])) {
            long t = heap[i];
            heap[i] = heap[p];
            heap[p] = t;
            i = p;
        } else {
            break;
        }
    }
}

static long heap_pop(void) {
    long top = heap[0];
    heap_size -= 1;
    heap[0] = heap[heap_size];
    long i = 0;
    for (;;) {
        long l = 2 * i + 1;
        long r = l + 1;
        long m = i;
        if (l < heap_size && less(heap[l], heap[m])) m = l;
        if (r < heap_size && less(heap[r], heap[m])) m = r;
        if (m == i) break;
        long t = heap[i];
        heap[i] = heap[m];
        heap[m] = t;
        i = m;
    }
    return top;
}

static long build(long n) {
    heap_size = 0;
    for (long i = 0; i < n; i++) {
        parent[i] = -1;
        heap_push(i);
    }
    long next = n;
    while (heap_size > 1) {
        long a = heap_pop();
        long b = heap_pop();
        weight[next] = weight[a] + weight[b];
        parent[next] = -1;
        parent[a] = next;
        parent[b] = next;
        heap_push(next);
        next += 1;
    }
    long bits = 0;
    for (long i = 0; i < n; i++) {
        long d = 0;
        long p = i;
        while (parent[p] != -1) {
            d += 1;
            p = parent[p];
        }
        lengths[i] = d;
        bits += d * weight[i];
    }
    return bits;
}

int main(void) {
    long TABLES = 3500;
    unsigned long check = 0;
    long maxlen = 0, kraft_bad = 0;
    for (long t = 0; t < TABLES; t++) {
        long n = NSYM / 2 + rnd() % (NSYM / 2 + 1);
        long shape = t % 3;
        for (long i = 0; i < n; i++) {
            long r = 1 + rnd() % 1000;
            if (shape == 0) weight[i] = r;
            else if (shape == 1) weight[i] = r * r;
            else weight[i] = 1 + 100000 / (1 + i % 97) + r % 7;
        }
        long bits = build(n);
        long ml = 0;
        for (long i = 0; i < n; i++) ml = lmax(ml, lengths[i]);
        long kraft = 0;
        for (long i = 0; i < n; i++) kraft += 1L << (ml - lengths[i]);
        if (kraft != 1L << ml) kraft_bad += 1;
        maxlen = lmax(maxlen, ml);
        check = check * 1000003UL + (unsigned long)bits;
    }
    printf("tables %ld maxlen %ld kraft_bad %ld\n", TABLES, maxlen, kraft_bad);
    printf("check %ld\n", (long)check);
    printf("last lengths %ld %ld %ld %ld\n", lengths[0], lengths[1], lengths[2], lengths[3]);
    return 0;
}
