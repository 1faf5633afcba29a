// Takeuchi's tak function: deep non-tail recursion with three arguments.
#include <stdio.h>
#include <stdint.h>

static int64_t tak(int64_t x, int64_t y, int64_t z) {
    if (y < x) return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y));
    return z;
}

int main(void) {
    static const int64_t args[4][3] = {{18, 12, 6}, {28, 20, 10}, {30, 20, 10}, {32, 16, 8}};
    int64_t sum = 0;
    for (int64_t i = 0; i < 4; i++) {
        const int64_t *a = args[i];
        int64_t r = tak(a[0], a[1], a[2]);
        printf("%lld %lld %lld %lld\n", (long long)a[0], (long long)a[1], (long long)a[2],
               (long long)r);
        sum = sum * 10 + r;
    }
    printf("%lld\n", (long long)sum);
    return 0;
}
