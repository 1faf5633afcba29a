-- Integer math: Miller–Rabin primality (bases 2, 3, 5, 7: exact below
-- 3 215 031 751) over a window of large odd numbers, Euler's totient by
-- trial-division factoring, and a gcd sum.
-- mulmod's product reaches 2^62: it is taken in int64_t cdata (whose % is
-- C's); everything else stays non-negative and below 2^53, where Lua
-- numbers, % and floored division give Toy's results.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor = math.floor
local int64 = ffi.typeof("int64_t")
local function mulmod(a, b, m)
  return tonumber(int64(a) * b % m)
end
local function powmod(base, e, m)
  local result = 1
  local b = base % m
  while e > 0 do
    if band(e, 1) == 1 then result = mulmod(result, b, m) end
    b = mulmod(b, b, m)
    e = rshift(e, 1)
  end
  return result
end
local function witness(a, n, d, s)
  local x = powmod(a, d, n)
  if x == 1 or x == n - 1 then return false end
  for r = 1, s - 1 do
    x = mulmod(x, x, n)
    if x == n - 1 then return false end
  end
  return true
end
local function is_prime(n)
  if n < 2 then return false end
  local small = { [0] = 2, 3, 5, 7 }
  for i = 0, 3 do
    if n % small[i] == 0 then return n == small[i] end
  end
  local d, s = n - 1, 0
  while d % 2 == 0 do
    d = floor(d / 2)
    s = s + 1
  end
  for i = 0, 3 do
    if witness(small[i], n, d, s) then return false end
  end
  return true
end
local function totient(n)
  local result = n
  local p = 2
  while p * p <= n do
    if n % p == 0 then
      while n % p == 0 do n = floor(n / p) end
      result = result - floor(result / p)
    end
    p = p + 1
  end
  if n > 1 then result = result - floor(result / n) end
  return result
end
local function gcd(a, b)
  while b ~= 0 do
    local t = a % b
    a = b
    b = t
  end
  return a
end
local start, count, largest = 2000000001, 0, 0
for k = 0, 400000 - 1 do
  local n = start + 2 * k
  if is_prime(n) then
    count = count + 1
    largest = n
  end
end
print(string.format("%d %d", count, largest))
local phi_sum = 0
for n = 1, 150000 do phi_sum = phi_sum + totient(n) end
print(string.format("%d", phi_sum))
local gcd_sum = 0
for a = 1, 2500 do
  for b = 1, 2500 do gcd_sum = gcd_sum + gcd(a * 7919 % 100003, b) end
end
print(string.format("%d", gcd_sum))
