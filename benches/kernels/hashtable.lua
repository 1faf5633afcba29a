-- Open-addressing hash table (linear probing) on int tables: counting
-- occurrences of random keys, then looking keys up.
-- The LCG wraps at 64 bits: uint64_t cdata. In hash(), keys are below 2^22
-- and h * 0x45d9f3b below 2^49, exact as a Lua number; h >> 16 is a floored
-- division, and the 32-bit bxor keeps the low 32 bits of the 64-bit result,
-- all that the 21-bit mask looks at.
local ffi = require("ffi")
local band, bxor, rshift = bit.band, bit.bxor, bit.rshift
local floor, max = math.floor, math.max
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 99)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function hash(key)
  local h = bxor(key, rshift(key, 16))
  h = h * 0x45d9f3b
  h = bxor(h, floor(h / 65536))
  return h
end
-- Keys are positive; 0 marks an empty slot.
local bits = 21
local capacity = 2 ^ bits
local mask = capacity - 1
local keys, counts = {}, {}
for i = 0, capacity - 1 do keys[i] = 0; counts[i] = 0 end
local size = 0
local function add(key)
  local i = band(hash(key), mask)
  while keys[i] ~= 0 do
    if keys[i] == key then
      counts[i] = counts[i] + 1
      return
    end
    i = band(i + 1, mask)
  end
  keys[i] = key
  counts[i] = 1
  size = size + 1
end
local function lookup(key)
  local i = band(hash(key), mask)
  while keys[i] ~= 0 do
    if keys[i] == key then return counts[i] end
    i = band(i + 1, mask)
  end
  return 0
end
local n, range = 1200000, 1500000
for i = 0, n - 1 do add(1 + next_random() % range) end
local found, total = 0, 0
for round = 0, 3 do
  for i = 0, n - 1 do
    local c = lookup(1 + next_random() % (2 * range))
    if c > 0 then
      found = found + 1
      total = total + c
    end
  end
end
local longest, run = 0, 0
for i = 0, capacity - 1 do
  if keys[i] ~= 0 then
    run = run + 1
    longest = max(longest, run)
  else
    run = 0
  end
end
print(string.format("%d %d %d %d", size, found, total, longest))
