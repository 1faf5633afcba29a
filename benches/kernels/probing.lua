-- Open-addressing hash map from int keys to int values: linear probing,
-- tombstones for deletion, rebuild when used slots pass 3/4 of capacity.
-- The LCG wraps at 64 bits: uint64_t cdata. hash() multiplies in int64_t
-- cdata (wrapping like Toy's *), on which LuaJIT's bit library works with
-- all 64 bits (bit.arshift is Toy's arithmetic >>). Everything else is
-- non-negative and below 2^53 (v * k < 2^41), exact as a Lua number.
local ffi = require("ffi")
local band, bxor, rshift, arshift = bit.band, bit.bxor, bit.rshift, bit.arshift
local int64 = ffi.typeof("int64_t")
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 31337)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end

local EMPTY = 0
local TOMB = -1

local cap = 2 ^ 17
local mask = cap - 1
local function filled(n, value)
  local t = {}
  for i = 0, n - 1 do t[i] = value end
  return t
end
local keys = filled(cap, EMPTY)
local vals = filled(cap, 0)
local size = 0
local tombs = 0
local rebuilds = 0

local function hash(k)
  local h = int64(k) * 0x2545F4914F6CDD1DLL
  h = bxor(h, arshift(h, 29))
  return tonumber(band(h, mask))
end

local function rebuild()
  local old_keys, old_vals = keys, vals
  keys = filled(cap, EMPTY)
  vals = filled(cap, 0)
  for i = 0, cap - 1 do
    local k = old_keys[i]
    if k ~= EMPTY and k ~= TOMB then
      local j = hash(k)
      while keys[j] ~= EMPTY do j = band(j + 1, mask) end
      keys[j] = k
      vals[j] = old_vals[i]
    end
  end
  tombs = 0
  rebuilds = rebuilds + 1
end

local function insert(k, v)
  local i = hash(k)
  local slot = -1
  while keys[i] ~= EMPTY do
    if keys[i] == k then
      vals[i] = v
      return
    end
    if keys[i] == TOMB and slot < 0 then slot = i end
    i = band(i + 1, mask)
  end
  if slot >= 0 then
    tombs = tombs - 1
  else
    slot = i
  end
  keys[slot] = k
  vals[slot] = v
  size = size + 1
  if (size + tombs) * 4 > cap * 3 then rebuild() end
end

local function find(k)
  local i = hash(k)
  while keys[i] ~= EMPTY do
    if keys[i] == k then return i end
    i = band(i + 1, mask)
  end
  return -1
end

local function lookup(k)
  local i = find(k)
  if i < 0 then return -1 end
  return vals[i]
end

local function remove(k)
  local i = find(k)
  if i < 0 then return false end
  keys[i] = TOMB
  vals[i] = 0
  size = size - 1
  tombs = tombs + 1
  return true
end

local range = 110000
local ops = 15000000
local hits, misses, removed, sum = 0, 0, 0, 0
for t = 0, ops - 1 do
  local op = next_random() % 10
  local k = next_random() % range + 1
  if op < 4 then
    insert(k, t)
  elseif op < 7 then
    local v = lookup(k)
    if v >= 0 then
      hits = hits + 1
      sum = (sum + v * k) % 1000000007
    else
      misses = misses + 1
    end
  else
    if remove(k) then removed = removed + 1 end
  end
  if (t + 1) % 3000000 == 0 then
    print(string.format("%d %d %d %d %d %d %d %d", t + 1, size, tombs, rebuilds, hits, misses, removed, sum))
  end
end
local check = 0
for i = 0, cap - 1 do
  if keys[i] > 0 then check = (check * 131 + keys[i] * 7 + vals[i]) % 1000000007 end
end
print(string.format("%d %d", size, check))
