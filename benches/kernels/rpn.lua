-- Stack-based RPN evaluator: random programs as integer arrays, explicit operand stack.
-- Operand stack values are 64-bit (int64_t cdata array, wrapping arithmetic).
local ffi = require("ffi")
local bit = require("bit")
local band, bxor, rshift, arshift, lshift = bit.band, bit.bxor, bit.rshift, bit.arshift, bit.lshift

local function i64str(x) return (tostring(ffi.cast("int64_t", x)):gsub("LL$", "")) end

local S = ffi.new("uint64_t[1]", 31337)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end

local PUSH, LOADX, ADD, SUB, MUL, DIV, MOD, DUP, SWAP, NEG, AND, XOR, SHR, SHL, LT =
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14

local function gen(n)
  local buf = {}
  local size, depth = 0, 0
  for i = 0, n - 1 do
    local op = 0
    if depth < 2 then
      local c = rnd() % 4
      if c == 0 or depth == 0 then op = PUSH
      elseif c == 1 then op = LOADX
      elseif c == 2 then op = DUP
      else op = NEG end
    elseif depth >= 12 then
      op = ADD + rnd() % 5
    else
      op = rnd() % 15
    end
    buf[size] = op; size = size + 1
    if op == PUSH then
      buf[size] = rnd() % 200 - 100; size = size + 1
      depth = depth + 1
    elseif op == LOADX or op == DUP then
      depth = depth + 1
    elseif op == SWAP or op == NEG then
    else
      depth = depth - 1
    end
  end
  while depth > 1 do buf[size] = ADD; size = size + 1; depth = depth - 1 end
  local code = {}
  for i = 0, size - 1 do code[i] = buf[i] end
  return { code = code, len = size }
end

local function eval(prog, n, x, stack)
  local sp, pc = 0, 0
  while pc < n do
    local op = prog[pc]; pc = pc + 1
    if op == PUSH then
      stack[sp] = prog[pc]; sp = sp + 1; pc = pc + 1
    elseif op == LOADX then
      stack[sp] = x; sp = sp + 1
    elseif op == ADD then
      sp = sp - 1; stack[sp - 1] = stack[sp - 1] + stack[sp]
    elseif op == SUB then
      sp = sp - 1; stack[sp - 1] = stack[sp - 1] - stack[sp]
    elseif op == MUL then
      sp = sp - 1; stack[sp - 1] = stack[sp - 1] * stack[sp]
    elseif op == DIV then
      sp = sp - 1
      local b = stack[sp]
      if b == 0 then stack[sp - 1] = 0
      elseif b == -1 then stack[sp - 1] = -stack[sp - 1]
      else stack[sp - 1] = stack[sp - 1] / b end
    elseif op == MOD then
      sp = sp - 1
      local b = stack[sp]
      if b == 0 or b == -1 then stack[sp - 1] = 0
      else stack[sp - 1] = stack[sp - 1] % b end
    elseif op == DUP then
      stack[sp] = stack[sp - 1]; sp = sp + 1
    elseif op == SWAP then
      local t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t
    elseif op == NEG then
      stack[sp - 1] = -stack[sp - 1]
    elseif op == AND then
      sp = sp - 1; stack[sp - 1] = band(stack[sp - 1], stack[sp])
    elseif op == XOR then
      sp = sp - 1; stack[sp - 1] = bxor(stack[sp - 1], stack[sp])
    elseif op == SHR then
      sp = sp - 1; stack[sp - 1] = arshift(stack[sp - 1], tonumber(band(stack[sp], 63)))
    elseif op == SHL then
      sp = sp - 1; stack[sp - 1] = lshift(stack[sp - 1], tonumber(band(stack[sp], 63)))
    else
      sp = sp - 1; stack[sp - 1] = (stack[sp - 1] < stack[sp]) and 1 or 0
    end
  end
  return stack[0]
end

local nprog = 300
local progs = {}
local ops = 0
for p = 0, nprog - 1 do
  progs[p] = gen(20 + rnd() % 60)
  ops = ops + progs[p].len
end
print(string.format("programs %d words %d", nprog, ops))
local stack = ffi.new("int64_t[64]")
local sum, mix = 0LL, 0LL
local xs = 20000
for p = 0, nprog - 1 do
  local pr = progs[p]
  local h = 0LL
  for x = 0, xs - 1 do
    local r = eval(pr.code, pr.len, x - xs / 2, stack)
    sum = sum + r
    h = bxor(h, r) * 1099511628211LL
  end
  mix = mix * 31 + h
  if p % 50 == 0 then print(string.format("%d %s %s", p, i64str(h), i64str(eval(pr.code, pr.len, 7, stack)))) end
end
print(string.format("sum %s mix %s", i64str(sum), i64str(mix)))
