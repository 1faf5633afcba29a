// Recursive quicksort (Hoare partition, middle pivot) of random [int] arrays.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t seed = 12345;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

static void quicksort(int64_t *a, int64_t lo, int64_t hi) {
    if (lo >= hi) return;
    int64_t pivot = a[lo + (hi - lo) / 2];
    int64_t i = lo, j = hi;
    while (i <= j) {
        while (a[i] < pivot) i += 1;
        while (a[j] > pivot) j -= 1;
        if (i <= j) {
            int64_t t = a[i];
            a[i] = a[j];
            a[j] = t;
            i += 1;
            j -= 1;
        }
    }
    quicksort(a, lo, j);
    quicksort(a, i, hi);
}

int main(void) {
    int64_t n = 1000000;
    int64_t *a = calloc(n, sizeof *a);
    uint64_t hash = 0;
    for (int64_t round = 0; round < 5; round++) {
        int64_t range = 1000 + round * 100000000;
        for (int64_t i = 0; i < n; i++) a[i] = next_random() % range;
        quicksort(a, 0, n - 1);
        int64_t unsorted = 0;
        for (int64_t i = 1; i < n; i++) {
            if (a[i - 1] > a[i]) unsorted += 1;
            hash = hash * 31 + (uint64_t)a[i];
        }
        printf("%lld %lld %lld %lld\n", (long long)a[0], (long long)a[n / 2], (long long)a[n - 1],
               (long long)unsorted);
    }
    printf("%lld\n", (long long)(int64_t)hash);
    free(a);
    return 0;
}
