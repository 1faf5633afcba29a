// Deep recursion mixes: Ackermann's function, mutually recursive parity
// functions that carry extra arguments, and a recursive count of the subsets
// of an array whose sum stays under a bound.
#include <stdio.h>
#include <stdint.h>

static int64_t calls = 0;

static int64_t ack(int64_t m, int64_t n) {
    calls += 1;
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static int64_t is_odd(int64_t n, int64_t acc, int64_t k);

// is_even/is_odd step down by one, folding a checksum of the path along.
static int64_t is_even(int64_t n, int64_t acc, int64_t k) {
    if (n == 0) return acc * 2;
    return is_odd(n - 1, (acc * k + n) % 1000003, k);
}

static int64_t is_odd(int64_t n, int64_t acc, int64_t k) {
    if (n == 0) return acc * 2 + 1;
    return is_even(n - 1, (acc + n * 7) % 1000003, k + 1);
}

static int64_t male(int64_t n);

// Hofstadter's female and male sequences: a tangle of mutual recursion.
static int64_t female(int64_t n) {
    if (n == 0) return 1;
    return n - male(female(n - 1));
}

static int64_t male(int64_t n) {
    if (n == 0) return 0;
    return n - female(male(n - 1));
}

// Number of subsets of items[i..] whose sum is at most room.
static int64_t count_subsets(const int64_t *items, int64_t len, int64_t i, int64_t room) {
    if (i == len) return 1;
    int64_t without = count_subsets(items, len, i + 1, room);
    if (items[i] <= room) return without + count_subsets(items, len, i + 1, room - items[i]);
    return without;
}

int main(void) {
    for (int64_t m = 2; m < 4; m++) {
        int64_t total = 0;
        for (int64_t n = 1; n < 10; n++) total += ack(m, n);
        printf("ack %lld %lld %lld\n", (long long)m, (long long)total, (long long)calls);
    }
    calls = 0;
    int64_t a = ack(3, 11);
    printf("ack 3 11 %lld %lld\n", (long long)a, (long long)calls);

    int64_t parity = 0;
    for (int64_t round = 0; round < 2000; round++) {
        int64_t n = 5000 + round * 3;
        int64_t r = is_even(n, round, 3);
        parity = (parity * 31 + r) % 1000000007;
    }
    printf("parity %lld\n", (long long)parity);

    int64_t fm = 0;
    for (int64_t n = 0; n < 90; n++) fm = (fm * 3 + female(n) - male(n)) % 1000000007;
    printf("hofstadter %lld %lld %lld\n", (long long)fm, (long long)female(89), (long long)male(89));

    int64_t items[27];
    int64_t len = 27;
    int64_t x = 12345;
    for (int64_t i = 0; i < len; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        items[i] = 1 + x % 100;
    }
    int64_t sum = 0;
    for (int64_t i = 0; i < len; i++) sum += items[i];
    int64_t s3 = count_subsets(items, len, 0, sum / 3);
    int64_t s2 = count_subsets(items, len, 0, sum / 2);
    printf("subsets %lld %lld %lld\n", (long long)sum, (long long)s3, (long long)s2);
    return 0;
}
