-- Big-number arithmetic in base-10000 limb tables (least significant limb
-- first): N! by repeated small multiplication, 2^N by repeated doubling,
-- and a large Fibonacci number by repeated addition. Prints digit counts,
-- digit sums and a few leading limbs.
-- Limbs are below 10^4 and num[i] * m + carry below 2^31: Lua numbers are
-- exact, and every value is non-negative, so floored division is Toy's /.
local floor, max = math.floor, math.max
local BASE = 10000
local function zeros(n)
  local t = {}
  for i = 0, n - 1 do t[i] = 0 end
  return t
end
-- num[0..n] *= m (m < BASE * BASE); returns the new length.
local function mul_small(num, n, m)
  local carry = 0
  for i = 0, n - 1 do
    local t = num[i] * m + carry
    num[i] = t % BASE
    carry = floor(t / BASE)
  end
  while carry > 0 do
    num[n] = carry % BASE
    carry = floor(carry / BASE)
    n = n + 1
  end
  return n
end
-- c = a + b, where a has length na and b length nb; returns c's length.
local function add(a, na, b, nb, c)
  local n = max(na, nb)
  local carry = 0
  for i = 0, n - 1 do
    local t = carry
    if i < na then t = t + a[i] end
    if i < nb then t = t + b[i] end
    if t >= BASE then
      c[i] = t - BASE
      carry = 1
    else
      c[i] = t
      carry = 0
    end
  end
  if carry > 0 then
    c[n] = carry
    n = n + 1
  end
  return n
end
local function decimal_digits(num, n)
  local top = num[n - 1]
  local d = 0
  while top > 0 do
    d = d + 1
    top = floor(top / 10)
  end
  return d + 4 * (n - 1)
end
local function digit_sum(num, n)
  local s = 0
  for i = 0, n - 1 do
    local x = num[i]
    while x > 0 do
      s = s + x % 10
      x = floor(x / 10)
    end
  end
  return s
end
local function report(name, num, n)
  print(string.format("%d %d %d %d %d %d", name, decimal_digits(num, n), digit_sum(num, n),
    num[n - 1], num[n - 2], num[0]))
end
-- Factorial.
local fact = zeros(20000)
fact[0] = 1
local nf = 1
for k = 2, 12000 do nf = mul_small(fact, nf, k) end
report(12000, fact, nf)
-- Powers of two, by doubling.
local pow = zeros(20000)
pow[0] = 1
local np = 1
for k = 0, 40000 - 1 do np = mul_small(pow, np, 2) end
report(40000, pow, np)
-- Fibonacci, rotating three buffers.
local f0, f1, f2 = zeros(20000), zeros(20000), zeros(20000)
local n0, n1 = 1, 1
f1[0] = 1
for k = 2, 60000 do
  local n2 = add(f0, n0, f1, n1, f2)
  local t = f0
  f0 = f1
  n0 = n1
  f1 = f2
  n1 = n2
  f2 = t
end
report(60000, f1, n1)
