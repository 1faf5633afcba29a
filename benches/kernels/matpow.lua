-- Integer matrix exponentiation modulo a prime by repeated squaring on
-- 64x64 matrices of row tables; prints the trace and a checksum of each
-- power.
-- Products of two entries reach 2^60: they are taken in int64_t cdata
-- (whose % is C's), and so are the exponents, which reach 2^62 (/ on them
-- is C's integer division). Entries, traces and checksums stay non-negative
-- and below 2^53, where Lua numbers and % give Toy's results; so do the
-- minstd LCG's products.
local ffi = require("ffi")
local bor, lshift = bit.bor, bit.lshift
local int64 = ffi.typeof("int64_t")
local P = 1000000007
local function zero_matrix(n)
  local m = {}
  for i = 0, n - 1 do
    local row = {}
    for j = 0, n - 1 do row[j] = 0 end
    m[i] = row
  end
  return m
end
local function identity(n)
  local m = zero_matrix(n)
  for i = 0, n - 1 do m[i][i] = 1 end
  return m
end
local function mat_mul(a, b, n)
  local c = zero_matrix(n)
  for i = 0, n - 1 do
    local ai = a[i]
    local ci = c[i]
    for k = 0, n - 1 do
      local x = ai[k]
      if x ~= 0 then
        local bk = b[k]
        for j = 0, n - 1 do ci[j] = tonumber((ci[j] + int64(x) * bk[j]) % P) end
      end
    end
  end
  return c
end
local function mat_pow(m, n, e)
  local result = identity(n)
  local base = m
  e = int64(e)
  while e > 0 do
    if e % 2 == 1 then result = mat_mul(result, base, n) end
    base = mat_mul(base, base, n)
    e = e / 2
  end
  return result
end
local function trace(m, n)
  local t = 0
  for i = 0, n - 1 do t = (t + m[i][i]) % P end
  return t
end
local function checksum(m, n)
  local h = 0
  for i = 0, n - 1 do
    for j = 0, n - 1 do h = (h * 31 + m[i][j]) % P end
  end
  return h
end
local n = 64
local seed = 99991
local m = zero_matrix(n)
for i = 0, n - 1 do
  for j = 0, n - 1 do
    seed = (seed * 48271) % 2147483647
    m[i][j] = seed % 1000
  end
end
local exponents = { [0] = 1LL, 2LL, 10LL, 1000000006LL, 123456789123LL, 999999999999999LL,
  4611686018427387903LL, 7LL }
for k = 0, 7 do
  local r = mat_pow(m, n, exponents[k])
  print(string.format("%d %d %d", exponents[k], trace(r, n), checksum(r, n)))
end
-- A batch of random 62-bit exponents, folded into one checksum.
local batch = 0
for k = 0, 11 do
  seed = (seed * 48271) % 2147483647
  local hi = seed
  seed = (seed * 48271) % 2147483647
  local e = bor(lshift(int64(hi), 31), seed)
  local r = mat_pow(m, n, e)
  batch = (batch * 1000 + trace(r, n) + checksum(r, n)) % P
end
print(string.format("%d", batch))
-- Fermat-style check: M^(P-1) * M equals M^P.
local a = mat_mul(mat_pow(m, n, P - 1), m, n)
local b = mat_pow(m, n, P)
local same = true
for i = 0, n - 1 do
  for j = 0, n - 1 do
    if a[i][j] ~= b[i][j] then same = false end
  end
end
print(string.format("%s %d %d", tostring(same), trace(a, n), checksum(b, n)))
