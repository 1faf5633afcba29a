// A register-machine interpreter: fixed-width instructions (op, a, b, c) in
// an int array, sixteen registers plus a word memory, dispatched by an
// if/else chain in a while loop. Runs three assembled programs: a sum of
// gcds by Euclid's algorithm, a sieve in VM memory, and an xorshift loop.
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

enum {
    HALT, LI, MOV, ADD, ADDI, SUB, MUL, MOD, AND, XOR, SHL, SHR, LD, ST, JMP, BEQ, BNE, BLT, BGE
};

static int64_t code[1024];
static int64_t size = 0;

// Appends an instruction and returns its index.
static int64_t emit(int64_t op, int64_t a, int64_t b, int64_t c) {
    code[size * 4] = op;
    code[size * 4 + 1] = a;
    code[size * 4 + 2] = b;
    code[size * 4 + 3] = c;
    size += 1;
    return size - 1;
}

static void patch(int64_t at, int64_t target) { code[at * 4 + 3] = target; }

static int64_t *finish(int64_t *length) {
    int64_t *program = malloc(size * 4 * sizeof *program);
    for (int64_t i = 0; i < size * 4; i++) program[i] = code[i];
    *length = size * 4;
    size = 0;
    return program;
}

static int64_t run(const int64_t *program, int64_t *r, int64_t *mem) {
    int64_t pc = 0, steps = 0;
    for (;;) {
        int64_t at = pc * 4;
        int64_t op = program[at];
        int64_t a = program[at + 1];
        int64_t b = program[at + 2];
        int64_t c = program[at + 3];
        steps += 1;
        pc += 1;
        if (op == ADDI) {
            r[a] = (int64_t)((uint64_t)r[b] + (uint64_t)c);
        } else if (op == BGE) {
            if (r[a] >= r[b]) pc = c;
        } else if (op == BEQ) {
            if (r[a] == r[b]) pc = c;
        } else if (op == JMP) {
            pc = c;
        } else if (op == MOV) {
            r[a] = r[b];
        } else if (op == ADD) {
            r[a] = (int64_t)((uint64_t)r[b] + (uint64_t)r[c]);
        } else if (op == MOD) {
            r[a] = r[b] % r[c];
        } else if (op == LD) {
            r[a] = mem[r[b]];
        } else if (op == ST) {
            mem[r[b]] = r[a];
        } else if (op == LI) {
            r[a] = c;
        } else if (op == SUB) {
            r[a] = (int64_t)((uint64_t)r[b] - (uint64_t)r[c]);
        } else if (op == MUL) {
            r[a] = (int64_t)((uint64_t)r[b] * (uint64_t)r[c]);
        } else if (op == AND) {
            r[a] = r[b] & r[c];
        } else if (op == XOR) {
            r[a] = r[b] ^ r[c];
        } else if (op == SHL) {
            r[a] = (int64_t)((uint64_t)r[b] << (c & 63));
        } else if (op == SHR) {
            r[a] = r[b] >> (c & 63);
        } else if (op == BNE) {
            if (r[a] != r[b]) pc = c;
        } else if (op == BLT) {
            if (r[a] < r[b]) pc = c;
        } else {
            return steps;
        }
    }
}

// r7 = sum of gcd(i, j) for 1 <= i, j < r1. r0 stays 0.
static int64_t *assemble_gcd(int64_t *length) {
    emit(LI, 0, 0, 0);
    emit(LI, 7, 0, 0);
    emit(LI, 2, 0, 1);
    int64_t outer = emit(BGE, 2, 1, 0);
    emit(LI, 3, 0, 1);
    int64_t inner = emit(BGE, 3, 1, 0);
    emit(MOV, 4, 2, 0);
    emit(MOV, 5, 3, 0);
    int64_t gcd = emit(BEQ, 5, 0, 0);
    emit(MOD, 6, 4, 5);
    emit(MOV, 4, 5, 0);
    emit(MOV, 5, 6, 0);
    emit(JMP, 0, 0, gcd);
    patch(gcd, size);
    emit(ADD, 7, 7, 4);
    emit(ADDI, 3, 3, 1);
    emit(JMP, 0, 0, inner);
    patch(inner, size);
    emit(ADDI, 2, 2, 1);
    emit(JMP, 0, 0, outer);
    patch(outer, size);
    emit(HALT, 0, 0, 0);
    return finish(length);
}

// r9 = number of primes below r1, sieving in mem[0..r1].
static int64_t *assemble_sieve(int64_t *length) {
    emit(LI, 0, 0, 0);
    emit(LI, 8, 0, 1);
    emit(LI, 2, 0, 2);
    int64_t fill = emit(BGE, 2, 1, 0);
    emit(ST, 8, 2, 0);
    emit(ADDI, 2, 2, 1);
    emit(JMP, 0, 0, fill);
    patch(fill, size);
    emit(LI, 2, 0, 2);
    emit(LI, 9, 0, 0);
    int64_t scan = emit(BGE, 2, 1, 0);
    emit(LD, 3, 2, 0);
    int64_t composite = emit(BEQ, 3, 0, 0);
    emit(ADDI, 9, 9, 1);
    emit(MUL, 4, 2, 2);
    int64_t mark = emit(BGE, 4, 1, 0);
    emit(ST, 0, 4, 0);
    emit(ADD, 4, 4, 2);
    emit(JMP, 0, 0, mark);
    patch(mark, size);
    patch(composite, size);
    emit(ADDI, 2, 2, 1);
    emit(JMP, 0, 0, scan);
    patch(scan, size);
    emit(HALT, 0, 0, 0);
    return finish(length);
}

// r1 rounds of xorshift on r5; r7 sums the low byte, r9 counts small values.
static int64_t *assemble_xorshift(int64_t *length) {
    emit(LI, 0, 0, 0);
    emit(LI, 2, 0, 0);
    emit(LI, 7, 0, 0);
    emit(LI, 9, 0, 0);
    emit(LI, 10, 0, 255);
    emit(LI, 11, 0, 1023);
    emit(LI, 12, 0, 100);
    int64_t top = emit(BGE, 2, 1, 0);
    emit(SHL, 6, 5, 13);
    emit(XOR, 5, 5, 6);
    emit(SHR, 6, 5, 7);
    emit(XOR, 5, 5, 6);
    emit(SHL, 6, 5, 17);
    emit(XOR, 5, 5, 6);
    emit(AND, 6, 5, 10);
    emit(ADD, 7, 7, 6);
    emit(AND, 6, 5, 11);
    int64_t big = emit(BGE, 6, 12, 0);
    emit(ADDI, 9, 9, 1);
    patch(big, size);
    emit(ADDI, 2, 2, 1);
    emit(JMP, 0, 0, top);
    patch(top, size);
    emit(HALT, 0, 0, 0);
    return finish(length);
}

int main(void) {
    int64_t r[16] = {0};
    int64_t *mem = calloc(2000000, sizeof *mem);
    int64_t length, steps;

    int64_t *gcd = assemble_gcd(&length);
    r[1] = 1200;
    steps = run(gcd, r, mem);
    printf("%lld %lld %lld\n", (long long)(length / 4), (long long)r[7], (long long)steps);

    int64_t *sieve = assemble_sieve(&length);
    r[1] = 2000000;
    steps = run(sieve, r, mem);
    printf("%lld %lld %lld\n", (long long)(length / 4), (long long)r[9], (long long)steps);

    int64_t *xs = assemble_xorshift(&length);
    r[1] = 6000000;
    r[5] = 88172645463325252;
    steps = run(xs, r, mem);
    printf("%lld %lld %lld %lld %lld\n", (long long)(length / 4), (long long)r[7], (long long)r[9],
           (long long)r[5], (long long)steps);
    return 0;
}
