-- Tail-recursive helpers in functional style (digit sum, digit reversal, gcd,
-- modular power with accumulator, binary search) called from a hot loop.
-- The LCG's product reaches 2^61 and pow_mod's products reach 2^60: they are
-- taken in int64_t cdata (whose % is C's). Everything else stays
-- non-negative and below 2^53 (isum reaches about 1e11), where Lua numbers,
-- % and floored division give Toy's results. The helpers recurse with
-- `return f(...)`, proper tail calls in Lua as in the Toy source.
-- pow_mod tests and halves its (non-negative) exponent with band/rshift, as
-- primes.lua does; the same code written with `e % 2` and floor(e / 2) gives
-- identical results but, by where LuaJIT's hot counter happens to fire, gets
-- no usable trace for pow_mod and runs about 5x slower.
local ffi = require("ffi")
local floor = math.floor
local band, rshift = bit.band, bit.rshift
local int64 = ffi.typeof("int64_t")
local sum_digits
sum_digits = function(n, acc)
  if n == 0 then return acc end
  return sum_digits(floor(n / 10), acc + n % 10)
end
local reverse_digits
reverse_digits = function(n, acc)
  if n == 0 then return acc end
  return reverse_digits(floor(n / 10), acc * 10 + n % 10)
end
local gcd
gcd = function(a, b)
  if b == 0 then return a end
  return gcd(b, a % b)
end
-- b^e * acc mod m, for m below 2^31.
local pow_mod
pow_mod = function(b, e, m, acc)
  if e == 0 then return acc end
  if band(e, 1) == 1 then
    return pow_mod(tonumber(int64(b) * b % m), rshift(e, 1), m, tonumber(int64(acc) * b % m))
  end
  return pow_mod(tonumber(int64(b) * b % m), rshift(e, 1), m, acc)
end
-- First index in a[lo..hi) whose value is >= key (a sorted).
local lower_bound
lower_bound = function(a, key, lo, hi)
  if lo >= hi then return lo end
  local mid = lo + floor((hi - lo) / 2)
  if a[mid] < key then return lower_bound(a, key, mid + 1, hi) end
  return lower_bound(a, key, lo, mid)
end
local n = 200000
local tbl = {}
for i = 0, n - 1 do tbl[i] = 0 end
local x, v = 77, 0
for i = 0, n - 1 do
  x = tonumber((int64(x) * 1103515245 + 12345) % 2147483648)
  v = v + 1 + x % 9
  tbl[i] = v
end
local top = tbl[n - 1]
local MOD = 1000000007
local digits, revs, gsum, coprime, psum, found, isum = 0, 0, 0, 0, 0, 0, 0
for i = 1, 1000000 do
  x = tonumber((int64(x) * 1103515245 + 12345) % 2147483648)
  local y = floor(x / 8)
  digits = digits + sum_digits(y, 0)
  revs = (revs + reverse_digits(y, 0)) % MOD
  local g = gcd(y, i * 7 + 5)
  gsum = gsum + g
  if g == 1 then coprime = coprime + 1 end
  psum = (psum + pow_mod(y % MOD, i, MOD, 1)) % MOD
  local key = y % (top + 10)
  local idx = lower_bound(tbl, key, 0, n)
  if idx < n and tbl[idx] == key then found = found + 1 end
  isum = isum + idx
end
print(string.format("%d %d %d %d", digits, revs, gsum, coprime))
print(string.format("%d %d %d", psum, found, isum))
