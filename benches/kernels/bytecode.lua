-- A stack-machine bytecode interpreter: an if/else chain over opcodes,
-- running a small assembled program (trial-division prime counting and a
-- nested-loop checksum). All values stay non-negative and far below 2^53,
-- so Lua numbers and % give Toy's results.
local bxor = bit.bxor
local HALT, PUSH, LOAD, STORE, ADD, SUB, MUL, MOD = 0, 1, 2, 3, 4, 5, 6, 7
local LT, LE, JZ, JMP, INC, DUP, POP, XOR = 8, 9, 10, 11, 12, 13, 14, 15
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
local code = {}
for i = 0, 255 do code[i] = 0 end
local size = 0
local function emit(op)
  code[size] = op
  size = size + 1
  return size - 1
end
local function emit2(op, arg)
  code[size] = op
  code[size + 1] = arg
  size = size + 2
  return size - 2
end
local function run(program, regs)
  local stack = {}
  for i = 0, 63 do stack[i] = 0 end
  local sp, pc, steps = 0, 0, 0
  while true do
    local op = program[pc]
    steps = steps + 1
    if op == PUSH then
      stack[sp] = program[pc + 1]
      sp = sp + 1
      pc = pc + 2
    elseif op == LOAD then
      stack[sp] = regs[program[pc + 1]]
      sp = sp + 1
      pc = pc + 2
    elseif op == STORE then
      sp = sp - 1
      regs[program[pc + 1]] = stack[sp]
      pc = pc + 2
    elseif op == ADD then
      sp = sp - 1
      stack[sp - 1] = stack[sp - 1] + stack[sp]
      pc = pc + 1
    elseif op == SUB then
      sp = sp - 1
      stack[sp - 1] = stack[sp - 1] - stack[sp]
      pc = pc + 1
    elseif op == MUL then
      sp = sp - 1
      stack[sp - 1] = stack[sp - 1] * stack[sp]
      pc = pc + 1
    elseif op == MOD then
      sp = sp - 1
      stack[sp - 1] = stack[sp - 1] % stack[sp]
      pc = pc + 1
    elseif op == LT then
      sp = sp - 1
      if stack[sp - 1] < stack[sp] then stack[sp - 1] = 1 else stack[sp - 1] = 0 end
      pc = pc + 1
    elseif op == LE then
      sp = sp - 1
      if stack[sp - 1] <= stack[sp] then stack[sp - 1] = 1 else stack[sp - 1] = 0 end
      pc = pc + 1
    elseif op == JZ then
      sp = sp - 1
      if stack[sp] == 0 then pc = program[pc + 1] else pc = pc + 2 end
    elseif op == JMP then
      pc = program[pc + 1]
    elseif op == INC then
      local r = program[pc + 1]
      regs[r] = regs[r] + 1
      pc = pc + 2
    elseif op == DUP then
      stack[sp] = stack[sp - 1]
      sp = sp + 1
      pc = pc + 1
    elseif op == POP then
      sp = sp - 1
      pc = pc + 1
    elseif op == XOR then
      sp = sp - 1
      stack[sp - 1] = bxor(stack[sp - 1], stack[sp])
      pc = pc + 1
    else
      return steps
    end
  end
end
local function copy_program()
  local program = {}
  for i = 0, size - 1 do program[i] = code[i] end
  return program
end
-- Program 1: r1 = number of primes below r0, by trial division.
-- r2 = candidate, r3 = divisor.
local function assemble_primes()
  size = 0
  emit2(PUSH, 2)
  emit2(STORE, 2)
  emit2(PUSH, 0)
  emit2(STORE, 1)
  local outer = size
  emit2(LOAD, 2)
  emit2(LOAD, 0)
  emit(LT)
  local exit_jump = emit2(JZ, 0)
  emit2(PUSH, 2)
  emit2(STORE, 3)
  local inner = size
  emit2(LOAD, 3)
  emit2(LOAD, 3)
  emit(MUL)
  emit2(LOAD, 2)
  emit(LE)
  local prime_jump = emit2(JZ, 0)
  emit2(LOAD, 2)
  emit2(LOAD, 3)
  emit(MOD)
  local composite_jump = emit2(JZ, 0)
  emit2(INC, 3)
  emit2(JMP, inner)
  code[prime_jump + 1] = size
  emit2(INC, 1)
  code[composite_jump + 1] = size
  emit2(INC, 2)
  emit2(JMP, outer)
  code[exit_jump + 1] = size
  emit(HALT)
  return copy_program()
end
-- Program 2: r1 = a checksum over i < r0, j < r4:
-- r1 = (r1 * 31 + (i ^ j)) % 1000003.
local function assemble_checksum()
  size = 0
  emit2(PUSH, 0)
  emit2(STORE, 2)
  emit2(PUSH, 0)
  emit2(STORE, 1)
  local outer = size
  emit2(LOAD, 2)
  emit2(LOAD, 0)
  emit(LT)
  local exit_jump = emit2(JZ, 0)
  emit2(PUSH, 0)
  emit2(STORE, 3)
  local inner = size
  emit2(LOAD, 3)
  emit2(LOAD, 4)
  emit(LT)
  local next_jump = emit2(JZ, 0)
  emit2(LOAD, 1)
  emit2(PUSH, 31)
  emit(MUL)
  emit2(LOAD, 2)
  emit2(LOAD, 3)
  emit(XOR)
  emit(ADD)
  emit2(PUSH, 1000003)
  emit(MOD)
  emit2(STORE, 1)
  emit2(INC, 3)
  emit2(JMP, inner)
  code[next_jump + 1] = size
  emit2(INC, 2)
  emit2(JMP, outer)
  code[exit_jump + 1] = size
  emit(HALT)
  return copy_program()
end
local regs = {}
for i = 0, 7 do regs[i] = 0 end
local primes = assemble_primes()
regs[0] = 200000
local steps = run(primes, regs)
print(string.format("%d %d %d", len(primes), regs[1], steps))
local checksum = assemble_checksum()
regs[0] = 2000
regs[4] = 2000
steps = run(checksum, regs)
print(string.format("%d %d %d", len(checksum), regs[1], steps))
