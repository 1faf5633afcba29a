// Recursive-descent parser/evaluator (mutually recursive expr/term/factor) over
// random arithmetic expressions stored as int tokens, evaluated mod 1000003 for many x.
#include <stdio.h>
#include <stdint.h>

static const int64_t M = 1000003;
// Token codes; numbers are tokens >= 0.
enum { PLUS = -1, MINUS = -2, TIMES = -3, DIVIDE = -4, LPAREN = -5, RPAREN = -6, VARX = -7, END = -8 };

static int64_t seed = 2024;
static int64_t next_random(void) {
    seed = (seed * 1103515245 + 12345) % 2147483648LL;
    return seed >> 4;
}

static int64_t toks[400000];
static int64_t ntok = 0;
static int64_t pos = 0;

static void emit(int64_t t) {
    toks[ntok] = t;
    ntok += 1;
}

// Writes a random expression of nesting depth at most d.
static void gen(int64_t d) {
    int64_t r = next_random() % 10;
    if (d == 0 || r < 2) {
        if (next_random() % 3 == 0) emit(VARX);
        else emit(next_random() % 1000);
    } else if (r < 3) {
        emit(MINUS);
        gen(d - 1);
    } else if (r < 5) {
        emit(LPAREN);
        gen(d - 1);
        emit(RPAREN);
    } else {
        gen(d - 1);
        emit(TIMES - next_random() % 4 + 2);
        gen(d - 1);
    }
}

static int64_t parse_term(int64_t x);
static int64_t parse_factor(int64_t x);

static int64_t parse_expr(int64_t x) {
    int64_t v = parse_term(x);
    for (;;) {
        int64_t t = toks[pos];
        if (t == PLUS) {
            pos += 1;
            v = (v + parse_term(x)) % M;
        } else if (t == MINUS) {
            pos += 1;
            v = (v - parse_term(x) + M) % M;
        } else {
            return v;
        }
    }
}

static int64_t parse_term(int64_t x) {
    int64_t v = parse_factor(x);
    for (;;) {
        int64_t t = toks[pos];
        if (t == TIMES) {
            pos += 1;
            v = v * parse_factor(x) % M;
        } else if (t == DIVIDE) {
            pos += 1;
            v = v / (parse_factor(x) % 13 + 1);
        } else {
            return v;
        }
    }
}

static int64_t parse_factor(int64_t x) {
    int64_t t = toks[pos];
    pos += 1;
    if (t >= 0) return t;
    if (t == VARX) return x;
    if (t == MINUS) return (M - parse_factor(x)) % M;
    if (t == LPAREN) {
        int64_t v = parse_expr(x);
        if (toks[pos] != RPAREN) printf("expected ) at %lld\n", (long long)pos);
        pos += 1;
        return v;
    }
    printf("unexpected token %lld at %lld\n", (long long)t, (long long)(pos - 1));
    return 0;
}

int main(void) {
    enum { NEXPR = 300 };
    int64_t starts[NEXPR];
    for (int64_t e = 0; e < NEXPR; e++) {
        starts[e] = ntok;
        gen(12 + e % 5);
        emit(END);
    }
    printf("tokens %lld\n", (long long)ntok);

    int64_t check = 0, bad = 0;
    for (int64_t x = 0; x < 700; x++) {
        int64_t row = 0;
        for (int64_t e = 0; e < NEXPR; e++) {
            pos = starts[e];
            int64_t v = parse_expr(x * 3331 % M);
            if (toks[pos] != END) bad += 1;
            row = (row * 31 + v) % M;
        }
        check = (check * 7 + row) % 1000000007;
        if (x % 100 == 0) printf("%lld %lld\n", (long long)x, (long long)row);
    }
    printf("%lld %lld\n", (long long)check, (long long)bad);
    return 0;
}
