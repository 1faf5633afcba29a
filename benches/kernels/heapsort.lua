-- Heapsort of many short "strings" held as int tables of character codes,
-- ordered by a lexicographic comparison function; then a check that the
-- result is sorted, a count of distinct strings and a hash of the order.
-- The LCG and the hash wrap at 64 bits: uint64_t/int64_t cdata.
local ffi = require("ffi")
local band, bxor, rshift = bit.band, bit.bxor, bit.rshift
local floor, min = math.floor, math.min
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 2024)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
-- A random word of 2..9 letters over a skewed alphabet, so prefixes repeat.
local function random_word()
  local n = 2 + next_random() % 8
  local w = {}
  for i = 0, n - 1 do w[i] = 0 end
  for i = 0, n - 1 do
    local r = next_random() % 100
    if r < 40 then
      w[i] = 97 + r % 4
    else
      w[i] = 97 + r % 26
    end
  end
  return w
end
-- Negative, zero or positive as a sorts before, equal to or after b.
local function compare(a, b)
  local n = min(len(a), len(b))
  for i = 0, n - 1 do
    if a[i] ~= b[i] then return a[i] - b[i] end
  end
  return len(a) - len(b)
end
local function sift_down(words, start, stop)
  local root = start
  while 2 * root + 1 < stop do
    local child = 2 * root + 1
    if child + 1 < stop and compare(words[child], words[child + 1]) < 0 then child = child + 1 end
    if compare(words[root], words[child]) >= 0 then return end
    local t = words[root]
    words[root] = words[child]
    words[child] = t
    root = child
  end
end
local function heapsort(words, n)
  local start = floor(n / 2) - 1
  while start >= 0 do
    sift_down(words, start, n)
    start = start - 1
  end
  local stop = n - 1
  while stop > 0 do
    local t = words[0]
    words[0] = words[stop]
    words[stop] = t
    sift_down(words, 0, stop)
    stop = stop - 1
  end
end
local function show(w)
  local parts = {}
  for i = 0, len(w) - 1 do parts[i + 1] = string.format("%d", w[i]) end
  return "[" .. table.concat(parts, ", ") .. "]"
end
local n = 250000
for round = 0, 1 do
  local words = {}
  for i = 0, n - 1 do words[i] = { [0] = 0 } end
  for i = 0, n - 1 do words[i] = random_word() end
  heapsort(words, n)
  local sorted = true
  local distinct = 1
  for i = 1, n - 1 do
    local c = compare(words[i - 1], words[i])
    if c > 0 then sorted = false end
    if c ~= 0 then distinct = distinct + 1 end
  end
  local h = 0LL
  for i = 0, n - 1 do
    local w = words[i]
    for j = 0, len(w) - 1 do h = h * 1000003 + w[j] end
    h = bxor(h, i * 7919)
  end
  print(string.format("%d %s %d %d %s %s %s", round, tostring(sorted), distinct, h,
    show(words[0]), show(words[floor(n / 2)]), show(words[n - 1])))
end
