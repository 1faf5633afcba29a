// A Brainfuck interpreter: the program text is reduced to its command
// characters, the matching brackets are found once with a stack, then a
// switch over opcodes runs it on a tape of 8-bit cells. The program runs a
// 255 x 255 loop whose body steps a mod-256 LCG (c3 = 5 * c3 + 3) with move
// loops, so the inner loops run data-dependent numbers of times.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Cells c0, c1, ...
static const char *source =
    "-[                     c0 is 255: outer loop\n"
    "  >-[                  c1 is 255: middle loop\n"
    "    >>[->+>+<<]        move c3 into c4 and c5\n"
    "    >>[-<<+>>]         move c5 back into c3\n"
    "    <[->++++<]         c5 gets 4 times c4\n"
    "    >[-<<+>>]          add c5 into c3 so c3 is now 5 times c3\n"
    "    <<+++              add 3 to c3\n"
    "    .                  output c3\n"
    "    >>>+               count in c6\n"
    "    <<<<<-             decrement c1\n"
    "  ]\n"
    "  >>>>>[->+>+<<]       copy c6 into c7 and c8\n"
    "  >>[-<<+>>]           move c8 back into c6\n"
    "  <[-<<<<+>>>>]        add c7 into c3\n"
    "  <<<<.                output c3\n"
    "  <<<-                 decrement c0\n"
    "]\n";

static int64_t steps = 0, outputs = 0, out_hash = 0;

static void run(const int64_t *code, int64_t n, const int64_t *jump, int64_t *tape) {
    int64_t pc = 0, ptr = 0;
    while (pc < n) {
        int64_t op = code[pc];
        steps += 1;
        switch (op) {
        case '+': tape[ptr] = (tape[ptr] + 1) & 255; break;
        case '-': tape[ptr] = (tape[ptr] - 1) & 255; break;
        case '>': ptr += 1; break;
        case '<': ptr -= 1; break;
        case '[': if (tape[ptr] == 0) pc = jump[pc]; break;
        case ']': if (tape[ptr] != 0) pc = jump[pc]; break;
        case '.':
            outputs += 1;
            out_hash = (out_hash * 31 + tape[ptr]) % 1000000007;
            break;
        }
        pc += 1;
    }
}

int main(void) {
    int64_t len = (int64_t)strlen(source);
    int64_t *code = malloc(len * sizeof *code);
    int64_t n = 0;
    for (int64_t i = 0; i < len; i++)
        if (strchr("+-<>[].", source[i])) code[n++] = source[i];
    int64_t *jump = calloc(n, sizeof *jump);
    int64_t *stack = malloc(n * sizeof *stack);
    int64_t sp = 0;
    for (int64_t i = 0; i < n; i++) {
        if (code[i] == '[') {
            stack[sp++] = i;
        } else if (code[i] == ']') {
            int64_t j = stack[--sp];
            jump[i] = j;
            jump[j] = i;
        }
    }
    int64_t tape[256] = {0};
    run(code, n, jump, tape);
    int64_t tape_hash = 0;
    for (int i = 0; i < 256; i++) tape_hash = (tape_hash * 3 + tape[i]) % 1000000007;
    printf("%lld %lld %lld\n", (long long)n, (long long)steps, (long long)outputs);
    printf("%lld %lld\n", (long long)out_hash, (long long)tape_hash);
    return 0;
}
