-- Binary search: lower and upper bounds in a sorted int table with
-- duplicates (built from random gaps), answering many random queries;
-- also a monotone "first x with f(x) >= target" search for integer roots.
-- The LCG wraps at 64 bits: uint64_t cdata. Everything else is non-negative
-- and below 2^53 (icbrt's x is below 2^43: where mid^3 passes 2^53 and is
-- rounded it is far above x either way), so Lua numbers and floored
-- division give Toy's results.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor = math.floor
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 1234567)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
-- First index i with a[i] >= key (n if none).
local function lower_bound(a, n, key)
  local lo, hi = 0, n
  while lo < hi do
    local mid = floor((lo + hi) / 2)
    if a[mid] < key then lo = mid + 1 else hi = mid end
  end
  return lo
end
-- First index i with a[i] > key (n if none).
local function upper_bound(a, n, key)
  local lo, hi = 0, n
  while lo < hi do
    local mid = floor((lo + hi) / 2)
    if a[mid] <= key then lo = mid + 1 else hi = mid end
  end
  return lo
end
-- Largest r with r * r * r <= x, by bisection.
local function icbrt(x)
  local lo, hi = 0, 2097152
  while hi - lo > 1 do
    local mid = floor((lo + hi) / 2)
    if mid * mid * mid <= x then lo = mid else hi = mid end
  end
  return lo
end
local n = 1000000
local a = {}
for i = 0, n - 1 do a[i] = 0 end
local value = 0
for i = 0, n - 1 do
  -- Gaps of 0 make duplicates.
  value = value + next_random() % 8
  a[i] = value
end
local top = a[n - 1]
local queries = 2000000
local found, total_count, position_sum = 0, 0, 0
for q = 0, queries - 1 do
  local key = next_random() % (top + 10)
  local lo = lower_bound(a, n, key)
  local hi = upper_bound(a, n, key)
  if hi > lo then
    found = found + 1
    total_count = total_count + hi - lo
  end
  position_sum = position_sum + lo
end
print(string.format("%d %d %d %d", top, found, total_count, position_sum))
local root_sum, exact = 0, 0
for q = 0, 1000000 - 1 do
  local high = next_random() * 4096
  local x = high + next_random() % 4096
  local r = icbrt(x)
  root_sum = root_sum + r
  if r * r * r == x then exact = exact + 1 end
end
print(string.format("%d %d %d %d", root_sum, exact, icbrt(1000000000000), icbrt(999999999999)))
