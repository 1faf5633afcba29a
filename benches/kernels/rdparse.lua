-- Recursive-descent parser/evaluator (mutually recursive expr/term/factor) over
-- random arithmetic expressions stored as int tokens, evaluated mod 1000003 for many x.
-- The LCG's product reaches 2^61: it is taken in int64_t cdata (whose % is
-- C's). Token codes are negative but never enter / or %; every value the
-- evaluator divides or reduces stays non-negative and below 2^53, where Lua
-- numbers, % and floored division give Toy's results.
local ffi = require("ffi")
local floor = math.floor
local int64 = ffi.typeof("int64_t")
local M = 1000003
-- Token codes; numbers are tokens >= 0.
local PLUS, MINUS, TIMES, DIVIDE = -1, -2, -3, -4
local LPAREN, RPAREN, VARX, END = -5, -6, -7, -8
local seed = 2024
local function next_random()
  seed = tonumber((int64(seed) * 1103515245 + 12345) % 2147483648)
  return floor(seed / 16)
end
local toks = {}
for i = 0, 399999 do toks[i] = 0 end
local ntok = 0
local pos = 0
local function emit(t)
  toks[ntok] = t
  ntok = ntok + 1
end
-- Writes a random expression of nesting depth at most d.
local gen
gen = function(d)
  local r = next_random() % 10
  if d == 0 or r < 2 then
    if next_random() % 3 == 0 then
      emit(VARX)
    else
      emit(next_random() % 1000)
    end
  elseif r < 3 then
    emit(MINUS)
    gen(d - 1)
  elseif r < 5 then
    emit(LPAREN)
    gen(d - 1)
    emit(RPAREN)
  else
    gen(d - 1)
    emit(TIMES - next_random() % 4 + 2)
    gen(d - 1)
  end
end
local parse_term, parse_factor
local function parse_expr(x)
  local v = parse_term(x)
  while true do
    local t = toks[pos]
    if t == PLUS then
      pos = pos + 1
      v = (v + parse_term(x)) % M
    elseif t == MINUS then
      pos = pos + 1
      v = (v - parse_term(x) + M) % M
    else
      return v
    end
  end
end
parse_term = function(x)
  local v = parse_factor(x)
  while true do
    local t = toks[pos]
    if t == TIMES then
      pos = pos + 1
      v = v * parse_factor(x) % M
    elseif t == DIVIDE then
      pos = pos + 1
      v = floor(v / (parse_factor(x) % 13 + 1))
    else
      return v
    end
  end
end
parse_factor = function(x)
  local t = toks[pos]
  pos = pos + 1
  if t >= 0 then return t end
  if t == VARX then return x end
  if t == MINUS then return (M - parse_factor(x)) % M end
  if t == LPAREN then
    local v = parse_expr(x)
    if toks[pos] ~= RPAREN then print(string.format("expected ) at %d", pos)) end
    pos = pos + 1
    return v
  end
  print(string.format("unexpected token %d at %d", t, pos - 1))
  return 0
end
local nexpr = 300
local starts = {}
for e = 0, nexpr - 1 do starts[e] = 0 end
for e = 0, nexpr - 1 do
  starts[e] = ntok
  gen(12 + e % 5)
  emit(END)
end
print(string.format("tokens %d", ntok))
local check, bad = 0, 0
for x = 0, 699 do
  local row = 0
  for e = 0, nexpr - 1 do
    pos = starts[e]
    local v = parse_expr(x * 3331 % M)
    if toks[pos] ~= END then bad = bad + 1 end
    row = (row * 31 + v) % M
  end
  check = (check * 7 + row) % 1000000007
  if x % 100 == 0 then print(string.format("%d %d", x, row)) end
end
print(string.format("%d %d", check, bad))
