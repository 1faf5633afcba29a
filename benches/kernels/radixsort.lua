-- LSD radix sort with 8-bit digits and a counting array, four passes over
-- 31-bit keys, ping-ponging between two buffers; each round sorts a fresh
-- permutation of the key set (keys xor a random mask), verifies and sums.
-- Keys stay below 2^31, so LuaJIT's 32-bit bit ops give Toy's results; the
-- minstd LCG products stay below 2^47, exact as Lua numbers.
local band, bxor, rshift = bit.band, bit.bxor, bit.rshift
local seed = 777
local function next_random()
  seed = seed * 48271 % 2147483647
  return seed
end
local function radix_sort(a, tmp, n)
  local count = {}
  local src, dst = a, tmp
  for shift = 0, 24, 8 do
    for b = 0, 255 do count[b] = 0 end
    for i = 0, n - 1 do
      local d = band(rshift(src[i], shift), 255)
      count[d] = count[d] + 1
    end
    local sum = 0
    for b = 0, 255 do
      local c = count[b]
      count[b] = sum
      sum = sum + c
    end
    for i = 0, n - 1 do
      local v = src[i]
      local d = band(rshift(v, shift), 255)
      dst[count[d]] = v
      count[d] = count[d] + 1
    end
    src, dst = dst, src
  end
end
local n = 1000000
local keys = {}
for i = 0, n - 1 do keys[i] = next_random() end
local a, tmp = {}, {}
for i = 0, n - 1 do a[i] = 0; tmp[i] = 0 end
local check, unsorted = 0, 0
for round = 0, 39 do
  local mask = next_random()
  for i = 0, n - 1 do a[i] = bxor(keys[i], mask) end
  radix_sort(a, tmp, n)
  for i = 1, n - 1 do
    if a[i - 1] > a[i] then unsorted = unsorted + 1 end
  end
  for i = 0, n - 1, 997 do check = (check * 31 + a[i]) % 1000000007 end
  if round % 10 == 0 then
    print(string.format("%d %d %d %d", round, a[0], a[n / 2], a[n - 1]))
  end
end
print(string.format("%d %d", unsorted, check))
