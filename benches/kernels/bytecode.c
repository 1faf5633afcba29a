// A stack-machine bytecode interpreter: an if/else chain over opcodes,
// running a small assembled program (trial-division prime counting and a
// nested-loop checksum).
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

enum { HALT, PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, LT, LE, JZ, JMP, INC, DUP, POP, XOR };

static int64_t code[256];
static int64_t size = 0;

static int64_t emit(int64_t op) {
    code[size] = op;
    size += 1;
    return size - 1;
}

static int64_t emit2(int64_t op, int64_t arg) {
    code[size] = op;
    code[size + 1] = arg;
    size += 2;
    return size - 2;
}

static int64_t run(const int64_t *program, int64_t *regs) {
    int64_t stack[64] = {0};
    int64_t sp = 0, pc = 0, steps = 0;
    for (;;) {
        int64_t op = program[pc];
        steps += 1;
        if (op == PUSH) {
            stack[sp] = program[pc + 1];
            sp += 1;
            pc += 2;
        } else if (op == LOAD) {
            stack[sp] = regs[program[pc + 1]];
            sp += 1;
            pc += 2;
        } else if (op == STORE) {
            sp -= 1;
            regs[program[pc + 1]] = stack[sp];
            pc += 2;
        } else if (op == ADD) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] + stack[sp];
            pc += 1;
        } else if (op == SUB) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] - stack[sp];
            pc += 1;
        } else if (op == MUL) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] * stack[sp];
            pc += 1;
        } else if (op == MOD) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] % stack[sp];
            pc += 1;
        } else if (op == LT) {
            sp -= 1;
            if (stack[sp - 1] < stack[sp]) stack[sp - 1] = 1;
            else stack[sp - 1] = 0;
            pc += 1;
        } else if (op == LE) {
            sp -= 1;
            if (stack[sp - 1] <= stack[sp]) stack[sp - 1] = 1;
            else stack[sp - 1] = 0;
            pc += 1;
        } else if (op == JZ) {
            sp -= 1;
            if (stack[sp] == 0) pc = program[pc + 1];
            else pc += 2;
        } else if (op == JMP) {
            pc = program[pc + 1];
        } else if (op == INC) {
            regs[program[pc + 1]] += 1;
            pc += 2;
        } else if (op == DUP) {
            stack[sp] = stack[sp - 1];
            sp += 1;
            pc += 1;
        } else if (op == POP) {
            sp -= 1;
            pc += 1;
        } else if (op == XOR) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] ^ stack[sp];
            pc += 1;
        } else {
            return steps;
        }
    }
}

static int64_t *copy_program(void) {
    int64_t *program = malloc(size * sizeof *program);
    for (int64_t i = 0; i < size; i++) program[i] = code[i];
    return program;
}

// Program 1: r1 = number of primes below r0, by trial division.
// r2 = candidate, r3 = divisor.
static int64_t *assemble_primes(void) {
    size = 0;
    emit2(PUSH, 2);
    emit2(STORE, 2);
    emit2(PUSH, 0);
    emit2(STORE, 1);
    int64_t outer = size;
    emit2(LOAD, 2);
    emit2(LOAD, 0);
    emit(LT);
    int64_t exit_jump = emit2(JZ, 0);
    emit2(PUSH, 2);
    emit2(STORE, 3);
    int64_t inner = size;
    emit2(LOAD, 3);
    emit2(LOAD, 3);
    emit(MUL);
    emit2(LOAD, 2);
    emit(LE);
    int64_t prime_jump = emit2(JZ, 0);
    emit2(LOAD, 2);
    emit2(LOAD, 3);
    emit(MOD);
    int64_t composite_jump = emit2(JZ, 0);
    emit2(INC, 3);
    emit2(JMP, inner);
    code[prime_jump + 1] = size;
    emit2(INC, 1);
    code[composite_jump + 1] = size;
    emit2(INC, 2);
    emit2(JMP, outer);
    code[exit_jump + 1] = size;
    emit(HALT);
    return copy_program();
}

// Program 2: r1 = a checksum over i < r0, j < r4:
// r1 = (r1 * 31 + (i ^ j)) % 1000003.
static int64_t *assemble_checksum(void) {
    size = 0;
    emit2(PUSH, 0);
    emit2(STORE, 2);
    emit2(PUSH, 0);
    emit2(STORE, 1);
    int64_t outer = size;
    emit2(LOAD, 2);
    emit2(LOAD, 0);
    emit(LT);
    int64_t exit_jump = emit2(JZ, 0);
    emit2(PUSH, 0);
    emit2(STORE, 3);
    int64_t inner = size;
    emit2(LOAD, 3);
    emit2(LOAD, 4);
    emit(LT);
    int64_t next_jump = emit2(JZ, 0);
    emit2(LOAD, 1);
    emit2(PUSH, 31);
    emit(MUL);
    emit2(LOAD, 2);
    emit2(LOAD, 3);
    emit(XOR);
    emit(ADD);
    emit2(PUSH, 1000003);
    emit(MOD);
    emit2(STORE, 1);
    emit2(INC, 3);
    emit2(JMP, inner);
    code[next_jump + 1] = size;
    emit2(INC, 2);
    emit2(JMP, outer);
    code[exit_jump + 1] = size;
    emit(HALT);
    return copy_program();
}

int main(void) {
    int64_t regs[8] = {0};
    int64_t *primes = assemble_primes();
    int64_t primes_len = size;
    regs[0] = 200000;
    int64_t steps = run(primes, regs);
    printf("%lld %lld %lld\n", (long long)primes_len, (long long)regs[1], (long long)steps);
    int64_t *checksum = assemble_checksum();
    int64_t checksum_len = size;
    regs[0] = 2000;
    regs[4] = 2000;
    steps = run(checksum, regs);
    printf("%lld %lld %lld\n", (long long)checksum_len, (long long)regs[1], (long long)steps);
    free(primes);
    free(checksum);
    return 0;
}
