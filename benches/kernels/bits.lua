-- Bit manipulation on 64-bit ints: a xorshift64 generator, SWAR popcount,
-- bit reversal, trailing zeros, parity and Gray codes.
-- Values are int64_t cdata and LuaJIT's bit library works on all 64 bits:
-- bit.arshift is Toy's arithmetic >>, bit.rshift the logical shift that the
-- Toy kernel spells shr().
local band, bor, bxor = bit.band, bit.bor, bit.bxor
local lshift, rshift, arshift = bit.lshift, bit.rshift, bit.arshift
local M1 = 0x5555555555555555LL
local M2 = 0x3333333333333333LL
local M4 = 0x0f0f0f0f0f0f0f0fLL
local H01 = 0x0101010101010101LL
local function shr(x, n)
  return rshift(x, n)
end
local function xorshift(x)
  x = bxor(x, lshift(x, 13))
  x = bxor(x, shr(x, 7))
  x = bxor(x, lshift(x, 17))
  return x
end
local function popcount(x)
  x = x - band(arshift(x, 1), M1)
  x = band(x, M2) + band(arshift(x, 2), M2)
  x = band(x + arshift(x, 4), M4)
  return tonumber(shr(x * H01, 56))
end
local function reverse(x)
  x = bor(band(arshift(x, 1), M1), lshift(band(x, M1), 1))
  x = bor(band(arshift(x, 2), M2), lshift(band(x, M2), 2))
  x = bor(band(arshift(x, 4), M4), lshift(band(x, M4), 4))
  x = bor(band(arshift(x, 8), 0x00ff00ff00ff00ffLL), lshift(band(x, 0x00ff00ff00ff00ffLL), 8))
  x = bor(band(arshift(x, 16), 0x0000ffff0000ffffLL), lshift(band(x, 0x0000ffff0000ffffLL), 16))
  return bor(shr(x, 32), lshift(x, 32))
end
local function trailing_zeros(x)
  if x == 0 then return 64 end
  return popcount(band(x, -x) - 1)
end
local function parity(x)
  x = bxor(x, shr(x, 32))
  x = bxor(x, arshift(x, 16))
  x = bxor(x, arshift(x, 8))
  x = bxor(x, arshift(x, 4))
  x = bxor(x, arshift(x, 2))
  x = bxor(x, arshift(x, 1))
  return tonumber(band(x, 1))
end
local function gray_decode(g)
  local x, s = g, 1
  while s < 64 do
    x = bxor(x, shr(x, s))
    s = s * 2
  end
  return x
end
local x = 88172645463325252LL
local ones, zeros, odd, mixed = 0, 0, 0, 0LL
for i = 0, 36000000 - 1 do
  x = xorshift(x)
  ones = ones + popcount(x)
  zeros = zeros + trailing_zeros(x)
  odd = odd + parity(x)
  local r = reverse(x)
  mixed = bxor(mixed, r + i)
  local g = bxor(x, shr(x, 1))
  if gray_decode(g) ~= x then print(string.format("gray code mismatch %d", i)) end
  mixed = bxor(lshift(mixed, 1), shr(g, 3))
end
print(string.format("%d %d %d", ones, zeros, odd))
print(string.format("%d %d", mixed, x))
