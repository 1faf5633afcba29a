-- Recursive three-way (Dutch flag) quicksort of LCG-filled [int] arrays with
-- varying value ranges; the second recursive call is a tail call. Prints checksums.
-- The LCG's product reaches 2^61: it is taken in int64_t cdata (whose % is
-- C's). Everything else stays non-negative and below 2^53, where Lua
-- numbers, % and floored division give Toy's results.
-- The second recursive call is written `return qsort(...)`, a proper Lua
-- tail call, as the Toy header intends (the function returns nothing).
local ffi = require("ffi")
local floor = math.floor
local int64 = ffi.typeof("int64_t")
local seed = 987654321
local function next_random()
  seed = tonumber((int64(seed) * 1103515245 + 12345) % 2147483648)
  return seed
end
local function median3(a, b, c)
  if a < b then
    if b < c then return b end
    if a < c then return c end
    return a
  end
  if a < c then return a end
  if b < c then return c end
  return b
end
-- Sorts a[lo..=hi].
local qsort
qsort = function(a, lo, hi)
  if lo >= hi then return end
  local pivot = median3(a[lo], a[lo + floor((hi - lo) / 2)], a[hi])
  local lt, i, gt = lo, lo, hi
  while i <= gt do
    local v = a[i]
    if v < pivot then
      a[i] = a[lt]
      a[lt] = v
      lt = lt + 1
      i = i + 1
    elseif v > pivot then
      a[i] = a[gt]
      a[gt] = v
      gt = gt - 1
    else
      i = i + 1
    end
  end
  qsort(a, lo, lt - 1)
  return qsort(a, gt + 1, hi)
end
local total = 0
local sizes = { [0] = 800000, 300000, 1200000, 150000, 700000, 1000000 }
local ranges = { [0] = 1000000000, 50, 1000000, 7, 100000000, 3000 }
for r = 0, 5 do
  local n = sizes[r]
  local a = {}
  for i = 0, n - 1 do a[i] = 0 end
  for i = 0, n - 1 do a[i] = next_random() % ranges[r] end
  qsort(a, 0, n - 1)
  local bad, h = 0, 0
  for i = 0, n - 1 do
    if i > 0 and a[i - 1] > a[i] then bad = bad + 1 end
    h = (h * 31 + a[i] + i) % 1000000007
  end
  print(string.format("%d %d %d %d %d %d", n, a[0], a[floor(n / 3)], a[n - 1], bad, h))
  total = (total * 7 + h) % 1000000007
end
print(string.format("%d", total))
