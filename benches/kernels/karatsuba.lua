-- Karatsuba polynomial multiplication modulo 998244353, recursing on array
-- halves with freshly allocated temporaries; checked against schoolbook.
-- The LCG's product reaches 2^61 and products of two coefficients reach
-- 2^60: they are taken in int64_t cdata (whose % is C's). Everything else
-- stays non-negative and below 2^53, where Lua numbers, % and floored
-- division give Toy's results.
local ffi = require("ffi")
local floor = math.floor
local lshift = bit.lshift
local int64 = ffi.typeof("int64_t")
local P = 998244353
local seed = 99991
local function next_random()
  seed = tonumber((int64(seed) * 1103515245 + 12345) % 2147483648)
  return seed
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
-- Product of two length-n polynomials, as an array of length 2n.
local function schoolbook(a, b)
  local n = len(a)
  local c = zeros(2 * n)
  for i = 0, n - 1 do
    local ai = a[i]
    for j = 0, n - 1 do c[i + j] = tonumber((c[i + j] + int64(ai) * b[j]) % P) end
  end
  return c
end
-- len(a) == len(b) == n, a power of two; returns an array of length 2n.
local karatsuba
karatsuba = function(a, b)
  local n = len(a)
  if n <= 32 then return schoolbook(a, b) end
  local h = floor(n / 2)
  local a0, a1, b0, b1, as, bs = zeros(h), zeros(h), zeros(h), zeros(h), zeros(h), zeros(h)
  for i = 0, h - 1 do
    a0[i] = a[i]
    a1[i] = a[i + h]
    b0[i] = b[i]
    b1[i] = b[i + h]
    as[i] = (a0[i] + a1[i]) % P
    bs[i] = (b0[i] + b1[i]) % P
  end
  local z0 = karatsuba(a0, b0)
  local z2 = karatsuba(a1, b1)
  local z1 = karatsuba(as, bs)
  local c = zeros(2 * n)
  for i = 0, n - 1 do
    local mid = (z1[i] - z0[i] - z2[i] + 2 * P) % P
    c[i] = (c[i] + z0[i]) % P
    c[i + h] = (c[i + h] + mid) % P
    c[i + n] = (c[i + n] + z2[i]) % P
  end
  return c
end
local function checksum(c)
  local s = 0
  for i = 0, len(c) - 1 do s = (s * 31 + c[i]) % P end
  return s
end
local a = random_poly(1024)
local b = random_poly(1024)
local k = karatsuba(a, b)
local s = schoolbook(a, b)
local diffs = 0
for i = 0, len(k) - 1 do
  if k[i] ~= s[i] then diffs = diffs + 1 end
end
print(string.format("check %d %d %d %d", len(k), diffs, checksum(k), checksum(s)))
local total = 0
for round = 0, 34 do
  local n = lshift(1024, round % 5)
  local x = random_poly(n)
  local y = random_poly(n)
  local z = karatsuba(x, y)
  local cs = checksum(z)
  print(string.format("%d %d %d %d %d", n, z[0], z[n - 1], z[2 * n - 2], cs))
  total = (total * 7 + cs) % P
end
print(string.format("%d", total))
