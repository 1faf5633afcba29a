local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift

local CAP = 500000
local key, left_, right_, height, count = {}, {}, {}, {}, {}
for i = 0, CAP - 1 do
  key[i] = 0; left_[i] = 0; right_[i] = 0; height[i] = 0; count[i] = 0
end
local nodes = 0

local S = ffi.new("uint64_t[1]", 12345)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end

local function lmax(a, b) if a > b then return a else return b end end

local function update(n)
  height[n] = 1 + lmax(height[left_[n]], height[right_[n]])
end

local function rotate_right(y)
  local x = left_[y]
  left_[y] = right_[x]
  right_[x] = y
  update(y)
  update(x)
  return x
end

local function rotate_left(x)
  local y = right_[x]
  right_[x] = left_[y]
  left_[y] = x
  update(x)
  update(y)
  return y
end

local function rebalance(n)
  update(n)
  local b = height[left_[n]] - height[right_[n]]
  if b > 1 then
    local l = left_[n]
    if height[left_[l]] < height[right_[l]] then
      left_[n] = rotate_left(l)
    end
    return rotate_right(n)
  end
  if b < -1 then
    local r = right_[n]
    if height[right_[r]] < height[left_[r]] then
      right_[n] = rotate_right(r)
    end
    return rotate_left(n)
  end
  return n
end

local function insert(n, k)
  if n == 0 then
    nodes = nodes + 1
    key[nodes] = k
    left_[nodes] = 0
    right_[nodes] = 0
    height[nodes] = 1
    count[nodes] = 1
    return nodes
  end
  if k == key[n] then
    count[n] = count[n] + 1
    return n
  end
  if k < key[n] then
    local t = insert(left_[n], k)
    left_[n] = t
  else
    local t = insert(right_[n], k)
    right_[n] = t
  end
  return rebalance(n)
end

local function find(root, k)
  local n = root
  while n ~= 0 do
    if k == key[n] then return count[n] end
    if k < key[n] then n = left_[n] else n = right_[n] end
  end
  return 0
end

local walk_hash = 0ULL
local walk_prev = -1
local walk_bad = 0
local function walk(n)
  if n == 0 then return end
  walk(left_[n])
  if key[n] <= walk_prev then walk_bad = walk_bad + 1 end
  walk_prev = key[n]
  walk_hash = walk_hash * 31 + key[n] * count[n]
  walk(right_[n])
end

local N = 400000
local RANGE = 1600000
local root = 0
for i = 0, N - 1 do
  root = insert(root, rnd() % RANGE)
end
local found, total = 0, 0
for i = 0, 2 * N - 1 do
  local c = find(root, rnd() % RANGE)
  if c > 0 then
    found = found + 1
    total = total + c
  end
end
walk(root)
print(string.format("nodes %d height %d", nodes, height[root]))
print(string.format("found %d total %d", found, total))
print(string.format("walk %s %d", tostring(ffi.cast("int64_t", walk_hash)):gsub("LL$", ""), walk_bad))
