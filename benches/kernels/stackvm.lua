-- A tiny stack-machine interpreter: an if/else chain over opcodes, an int
-- table as the operand stack, registers in another int table. Two programs
-- are assembled with forward-jump patching: total Collatz steps for 1..N,
-- and a sum over gcd(i, j) on a square by Euclid's algorithm.
-- All values stay non-negative and far below 2^53, so Lua numbers, % and
-- floor division give Toy's results.
local floor = math.floor
local OP_HALT, OP_PUSH, OP_LOAD, OP_STORE, OP_ADD, OP_SUB, OP_MUL = 0, 1, 2, 3, 4, 5, 6
local OP_DIV, OP_MOD, OP_LT, OP_JZ, OP_JMP, OP_DUP = 7, 8, 9, 10, 11, 12
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end

local code = {}
for i = 0, 511 do code[i] = 0 end
local ncode = 0

local function emit(op)
  code[ncode] = op
  ncode = ncode + 1
end

local function emit_arg(op, arg)
  code[ncode] = op
  code[ncode + 1] = arg
  ncode = ncode + 2
end

-- emits a jump with a placeholder target; returns where to patch it
local function emit_jump(op)
  emit_arg(op, -1)
  return ncode - 1
end

local function patch(at)
  code[at] = ncode
end

-- copies the assembled code into a fresh program table
local function finish()
  local prog = {}
  for i = 0, ncode - 1 do prog[i] = code[i] end
  return prog
end

local function run(prog, regs)
  local stack = {}
  for i = 0, 255 do stack[i] = 0 end
  local sp, pc, executed = 0, 0, 0
  while true do
    local op = prog[pc]
    executed = executed + 1
    if op == OP_PUSH then
      stack[sp] = prog[pc + 1]
      sp = sp + 1
      pc = pc + 2
    elseif op == OP_LOAD then
      stack[sp] = regs[prog[pc + 1]]
      sp = sp + 1
      pc = pc + 2
    elseif op == OP_STORE then
      sp = sp - 1
      regs[prog[pc + 1]] = stack[sp]
      pc = pc + 2
    elseif op == OP_ADD then
      sp = sp - 1
      stack[sp - 1] = stack[sp - 1] + stack[sp]
      pc = pc + 1
    elseif op == OP_SUB then
      sp = sp - 1
      stack[sp - 1] = stack[sp - 1] - stack[sp]
      pc = pc + 1
    elseif op == OP_MUL then
      sp = sp - 1
      stack[sp - 1] = stack[sp - 1] * stack[sp]
      pc = pc + 1
    elseif op == OP_DIV then
      sp = sp - 1
      stack[sp - 1] = floor(stack[sp - 1] / stack[sp])
      pc = pc + 1
    elseif op == OP_MOD then
      sp = sp - 1
      stack[sp - 1] = stack[sp - 1] % stack[sp]
      pc = pc + 1
    elseif op == OP_LT then
      sp = sp - 1
      if stack[sp - 1] < stack[sp] then
        stack[sp - 1] = 1
      else
        stack[sp - 1] = 0
      end
      pc = pc + 1
    elseif op == OP_JZ then
      sp = sp - 1
      if stack[sp] == 0 then
        pc = prog[pc + 1]
      else
        pc = pc + 2
      end
    elseif op == OP_JMP then
      pc = prog[pc + 1]
    elseif op == OP_DUP then
      stack[sp] = stack[sp - 1]
      sp = sp + 1
      pc = pc + 1
    elseif op == OP_HALT then
      break
    else
      print(string.format("bad opcode %d at %d", op, pc))
      break
    end
  end
  return executed
end

-- --- program 1: r1 = sum over n in 1..limit of Collatz steps, r2 = max ---
-- registers: 0 n, 1 total, 2 longest, 3 x, 4 steps
local function collatz_program(limit)
  ncode = 0
  emit_arg(OP_PUSH, 1)
  emit_arg(OP_STORE, 0)
  local outer = ncode
  emit_arg(OP_LOAD, 0)
  emit_arg(OP_PUSH, limit)
  emit(OP_LT)
  local to_end = emit_jump(OP_JZ)
  emit_arg(OP_LOAD, 0)
  emit_arg(OP_STORE, 3)
  emit_arg(OP_PUSH, 0)
  emit_arg(OP_STORE, 4)
  local inner = ncode
  emit_arg(OP_PUSH, 1)
  emit_arg(OP_LOAD, 3)
  emit(OP_LT)
  local to_done = emit_jump(OP_JZ)
  emit_arg(OP_LOAD, 3)
  emit_arg(OP_PUSH, 2)
  emit(OP_MOD)
  local to_even = emit_jump(OP_JZ)
  emit_arg(OP_LOAD, 3)
  emit_arg(OP_PUSH, 3)
  emit(OP_MUL)
  emit_arg(OP_PUSH, 1)
  emit(OP_ADD)
  emit_arg(OP_STORE, 3)
  local to_next = emit_jump(OP_JMP)
  patch(to_even)
  emit_arg(OP_LOAD, 3)
  emit_arg(OP_PUSH, 2)
  emit(OP_DIV)
  emit_arg(OP_STORE, 3)
  patch(to_next)
  emit_arg(OP_LOAD, 4)
  emit_arg(OP_PUSH, 1)
  emit(OP_ADD)
  emit_arg(OP_STORE, 4)
  emit_arg(OP_JMP, inner)
  patch(to_done)
  emit_arg(OP_LOAD, 1)
  emit_arg(OP_LOAD, 4)
  emit(OP_ADD)
  emit_arg(OP_STORE, 1)
  -- if longest < steps { longest = steps }
  emit_arg(OP_LOAD, 2)
  emit_arg(OP_LOAD, 4)
  emit(OP_LT)
  local to_skip = emit_jump(OP_JZ)
  emit_arg(OP_LOAD, 4)
  emit_arg(OP_STORE, 2)
  patch(to_skip)
  emit_arg(OP_LOAD, 0)
  emit_arg(OP_PUSH, 1)
  emit(OP_ADD)
  emit_arg(OP_STORE, 0)
  emit_arg(OP_JMP, outer)
  patch(to_end)
  emit(OP_HALT)
  return finish()
end

-- --- program 2: r2 = sum of g * g - g, g = gcd(i, j), for 1 <= i, j < m ---
-- registers: 0 i, 1 j, 2 sum, 3 a, 4 b, 5 m
local function gcd_program(m)
  ncode = 0
  emit_arg(OP_PUSH, m)
  emit_arg(OP_STORE, 5)
  emit_arg(OP_PUSH, 1)
  emit_arg(OP_STORE, 0)
  local outer = ncode
  emit_arg(OP_LOAD, 0)
  emit_arg(OP_LOAD, 5)
  emit(OP_LT)
  local to_end = emit_jump(OP_JZ)
  emit_arg(OP_PUSH, 1)
  emit_arg(OP_STORE, 1)
  local middle = ncode
  emit_arg(OP_LOAD, 1)
  emit_arg(OP_LOAD, 5)
  emit(OP_LT)
  local to_next_i = emit_jump(OP_JZ)
  emit_arg(OP_LOAD, 0)
  emit_arg(OP_STORE, 3)
  emit_arg(OP_LOAD, 1)
  emit_arg(OP_STORE, 4)
  -- while b != 0 { t = a % b; a = b; b = t }  (stack keeps t)
  local euclid = ncode
  emit_arg(OP_LOAD, 4)
  local to_gcd_done = emit_jump(OP_JZ)
  emit_arg(OP_LOAD, 3)
  emit_arg(OP_LOAD, 4)
  emit(OP_MOD)
  emit_arg(OP_LOAD, 4)
  emit_arg(OP_STORE, 3)
  emit_arg(OP_STORE, 4)
  emit_arg(OP_JMP, euclid)
  patch(to_gcd_done)
  emit_arg(OP_LOAD, 2)
  emit_arg(OP_LOAD, 3)
  emit(OP_DUP)
  emit(OP_MUL)
  emit(OP_ADD)
  emit_arg(OP_LOAD, 3)
  emit(OP_SUB)
  emit_arg(OP_STORE, 2)
  emit_arg(OP_LOAD, 1)
  emit_arg(OP_PUSH, 1)
  emit(OP_ADD)
  emit_arg(OP_STORE, 1)
  emit_arg(OP_JMP, middle)
  patch(to_next_i)
  emit_arg(OP_LOAD, 0)
  emit_arg(OP_PUSH, 1)
  emit(OP_ADD)
  emit_arg(OP_STORE, 0)
  emit_arg(OP_JMP, outer)
  patch(to_end)
  emit(OP_HALT)
  return finish()
end

local regs = {}
for i = 0, 7 do regs[i] = 0 end
local p1 = collatz_program(150000)
local n1 = run(p1, regs)
print(string.format("collatz %d %d %d %d", len(p1), n1, regs[1], regs[2]))

for i = 0, 7 do regs[i] = 0 end
local p2 = gcd_program(1000)
local n2 = run(p2, regs)
print(string.format("gcd %d %d %d", len(p2), n2, regs[2]))
