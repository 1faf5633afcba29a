-- Monte Carlo with an xorshift64 generator (shifts and xors; logical right
-- shifts by masking): estimates pi by darts in a quarter circle, the area
-- under a parabola, and fills a histogram of popcounts of random words.
-- The generator state is int64_t cdata and LuaJIT's bit library works on
-- all 64 bits of it: bit.arshift is Toy's arithmetic >>. random_bits()
-- returns a Lua number below 2^32; x * x stays below 2^48, so its >> 24 is
-- a floored division. popcount() runs on plain numbers, where the bit
-- library works on 32 bits: x & (x - 1) still clears the lowest set bit of
-- a 32-bit word.
local ffi = require("ffi")
local band, bxor = bit.band, bit.bxor
local lshift, arshift = bit.lshift, bit.arshift
local floor = math.floor
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
-- The state is an int64_t cell: a 64-bit cdata kept in an upvalue would be
-- boxed anew on every call.
local state = ffi.new("int64_t[1]", 0x2545F4914F6CDD1DLL)
local function xorshift()
  local x = state[0]
  x = bxor(x, lshift(x, 13))
  x = bxor(x, band(arshift(x, 7), 0x01ffffffffffffffLL))
  x = bxor(x, lshift(x, 17))
  state[0] = x
  return x
end
-- A uniform int in 0..2^bits from the high bits.
local function random_bits(bits)
  return tonumber(band(arshift(xorshift(), 64 - bits), lshift(1LL, bits) - 1))
end
local function popcount(x)
  local n = 0
  while x ~= 0 do
    x = band(x, x - 1)
    n = n + 1
  end
  return n
end
local darts = 20000000
local inside = 0
local r2 = 2 ^ 40
for i = 0, darts - 1 do
  local x = random_bits(20)
  local y = random_bits(20)
  if x * x + y * y < r2 then inside = inside + 1 end
end
local pi = 4.0 * inside / darts
print(string.format("%d %d", inside, trunc(pi * 1000000.0)))
-- Points under y = x^2 on the unit square, in fixed point.
local under = 0
for i = 0, darts - 1 do
  local x = random_bits(24)
  local y = random_bits(24)
  if y < floor((x * x) / 16777216) then under = under + 1 end
end
print(string.format("%d %d", under, trunc(under / darts * 1000000.0)))
-- Popcount histogram of random 32-bit words.
local hist = {}
for k = 0, 32 do hist[k] = 0 end
local samples = 12000000
for i = 0, samples - 1 do
  local k = popcount(random_bits(32))
  hist[k] = hist[k] + 1
end
local mode, mean_num = 0, 0
for k = 0, 32 do
  if hist[k] > hist[mode] then mode = k end
  mean_num = mean_num + k * hist[k]
end
print(string.format("%d %d %d %d %d", mode, hist[16], hist[8], hist[24], hist[0] + hist[32]))
print(string.format("%d %d %d", mean_num, trunc(mean_num / samples * 1000000.0), state[0]))
