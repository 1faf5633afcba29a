// Sieve of Eratosthenes: array stores and loads in tight loops.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static int64_t sieve(int64_t n) {
    unsigned char *composite = calloc(n + 1, 1);
    int64_t count = 0;
    for (int64_t i = 2; i < n + 1; i++) {
        if (!composite[i]) {
            count += 1;
            for (int64_t j = i * i; j <= n; j += i) composite[j] = 1;
        }
    }
    free(composite);
    return count;
}

int main(void) {
    int64_t total = 0;
    for (int64_t round = 0; round < 14; round++) total += sieve(4000000 + round);
    printf("%lld\n", (long long)total);
    return 0;
}
