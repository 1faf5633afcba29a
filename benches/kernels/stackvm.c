// A tiny stack-machine interpreter: an else-if chain over opcodes, a long
// array as the operand stack, registers in another long array. Two programs
// are assembled with forward-jump patching: total Collatz steps for 1..N,
// and a sum over gcd(i, j) on a square by Euclid's algorithm.
#include <stdio.h>
#include <stdlib.h>

enum { OP_HALT, OP_PUSH, OP_LOAD, OP_STORE, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
       OP_LT, OP_JZ, OP_JMP, OP_DUP };

static long code[512];
static long ncode = 0;

static void emit(long op) { code[ncode++] = op; }
static void emit_arg(long op, long arg) {
    code[ncode] = op;
    code[ncode + 1] = arg;
    ncode += 2;
}
static long emit_jump(long op) {
    emit_arg(op, -1);
    return ncode - 1;
}
static void patch(long at) { code[at] = ncode; }

static long run(const long *prog, long *regs) {
    long stack[256] = {0};
    long sp = 0, pc = 0, executed = 0;
    for (;;) {
        long op = prog[pc];
        executed += 1;
        if (op == OP_PUSH) {
            stack[sp++] = prog[pc + 1];
            pc += 2;
        } else if (op == OP_LOAD) {
            stack[sp++] = regs[prog[pc + 1]];
            pc += 2;
        } else if (op == OP_STORE) {
            sp -= 1;
            regs[prog[pc + 1]] = stack[sp];
            pc += 2;
        } else if (op == OP_ADD) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] + stack[sp];
            pc += 1;
        } else if (op == OP_SUB) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] - stack[sp];
            pc += 1;
        } else if (op == OP_MUL) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] * stack[sp];
            pc += 1;
        } else if (op == OP_DIV) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] / stack[sp];
            pc += 1;
        } else if (op == OP_MOD) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] % stack[sp];
            pc += 1;
        } else if (op == OP_LT) {
            sp -= 1;
            stack[sp - 1] = stack[sp - 1] < stack[sp] ? 1 : 0;
            pc += 1;
        } else if (op == OP_JZ) {
            sp -= 1;
            if (stack[sp] == 0) pc = prog[pc + 1];
            else pc += 2;
        } else if (op == OP_JMP) {
            pc = prog[pc + 1];
        } else if (op == OP_DUP) {
            stack[sp] = stack[sp - 1];
            sp += 1;
            pc += 1;
        } else if (op == OP_HALT) {
            break;
        } else {
            printf("bad opcode %ld at %ld\n", op, pc);
            break;
        }
    }
    return executed;
}

static long *finish(long *len) {
    long *prog = malloc(ncode * sizeof *prog);
    for (long i = 0; i < ncode; i++) prog[i] = code[i];
    *len = ncode;
    return prog;
}

// registers: 0 n, 1 total, 2 longest, 3 x, 4 steps
static long *collatz_program(long limit, long *len) {
    ncode = 0;
    emit_arg(OP_PUSH, 1);
    emit_arg(OP_STORE, 0);
    long outer = ncode;
    emit_arg(OP_LOAD, 0);
    emit_arg(OP_PUSH, limit);
    emit(OP_LT);
    long to_end = emit_jump(OP_JZ);
    emit_arg(OP_LOAD, 0);
    emit_arg(OP_STORE, 3);
    emit_arg(OP_PUSH, 0);
    emit_arg(OP_STORE, 4);
    long inner = ncode;
    emit_arg(OP_PUSH, 1);
    emit_arg(OP_LOAD, 3);
    emit(OP_LT);
    long to_done = emit_jump(OP_JZ);
    emit_arg(OP_LOAD, 3);
    emit_arg(OP_PUSH, 2);
    emit(OP_MOD);
    long to_even = emit_jump(OP_JZ);
    emit_arg(OP_LOAD, 3);
    emit_arg(OP_PUSH, 3);
    emit(OP_MUL);
    emit_arg(OP_PUSH, 1);
    emit(OP_ADD);
    emit_arg(OP_STORE, 3);
    long to_next = emit_jump(OP_JMP);
    patch(to_even);
    emit_arg(OP_LOAD, 3);
    emit_arg(OP_PUSH, 2);
    emit(OP_DIV);
    emit_arg(OP_STORE, 3);
    patch(to_next);
    emit_arg(OP_LOAD, 4);
    emit_arg(OP_PUSH, 1);
    emit(OP_ADD);
    emit_arg(OP_STORE, 4);
    emit_arg(OP_JMP, inner);
    patch(to_done);
    emit_arg(OP_LOAD, 1);
    emit_arg(OP_LOAD, 4);
    emit(OP_ADD);
    emit_arg(OP_STORE, 1);
    emit_arg(OP_LOAD, 2);
    emit_arg(OP_LOAD, 4);
    emit(OP_LT);
    long to_skip = emit_jump(OP_JZ);
    emit_arg(OP_LOAD, 4);
    emit_arg(OP_STORE, 2);
    patch(to_skip);
    emit_arg(OP_LOAD, 0);
    emit_arg(OP_PUSH, 1);
    emit(OP_ADD);
    emit_arg(OP_STORE, 0);
    emit_arg(OP_JMP, outer);
    patch(to_end);
    emit(OP_HALT);
    return finish(len);
}

// registers: 0 i, 1 j, 2 sum, 3 a, 4 b, 5 m
static long *gcd_program(long m, long *len) {
    ncode = 0;
    emit_arg(OP_PUSH, m);
    emit_arg(OP_STORE, 5);
    emit_arg(OP_PUSH, 1);
    emit_arg(OP_STORE, 0);
    long outer = ncode;
    emit_arg(OP_LOAD, 0);
    emit_arg(OP_LOAD, 5);
    emit(OP_LT);
    long to_end = emit_jump(OP_JZ);
    emit_arg(OP_PUSH, 1);
    emit_arg(OP_STORE, 1);
    long middle = ncode;
    emit_arg(OP_LOAD, 1);
    emit_arg(OP_LOAD, 5);
    emit(OP_LT);
    long to_next_i = emit_jump(OP_JZ);
    emit_arg(OP_LOAD, 0);
    emit_arg(OP_STORE, 3);
    emit_arg(OP_LOAD, 1);
    emit_arg(OP_STORE, 4);
    long euclid = ncode;
    emit_arg(OP_LOAD, 4);
    long to_gcd_done = emit_jump(OP_JZ);
    emit_arg(OP_LOAD, 3);
    emit_arg(OP_LOAD, 4);
    emit(OP_MOD);
    emit_arg(OP_LOAD, 4);
    emit_arg(OP_STORE, 3);
    emit_arg(OP_STORE, 4);
    emit_arg(OP_JMP, euclid);
    patch(to_gcd_done);
    emit_arg(OP_LOAD, 2);
    emit_arg(OP_LOAD, 3);
    emit(OP_DUP);
    emit(OP_MUL);
    emit(OP_ADD);
    emit_arg(OP_LOAD, 3);
    emit(OP_SUB);
    emit_arg(OP_STORE, 2);
    emit_arg(OP_LOAD, 1);
    emit_arg(OP_PUSH, 1);
    emit(OP_ADD);
    emit_arg(OP_STORE, 1);
    emit_arg(OP_JMP, middle);
    patch(to_next_i);
    emit_arg(OP_LOAD, 0);
    emit_arg(OP_PUSH, 1);
    emit(OP_ADD);
    emit_arg(OP_STORE, 0);
    emit_arg(OP_JMP, outer);
    patch(to_end);
    emit(OP_HALT);
    return finish(len);
}

int main(void) {
    long regs[8] = {0};
    long len1, len2;
    long *p1 = collatz_program(150000, &len1);
    long n1 = run(p1, regs);
    printf("collatz %ld %ld %ld %ld\n", len1, n1, regs[1], regs[2]);
    for (long i = 0; i < 8; i++) regs[i] = 0;
    long *p2 = gcd_program(1000, &len2);
    long n2 = run(p2, regs);
    printf("gcd %ld %ld %ld\n", len2, n2, regs[2]);
    return 0;
}
