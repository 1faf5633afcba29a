// Takeuchi's original "tarai" function (returns y, not z, in the base case)
// over a grid of small arguments, counting the calls made.
#include <stdio.h>
#include <stdint.h>

static int64_t calls = 0;

static int64_t tarai(int64_t x, int64_t y, int64_t z) {
    calls += 1;
    if (x <= y) return y;
    return tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y));
}

int main(void) {
    int64_t check = 0;
    for (int64_t x = 6; x < 13; x++) {
        int64_t row = 0;
        int64_t before = calls;
        for (int64_t y = 0; y < 6; y++) {
            for (int64_t z = 0; z < 3; z++) {
                int64_t r = tarai(x, y, z);
                row = row * 3 + r;
                check = (check * 131 + r) % 1000000007;
            }
        }
        printf("%lld %lld %lld\n", (long long)x, (long long)row, (long long)(calls - before));
    }
    int64_t r = tarai(14, 6, 0);
    printf("%lld %lld %lld\n", (long long)r, (long long)check, (long long)calls);
    return 0;
}
