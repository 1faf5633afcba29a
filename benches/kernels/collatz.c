// Longest Collatz chain below a bound: integer division, branches.
#include <stdio.h>
#include <stdint.h>

int main(void) {
    int64_t best = 0, best_start = 0;
    for (int64_t start = 1; start < 1000000; start++) {
        int64_t n = start, steps = 1;
        while (n != 1) {
            if (n % 2 == 0) n = n / 2;
            else n = 3 * n + 1;
            steps += 1;
        }
        if (steps > best) { best = steps; best_start = start; }
    }
    printf("%lld %lld\n", (long long)best_start, (long long)best);
    return 0;
}
