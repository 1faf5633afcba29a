-- A register-machine interpreter: fixed-width instructions (op, a, b, c) in
-- an int table, sixteen registers plus a word memory, dispatched by an
-- if/else chain in a while loop. Runs three assembled programs: a sum of
-- gcds by Euclid's algorithm, a sieve in VM memory, and an xorshift loop.
-- The xorshift program needs 64-bit wrapping registers: the registers and
-- the memory are int64_t arrays, whose cdata values LuaJIT's bit library
-- works on with all 64 bits (bit.arshift is Toy's arithmetic >>) and whose
-- % is C's. Instructions stay small Lua numbers.
local ffi = require("ffi")
local band, bxor, lshift, arshift = bit.band, bit.bxor, bit.lshift, bit.arshift
local floor = math.floor
local HALT, LI, MOV, ADD, ADDI, SUB, MUL, MOD = 0, 1, 2, 3, 4, 5, 6, 7
local AND, XOR, SHL, SHR, LD, ST, JMP, BEQ = 8, 9, 10, 11, 12, 13, 14, 15
local BNE, BLT, BGE = 16, 17, 18
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
local code = {}
for i = 0, 1023 do code[i] = 0 end
local size = 0
-- Appends an instruction and returns its index.
local function emit(op, a, b, c)
  code[size * 4] = op
  code[size * 4 + 1] = a
  code[size * 4 + 2] = b
  code[size * 4 + 3] = c
  size = size + 1
  return size - 1
end
local function patch(at, target)
  code[at * 4 + 3] = target
end
local function finish()
  local program = {}
  for i = 0, size * 4 - 1 do program[i] = code[i] end
  size = 0
  return program
end
local function run(program, r, mem)
  local pc, steps = 0, 0
  while true do
    local at = pc * 4
    local op = program[at]
    local a = program[at + 1]
    local b = program[at + 2]
    local c = program[at + 3]
    steps = steps + 1
    pc = pc + 1
    if op == ADDI then
      r[a] = r[b] + c
    elseif op == BGE then
      if r[a] >= r[b] then pc = c end
    elseif op == BEQ then
      if r[a] == r[b] then pc = c end
    elseif op == JMP then
      pc = c
    elseif op == MOV then
      r[a] = r[b]
    elseif op == ADD then
      r[a] = r[b] + r[c]
    elseif op == MOD then
      r[a] = r[b] % r[c]
    elseif op == LD then
      r[a] = mem[r[b]]
    elseif op == ST then
      mem[r[b]] = r[a]
    elseif op == LI then
      r[a] = c
    elseif op == SUB then
      r[a] = r[b] - r[c]
    elseif op == MUL then
      r[a] = r[b] * r[c]
    elseif op == AND then
      r[a] = band(r[b], r[c])
    elseif op == XOR then
      r[a] = bxor(r[b], r[c])
    elseif op == SHL then
      r[a] = lshift(r[b], c)
    elseif op == SHR then
      r[a] = arshift(r[b], c)
    elseif op == BNE then
      if r[a] ~= r[b] then pc = c end
    elseif op == BLT then
      if r[a] < r[b] then pc = c end
    else
      return steps
    end
  end
end
-- r7 = sum of gcd(i, j) for 1 <= i, j < r1. r0 stays 0.
local function assemble_gcd()
  emit(LI, 0, 0, 0)
  emit(LI, 7, 0, 0)
  emit(LI, 2, 0, 1)
  local outer = emit(BGE, 2, 1, 0)
  emit(LI, 3, 0, 1)
  local inner = emit(BGE, 3, 1, 0)
  emit(MOV, 4, 2, 0)
  emit(MOV, 5, 3, 0)
  local gcd = emit(BEQ, 5, 0, 0)
  emit(MOD, 6, 4, 5)
  emit(MOV, 4, 5, 0)
  emit(MOV, 5, 6, 0)
  emit(JMP, 0, 0, gcd)
  patch(gcd, size)
  emit(ADD, 7, 7, 4)
  emit(ADDI, 3, 3, 1)
  emit(JMP, 0, 0, inner)
  patch(inner, size)
  emit(ADDI, 2, 2, 1)
  emit(JMP, 0, 0, outer)
  patch(outer, size)
  emit(HALT, 0, 0, 0)
  return finish()
end
-- r9 = number of primes below r1, sieving in mem[0..r1].
local function assemble_sieve()
  emit(LI, 0, 0, 0)
  emit(LI, 8, 0, 1)
  emit(LI, 2, 0, 2)
  local fill = emit(BGE, 2, 1, 0)
  emit(ST, 8, 2, 0)
  emit(ADDI, 2, 2, 1)
  emit(JMP, 0, 0, fill)
  patch(fill, size)
  emit(LI, 2, 0, 2)
  emit(LI, 9, 0, 0)
  local scan = emit(BGE, 2, 1, 0)
  emit(LD, 3, 2, 0)
  local composite = emit(BEQ, 3, 0, 0)
  emit(ADDI, 9, 9, 1)
  emit(MUL, 4, 2, 2)
  local mark = emit(BGE, 4, 1, 0)
  emit(ST, 0, 4, 0)
  emit(ADD, 4, 4, 2)
  emit(JMP, 0, 0, mark)
  patch(mark, size)
  patch(composite, size)
  emit(ADDI, 2, 2, 1)
  emit(JMP, 0, 0, scan)
  patch(scan, size)
  emit(HALT, 0, 0, 0)
  return finish()
end
-- r1 rounds of xorshift on r5; r7 sums the low byte, r9 counts small values.
local function assemble_xorshift()
  emit(LI, 0, 0, 0)
  emit(LI, 2, 0, 0)
  emit(LI, 7, 0, 0)
  emit(LI, 9, 0, 0)
  emit(LI, 10, 0, 255)
  emit(LI, 11, 0, 1023)
  emit(LI, 12, 0, 100)
  local top = emit(BGE, 2, 1, 0)
  emit(SHL, 6, 5, 13)
  emit(XOR, 5, 5, 6)
  emit(SHR, 6, 5, 7)
  emit(XOR, 5, 5, 6)
  emit(SHL, 6, 5, 17)
  emit(XOR, 5, 5, 6)
  emit(AND, 6, 5, 10)
  emit(ADD, 7, 7, 6)
  emit(AND, 6, 5, 11)
  local big = emit(BGE, 6, 12, 0)
  emit(ADDI, 9, 9, 1)
  patch(big, size)
  emit(ADDI, 2, 2, 1)
  emit(JMP, 0, 0, top)
  patch(top, size)
  emit(HALT, 0, 0, 0)
  return finish()
end
local r = ffi.new("int64_t[16]")
local mem = ffi.new("int64_t[2000000]")
local gcd = assemble_gcd()
r[1] = 1200
local steps = run(gcd, r, mem)
print(string.format("%d %d %d", floor(len(gcd) / 4), r[7], steps))
local sieve = assemble_sieve()
r[1] = 2000000
steps = run(sieve, r, mem)
print(string.format("%d %d %d", floor(len(sieve) / 4), r[9], steps))
local xs = assemble_xorshift()
r[1] = 6000000
r[5] = 88172645463325252LL
steps = run(xs, r, mem)
print(string.format("%d %d %d %d %d", floor(len(xs) / 4), r[7], r[9], r[5], steps))
