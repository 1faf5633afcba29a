-- Polynomial arithmetic modulo the prime 998244353: a full schoolbook
-- product of two random polynomials, then f^e mod x^m by repeated squaring
-- with truncated products. Prints checksums.
-- The LCG wraps at 64 bits: uint64_t cdata. Products of two coefficients
-- reach 2^60: they are taken in int64_t cdata (whose % is C's). Everything
-- else stays non-negative and below 2^53, where Lua numbers, % and floored
-- division give Toy's results.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor = math.floor
local int64 = ffi.typeof("int64_t")
local P = 998244353
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 555)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
local function zeros(n)
  local t = {}
  for i = 0, n - 1 do t[i] = 0 end
  return t
end
local function random_poly(n)
  local a = zeros(n)
  for i = 0, n - 1 do a[i] = next_random() % P end
  return a
end
local function mul_full(a, b)
  local na, nb = len(a), len(b)
  local c = zeros(na + nb - 1)
  for i = 0, na - 1 do
    local ai = a[i]
    for j = 0, nb - 1 do c[i + j] = tonumber((c[i + j] + int64(ai) * b[j]) % P) end
  end
  return c
end
-- a * b mod x^m (both of length m)
local function mul_trunc(a, b, m)
  local c = zeros(m)
  for i = 0, m - 1 do
    local ai = a[i]
    if ai ~= 0 then
      for j = 0, m - i - 1 do c[i + j] = tonumber((c[i + j] + int64(ai) * b[j]) % P) end
    end
  end
  return c
end
local function checksum(a)
  local s = 0
  for i = 0, len(a) - 1 do s = (s + a[i] * ((i % 1000) + 1)) % P end
  return s
end
local a = random_poly(8000)
local b = random_poly(7000)
local c = mul_full(a, b)
print(string.format("%d %d %d %d %d", len(c), c[0], c[1000], c[len(c) - 1], checksum(c)))
-- evaluate at a point both ways as a consistency check
local function eval(p, x)
  local r = 0
  local i = len(p) - 1
  while i >= 0 do
    r = tonumber((int64(r) * x + p[i]) % P)
    i = i - 1
  end
  return r
end
local x0 = 123456789
print(string.format("%d %d", eval(c, x0), tonumber(int64(eval(a, x0)) * eval(b, x0) % P)))
local m = 5000
local f = zeros(m)
f[0] = 1
for i = 1, 39 do f[i] = next_random() % P end
local e = 1000003
local result = zeros(m)
result[0] = 1
local base = f
local steps = 0
while e > 0 do
  if e % 2 == 1 then
    result = mul_trunc(result, base, m)
    steps = steps + 1
  end
  e = floor(e / 2)
  if e > 0 then
    base = mul_trunc(base, base, m)
    steps = steps + 1
  end
end
print(string.format("%d %d %d %d %d", steps, result[1], result[2], result[m - 1], checksum(result)))
