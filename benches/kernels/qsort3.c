// Recursive three-way (Dutch flag) quicksort of LCG-filled [int] arrays with
// varying value ranges; the second recursive call is a tail call. Prints checksums.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static int64_t seed = 987654321;

static int64_t next_random(void) {
    seed = (seed * 1103515245 + 12345) % 2147483648LL;
    return seed;
}

static int64_t median3(int64_t a, int64_t b, int64_t c) {
    if (a < b) {
        if (b < c) return b;
        if (a < c) return c;
        return a;
    }
    if (a < c) return a;
    if (b < c) return c;
    return b;
}

// Sorts a[lo..=hi].
static void qsort3(int64_t *a, int64_t lo, int64_t hi) {
    if (lo >= hi) return;
    int64_t pivot = median3(a[lo], a[lo + (hi - lo) / 2], a[hi]);
    int64_t lt = lo, i = lo, gt = hi;
    while (i <= gt) {
        int64_t v = a[i];
        if (v < pivot) {
            a[i] = a[lt];
            a[lt] = v;
            lt += 1;
            i += 1;
        } else if (v > pivot) {
            a[i] = a[gt];
            a[gt] = v;
            gt -= 1;
        } else {
            i += 1;
        }
    }
    qsort3(a, lo, lt - 1);
    qsort3(a, gt + 1, hi);
}

int main(void) {
    int64_t total = 0;
    static const int64_t sizes[6] = {800000, 300000, 1200000, 150000, 700000, 1000000};
    static const int64_t ranges[6] = {1000000000, 50, 1000000, 7, 100000000, 3000};
    for (int r = 0; r < 6; r++) {
        int64_t n = sizes[r];
        int64_t *a = calloc(n, sizeof *a);
        for (int64_t i = 0; i < n; i++) a[i] = next_random() % ranges[r];
        qsort3(a, 0, n - 1);
        int64_t bad = 0, h = 0;
        for (int64_t i = 0; i < n; i++) {
            if (i > 0 && a[i - 1] > a[i]) bad += 1;
            h = (h * 31 + a[i] + i) % 1000000007;
        }
        printf("%lld %lld %lld %lld %lld %lld\n", (long long)n, (long long)a[0], (long long)a[n / 3],
               (long long)a[n - 1], (long long)bad, (long long)h);
        total = (total * 7 + h) % 1000000007;
        free(a);
    }
    printf("%lld\n", (long long)total);
    return 0;
}
