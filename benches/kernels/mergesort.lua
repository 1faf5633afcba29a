-- Top-down recursive merge sort with a scratch table, over LCG-generated
-- ints; checks order and hashes the result, several rounds of growing size.
-- The LCG, the hash and the check wrap at 64 bits: uint64_t/int64_t cdata.
local ffi = require("ffi")
local band, bxor, rshift = bit.band, bit.bxor, bit.rshift
local floor = math.floor
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 4242)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
-- Merges the sorted runs a[lo..mid] and a[mid..hi] through tmp.
local function merge(a, tmp, lo, mid, hi)
  local i, j, k = lo, mid, lo
  while i < mid and j < hi do
    if a[i] <= a[j] then
      tmp[k] = a[i]
      i = i + 1
    else
      tmp[k] = a[j]
      j = j + 1
    end
    k = k + 1
  end
  while i < mid do
    tmp[k] = a[i]
    i = i + 1
    k = k + 1
  end
  while j < hi do
    tmp[k] = a[j]
    j = j + 1
    k = k + 1
  end
  for t = lo, hi - 1 do a[t] = tmp[t] end
end
-- Small runs get an insertion sort.
local function insertion_sort(a, lo, hi)
  for i = lo + 1, hi - 1 do
    local x = a[i]
    local j = i - 1
    while j >= lo and a[j] > x do
      a[j + 1] = a[j]
      j = j - 1
    end
    a[j + 1] = x
  end
end
local function merge_sort(a, tmp, lo, hi)
  if hi - lo <= 16 then
    insertion_sort(a, lo, hi)
    return
  end
  local mid = lo + floor((hi - lo) / 2)
  merge_sort(a, tmp, lo, mid)
  merge_sort(a, tmp, mid, hi)
  if a[mid - 1] <= a[mid] then return end
  merge(a, tmp, lo, mid, hi)
end
local check = 0LL
for round = 0, 3 do
  local n = 250000 * (round + 1)
  local a = {}
  for i = 0, n - 1 do a[i] = 0 end
  for i = 0, n - 1 do a[i] = next_random() % (n * 4) end
  local tmp = {}
  for i = 0, n - 1 do tmp[i] = 0 end
  merge_sort(a, tmp, 0, n)
  local sorted = true
  local hash = 0LL
  for i = 0, n - 1 do
    if i > 0 and a[i - 1] > a[i] then sorted = false end
    hash = hash * 1000003 + a[i]
  end
  print(string.format("%d %d %d %d %s %d", n, a[0], a[floor(n / 2)], a[n - 1], tostring(sorted), hash))
  check = bxor(check, hash)
end
print(string.format("%d", check))
