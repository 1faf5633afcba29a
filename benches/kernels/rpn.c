// Stack-based RPN evaluator: random programs as long arrays, explicit operand stack.
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long u64;
static u64 seed = 31337;
static long rnd(void) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (long)((seed >> 33) & 0x7fffffff);
}

enum { PUSH, LOADX, ADD, SUB, MUL, DIV, MOD, DUP, SWAP, NEG, AND, XOR, SHR, SHL, LT };

typedef struct { long *code; long len; } prog_t;

static prog_t gen(long n) {
    long *buf = malloc((2 * n + 40) * sizeof(long));
    long size = 0, depth = 0;
    for (long i = 0; i < n; i++) {
        long op = 0;
        if (depth < 2) {
            long c = rnd() % 4;
            if (c == 0 || depth == 0) op = PUSH;
            else if (c == 1) op = LOADX;
            else if (c == 2) op = DUP;
            else op = NEG;
        } else if (depth >= 12) {
            op = ADD + rnd() % 5;
        } else {
            op = rnd() % 15;
        }
        buf[size++] = op;
        if (op == PUSH) {
            buf[size++] = rnd() % 200 - 100;
            depth += 1;
        } else if (op == LOADX || op == DUP) {
            depth += 1;
        } else if (op == SWAP || op == NEG) {
        } else {
            depth -= 1;
        }
    }
    while (depth > 1) { buf[size++] = ADD; depth -= 1; }
    prog_t p;
    p.code = malloc(size * sizeof(long));
    for (long i = 0; i < size; i++) p.code[i] = buf[i];
    p.len = size;
    free(buf);
    return p;
}

static long eval(const long *prog, long n, long x, long *stack) {
    long sp = 0, pc = 0;
    while (pc < n) {
        long op = prog[pc++];
        if (op == PUSH) {
            stack[sp++] = prog[pc++];
        } else if (op == LOADX) {
            stack[sp++] = x;
        } else if (op == ADD) {
            sp--; stack[sp - 1] = (long)((u64)stack[sp - 1] + (u64)stack[sp]);
        } else if (op == SUB) {
            sp--; stack[sp - 1] = (long)((u64)stack[sp - 1] - (u64)stack[sp]);
        } else if (op == MUL) {
            sp--; stack[sp - 1] = (long)((u64)stack[sp - 1] * (u64)stack[sp]);
        } else if (op == DIV) {
            sp--;
            long b = stack[sp];
            if (b == 0) stack[sp - 1] = 0;
            else if (b == -1) stack[sp - 1] = (long)(0UL - (u64)stack[sp - 1]);
            else stack[sp - 1] = stack[sp - 1] / b;
        } else if (op == MOD) {
            sp--;
            long b = stack[sp];
            if (b == 0 || b == -1) stack[sp - 1] = 0;
            else stack[sp - 1] = stack[sp - 1] % b;
        } else if (op == DUP) {
            stack[sp] = stack[sp - 1]; sp++;
        } else if (op == SWAP) {
            long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t;
        } else if (op == NEG) {
            stack[sp - 1] = (long)(0UL - (u64)stack[sp - 1]);
        } else if (op == AND) {
            sp--; stack[sp - 1] = stack[sp - 1] & stack[sp];
        } else if (op == XOR) {
            sp--; stack[sp - 1] = stack[sp - 1] ^ stack[sp];
        } else if (op == SHR) {
            sp--; stack[sp - 1] = stack[sp - 1] >> (stack[sp] & 63);
        } else if (op == SHL) {
            sp--; stack[sp - 1] = (long)((u64)stack[sp - 1] << (stack[sp] & 63));
        } else {
            sp--; stack[sp - 1] = stack[sp - 1] < stack[sp] ? 1 : 0;
        }
    }
    return stack[0];
}

int main(void) {
    long nprog = 300;
    prog_t *progs = malloc(nprog * sizeof(prog_t));
    long ops = 0;
    for (long p = 0; p < nprog; p++) {
        progs[p] = gen(20 + rnd() % 60);
        ops += progs[p].len;
    }
    printf("programs %ld words %ld\n", nprog, ops);
    long stack[64];
    u64 sum = 0, mix = 0;
    long xs = 20000;
    for (long p = 0; p < nprog; p++) {
        prog_t pr = progs[p];
        u64 h = 0;
        for (long x = 0; x < xs; x++) {
            long r = eval(pr.code, pr.len, x - xs / 2, stack);
            sum += (u64)r;
            h = (h ^ (u64)r) * 1099511628211UL;
        }
        mix = mix * 31 + h;
        if (p % 50 == 0) printf("%ld %ld %ld\n", p, (long)h, eval(pr.code, pr.len, 7, stack));
    }
    printf("sum %ld mix %ld\n", (long)sum, (long)mix);
    return 0;
}
