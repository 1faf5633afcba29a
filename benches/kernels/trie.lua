local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift
local floor = math.floor

local K = 5
local MAXN = 2500000
local child, pass, ends = {}, {}, {}
for i = 0, MAXN * K - 1 do child[i] = 0 end
for i = 0, MAXN - 1 do pass[i] = 0; ends[i] = 0 end
local nodes = 1

local S = ffi.new("uint64_t[1]", 987654321)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end

local function gen_word(w)
  local n = 3 + rnd() % 10
  for i = 0, n - 1 do
    local r = rnd() % 15
    local c = 0
    if r >= 5 then c = 1 end
    if r >= 9 then c = 2 end
    if r >= 12 then c = 3 end
    if r >= 14 then c = 4 end
    w[i] = c
  end
  return n
end

local function insert(w, n)
  local node = 0
  pass[node] = pass[node] + 1
  for i = 0, n - 1 do
    local slot = node * K + w[i]
    if child[slot] == 0 then
      child[slot] = nodes
      nodes = nodes + 1
    end
    node = child[slot]
    pass[node] = pass[node] + 1
  end
  ends[node] = ends[node] + 1
end

local function count_prefix(w, n)
  local node = 0
  for i = 0, n - 1 do
    node = child[node * K + w[i]]
    if node == 0 then return 0 end
  end
  return pass[node]
end

local function count_exact(w, n)
  local node = 0
  for i = 0, n - 1 do
    node = child[node * K + w[i]]
    if node == 0 then return 0 end
  end
  return ends[node]
end

local w = {}
for i = 0, 15 do w[i] = 0 end
local WORDS = 1000000
for i = 0, WORDS - 1 do
  local n = gen_word(w)
  insert(w, n)
end
local QUERIES = 3000000
local psum, esum, hits = 0, 0, 0
for q = 0, QUERIES - 1 do
  local n = gen_word(w)
  local p = count_prefix(w, 1 + floor(n / 2))
  psum = psum + p
  local e = count_exact(w, n)
  esum = esum + e
  if e > 0 then hits = hits + 1 end
end
print(string.format("nodes %d", nodes))
print(string.format("prefix sum %d", psum))
print(string.format("exact sum %d hits %d", esum, hits))
