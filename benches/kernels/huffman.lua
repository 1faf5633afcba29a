local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift
local floor = math.floor

local function i64str(x) return (tostring(ffi.cast("int64_t", x)):gsub("LL$", "")) end

local S = ffi.new("uint64_t[1]", 31337)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end

local NSYM = 2048
local weight, parent, heap = {}, {}, {}
for i = 0, 2 * NSYM - 1 do weight[i] = 0; parent[i] = 0; heap[i] = 0 end
local heap_size = 0
local lengths = {}
for i = 0, NSYM - 1 do lengths[i] = 0 end

local function lmax(a, b) if a > b then return a else return b end end

local function less(a, b)
  return weight[a] < weight[b] or (weight[a] == weight[b] and a < b)
end

local function heap_push(node)
  local i = heap_size
  heap_size = heap_size + 1
  heap[i] = node
  while i > 0 do
    local p = floor((i - 1) / 2)
    if less(heap[i], heap[p]) then
      local t = heap[i]
      heap[i] = heap[p]
      heap[p] = t
      i = p
    else
      break
    end
  end
end

local function heap_pop()
  local top = heap[0]
  heap_size = heap_size - 1
  heap[0] = heap[heap_size]
  local i = 0
  while true do
    local l = 2 * i + 1
    local r = l + 1
    local m = i
    if l < heap_size and less(heap[l], heap[m]) then m = l end
    if r < heap_size and less(heap[r], heap[m]) then m = r end
    if m == i then break end
    local t = heap[i]
    heap[i] = heap[m]
    heap[m] = t
    i = m
  end
  return top
end

local function build(n)
  heap_size = 0
  for i = 0, n - 1 do
    parent[i] = -1
    heap_push(i)
  end
  local nxt = n
  while heap_size > 1 do
    local a = heap_pop()
    local b = heap_pop()
    weight[nxt] = weight[a] + weight[b]
    parent[nxt] = -1
    parent[a] = nxt
    parent[b] = nxt
    heap_push(nxt)
    nxt = nxt + 1
  end
  local bits = 0
  for i = 0, n - 1 do
    local d = 0
    local p = i
    while parent[p] ~= -1 do
      d = d + 1
      p = parent[p]
    end
    lengths[i] = d
    bits = bits + d * weight[i]
  end
  return bits
end

local TABLES = 3500
local check = 0ULL
local maxlen, kraft_bad = 0, 0
for t = 0, TABLES - 1 do
  local n = NSYM / 2 + rnd() % (NSYM / 2 + 1)
  local shape = t % 3
  for i = 0, n - 1 do
    local r = 1 + rnd() % 1000
    if shape == 0 then weight[i] = r
    elseif shape == 1 then weight[i] = r * r
    else weight[i] = 1 + floor(100000 / (1 + i % 97)) + r % 7 end
  end
  local bits = build(n)
  local ml = 0
  for i = 0, n - 1 do ml = lmax(ml, lengths[i]) end
  local kraft = 0
  for i = 0, n - 1 do kraft = kraft + 2 ^ (ml - lengths[i]) end
  if kraft ~= 2 ^ ml then kraft_bad = kraft_bad + 1 end
  maxlen = lmax(maxlen, ml)
  check = check * 1000003ULL + bits
end
print(string.format("tables %d maxlen %d kraft_bad %d", TABLES, maxlen, kraft_bad))
print(string.format("check %s", i64str(check)))
print(string.format("last lengths %d %d %d %d", lengths[0], lengths[1], lengths[2], lengths[3]))
