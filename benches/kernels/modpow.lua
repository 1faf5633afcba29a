-- Deterministic Miller-Rabin (the first twelve prime bases) with modular
-- multiplication by double-and-add, so no product ever overflows; counts the
-- primes in windows of numbers up to about 10^15.
-- Every value stays below 2^51, exact as a Lua number. LuaJIT's bit ops are
-- 32-bit, so halving and parity use floor and fmod (which, unlike Lua's
-- floored %, is exact for large operands).
local floor, fmod = math.floor, math.fmod
local bases = {[0] = 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}
-- a * b mod m for 0 <= a, b < m < 2^52.
local function mulmod(a, b, m)
  local r = 0
  while b > 0 do
    if fmod(b, 2) ~= 0 then
      r = r + a
      if r >= m then r = r - m end
    end
    a = a + a
    if a >= m then a = a - m end
    b = floor(b / 2)
  end
  return r
end
local function powmod(base, e, m)
  local result, b = 1, fmod(base, m)
  while e > 0 do
    if fmod(e, 2) ~= 0 then result = mulmod(result, b, m) end
    b = mulmod(b, b, m)
    e = floor(e / 2)
  end
  return result
end
local function is_prime(n)
  if n < 2 then return false end
  for i = 0, 11 do
    if fmod(n, bases[i]) == 0 then return n == bases[i] end
  end
  local d, s = n - 1, 0
  while fmod(d, 2) == 0 do
    d = d / 2
    s = s + 1
  end
  for i = 0, 11 do
    local x = powmod(bases[i], d, n)
    if x ~= 1 and x ~= n - 1 then
      local composite = true
      for r = 1, s - 1 do
        x = mulmod(x, x, n)
        if x == n - 1 then
          composite = false
          break
        end
      end
      if composite then return false end
    end
  end
  return true
end
local starts = {1, 1000000007, 1000000000000, 562949953421312, 999999999990000}
local total, check = 0, 0
for w = 1, #starts do
  local count, last = 0, 0
  for n = starts[w], starts[w] + 30000 - 1 do
    if is_prime(n) then
      count = count + 1
      last = n
      check = (check * 7 + fmod(n, 1000003)) % 1000000007
    end
  end
  print(string.format("%d %d %d", starts[w], count, last))
  total = total + count
end
print(string.format("%d %d", total, check))
