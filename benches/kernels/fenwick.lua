local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift

local function i64str(x) return (tostring(ffi.cast("int64_t", x)):gsub("LL$", "")) end

local S = ffi.new("uint64_t[1]", 42)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end

local function add(tree, n, i, delta)
  local j = i + 1
  while j < n do
    tree[j] = tree[j] + delta
    j = j + band(j, -j)
  end
end

local function prefix(tree, i)
  local s = 0
  local j = i
  while j > 0 do
    s = s + tree[j]
    j = j - band(j, -j)
  end
  return s
end

local function range_sum(tree, lo, hi)
  return prefix(tree, hi) - prefix(tree, lo)
end

local function lmin(a, b) if a < b then return a else return b end end
local function lmax(a, b) if a > b then return a else return b end end

local N = 2 ^ 20
local tn = N + 1
local tree = {}
for i = 0, tn - 1 do tree[i] = 0 end
local plain = {}
for i = 0, N - 1 do plain[i] = 0 end
for i = 0, N - 1 do
  local v = rnd() % 1000
  plain[i] = v
  add(tree, tn, i, v)
end
local OPS = 12000000
local check = 0ULL
local updates = 0
for op = 0, OPS - 1 do
  local r = rnd()
  if r % 4 == 0 then
    local i = rnd() % N
    local v = rnd() % 1000
    add(tree, tn, i, v - plain[i])
    plain[i] = v
    updates = updates + 1
  else
    local a = rnd() % N
    local b = rnd() % N
    local lo = lmin(a, b)
    local hi = lmax(a, b) + 1
    local s = range_sum(tree, lo, hi)
    check = check * 1000003ULL + s
  end
end
local bad, acc = 0, 0
for i = 0, N - 1 do
  acc = acc + plain[i]
  if i % 4096 == 0 and prefix(tree, i + 1) ~= acc then bad = bad + 1 end
end
print(string.format("updates %d total %d bad %d", updates, prefix(tree, N), bad))
print(string.format("check %s", i64str(check)))
