// Top-down recursive merge sort with a scratch array, over LCG-generated
// ints; checks order and hashes the result, several rounds of growing size.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t seed = 4242;

static int64_t next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) & 0x7fffffff);
}

// Merges the sorted runs a[lo..mid] and a[mid..hi] through tmp.
static void merge(int64_t *a, int64_t *tmp, int64_t lo, int64_t mid, int64_t hi) {
    int64_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (a[i] <= a[j]) {
            tmp[k] = a[i];
            i += 1;
        } else {
            tmp[k] = a[j];
            j += 1;
        }
        k += 1;
    }
    while (i < mid) tmp[k++] = a[i++];
    while (j < hi) tmp[k++] = a[j++];
    for (int64_t t = lo; t < hi; t++) a[t] = tmp[t];
}

// Small runs get an insertion sort.
static void insertion_sort(int64_t *a, int64_t lo, int64_t hi) {
    for (int64_t i = lo + 1; i < hi; i++) {
        int64_t x = a[i];
        int64_t j = i - 1;
        while (j >= lo && a[j] > x) {
            a[j + 1] = a[j];
            j -= 1;
        }
        a[j + 1] = x;
    }
}

static void merge_sort(int64_t *a, int64_t *tmp, int64_t lo, int64_t hi) {
    if (hi - lo <= 16) {
        insertion_sort(a, lo, hi);
        return;
    }
    int64_t mid = lo + (hi - lo) / 2;
    merge_sort(a, tmp, lo, mid);
    merge_sort(a, tmp, mid, hi);
    if (a[mid - 1] <= a[mid]) return;
    merge(a, tmp, lo, mid, hi);
}

int main(void) {
    int64_t check = 0;
    for (int64_t round = 0; round < 4; round++) {
        int64_t n = 250000 * (round + 1);
        int64_t *a = calloc(n, sizeof *a);
        for (int64_t i = 0; i < n; i++) a[i] = next_random() % (n * 4);
        int64_t *tmp = calloc(n, sizeof *tmp);
        merge_sort(a, tmp, 0, n);
        bool sorted = true;
        uint64_t hash = 0;
        for (int64_t i = 0; i < n; i++) {
            if (i > 0 && a[i - 1] > a[i]) sorted = false;
            hash = hash * 1000003ULL + (uint64_t)a[i];
        }
        printf("%lld %lld %lld %lld %s %lld\n", (long long)n, (long long)a[0], (long long)a[n / 2],
               (long long)a[n - 1], sorted ? "true" : "false", (long long)(int64_t)hash);
        check ^= (int64_t)hash;
        free(a);
        free(tmp);
    }
    printf("%lld\n", (long long)check);
    return 0;
}
