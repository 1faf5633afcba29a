-- Recursive quicksort (Hoare partition, middle pivot) of random int tables.
-- The LCG and the hash wrap at 64 bits: uint64_t/int64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor = math.floor
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 12345)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function quicksort(a, lo, hi)
  if lo >= hi then return end
  local pivot = a[lo + floor((hi - lo) / 2)]
  local i, j = lo, hi
  while i <= j do
    while a[i] < pivot do i = i + 1 end
    while a[j] > pivot do j = j - 1 end
    if i <= j then
      local t = a[i]
      a[i] = a[j]
      a[j] = t
      i = i + 1
      j = j - 1
    end
  end
  quicksort(a, lo, j)
  quicksort(a, i, hi)
end
local n = 1000000
local a = {}
for i = 0, n - 1 do a[i] = 0 end
local hash = 0LL
for round = 0, 4 do
  local range = 1000 + round * 100000000
  for i = 0, n - 1 do a[i] = next_random() % range end
  quicksort(a, 0, n - 1)
  local unsorted = 0
  for i = 1, n - 1 do
    if a[i - 1] > a[i] then unsorted = unsorted + 1 end
    hash = hash * 31 + a[i]
  end
  print(string.format("%d %d %d %d", a[0], a[floor(n / 2)], a[n - 1], unsorted))
end
print(string.format("%d", hash))
