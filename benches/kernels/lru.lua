local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift

local function i64str(x) return (tostring(ffi.cast("int64_t", x)):gsub("LL$", "")) end

local CAP = 50000
local HEAD = CAP
local keys, vals, prev_, next_ = {}, {}, {}, {}
for i = 0, CAP do keys[i] = 0; vals[i] = 0; prev_[i] = 0; next_[i] = 0 end
local TBITS = 17
local TSIZE = 2 ^ TBITS
local MASK = TSIZE - 1
local tbl = {}
for i = 0, TSIZE - 1 do tbl[i] = 0 end
local used = 0

local S = ffi.new("uint64_t[1]", 2024)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end

local function hash(k)
  return tonumber(band(rshift(ffi.cast("uint64_t", k) * 0x9E3779B97F4A7C15ULL, 64 - TBITS), MASK))
end

local function find_pos(k)
  local i = hash(k)
  while tbl[i] ~= -1 do
    if keys[tbl[i]] == k then return i end
    i = band(i + 1, MASK)
  end
  return -1
end

local function table_insert(k, slot)
  local i = hash(k)
  while tbl[i] ~= -1 do i = band(i + 1, MASK) end
  tbl[i] = slot
end

local function table_remove(pos)
  local i, j = pos, pos
  while true do
    j = band(j + 1, MASK)
    if tbl[j] == -1 then break end
    local h = hash(keys[tbl[j]])
    local stays
    if i <= j then stays = i < h and h <= j
    else stays = i < h or h <= j end
    if not stays then
      tbl[i] = tbl[j]
      i = j
    end
  end
  tbl[i] = -1
end

local function unlink_(s)
  next_[prev_[s]] = next_[s]
  prev_[next_[s]] = prev_[s]
end

local function push_front(s)
  local f = next_[HEAD]
  next_[s] = f
  prev_[s] = HEAD
  prev_[f] = s
  next_[HEAD] = s
end

local hits, misses, evictions, sum = 0, 0, 0, 0

local function access_(k)
  local pos = find_pos(k)
  if pos ~= -1 then
    local s = tbl[pos]
    hits = hits + 1
    sum = sum + vals[s]
    vals[s] = vals[s] + 1
    unlink_(s)
    push_front(s)
    return
  end
  misses = misses + 1
  local s
  if used < CAP then
    s = used
    used = used + 1
  else
    s = prev_[HEAD]
    evictions = evictions + 1
    sum = sum + vals[s] * 3
    table_remove(find_pos(keys[s]))
    unlink_(s)
  end
  keys[s] = k
  vals[s] = k % 1000
  table_insert(k, s)
  push_front(s)
end

for i = 0, TSIZE - 1 do tbl[i] = -1 end
next_[HEAD] = HEAD
prev_[HEAD] = HEAD
local OPS = 25000000
for i = 0, OPS - 1 do
  local k
  if rnd() % 10 < 8 then k = rnd() % 70000
  else k = rnd() % 5000000 end
  access_(k)
end
local s = next_[HEAD]
local n = 0
local lh = 0ULL
while s ~= HEAD do
  lh = lh * 131 + keys[s]
  n = n + 1
  s = next_[s]
end
print(string.format("hits %d misses %d evictions %d", hits, misses, evictions))
print(string.format("sum %d list %d %s", sum, n, i64str(lh)))
