-- Longest increasing subsequence: the O(n log n) patience method (binary
-- search over the tails table, with predecessor links to rebuild one LIS)
-- on several LCG sequences, and the O(n^2) DP on a smaller one.
-- The LCG wraps at 64 bits: uint64_t cdata. check * 1000003 stays below
-- 2^51, exact as a Lua number; values are non-negative, so Lua's floored %
-- and division are Toy's.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor = math.floor
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 4242)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
local function filled(n, value)
  local t = {}
  for i = 0, n - 1 do t[i] = value end
  return t
end
local function make_seq(n, range)
  local a = filled(n, 0)
  for i = 0, n - 1 do a[i] = next_random() % range end
  return a
end
-- returns length; writes a checksum of one LIS into out[0]
local function lis_fast(a, out)
  local n = len(a)
  local tails = filled(n, 0) -- index into a of the smallest tail of each length
  local prev = filled(n, -1)
  local len_ = 0
  for i = 0, n - 1 do
    local x = a[i]
    local lo, hi = 0, len_
    while lo < hi do
      local mid = floor((lo + hi) / 2)
      if a[tails[mid]] < x then
        lo = mid + 1
      else
        hi = mid
      end
    end
    if lo > 0 then prev[i] = tails[lo - 1] end
    tails[lo] = i
    if lo == len_ then len_ = len_ + 1 end
  end
  local check = 0
  local k = tails[len_ - 1]
  while k >= 0 do
    check = (check * 1000003 + a[k]) % 2147483647
    k = prev[k]
  end
  out[0] = check
  return len_
end
local function lis_slow(a)
  local n = len(a)
  local dp = filled(n, 1)
  local best = 0
  for i = 0, n - 1 do
    local ai = a[i]
    local d = 1
    for j = 0, i - 1 do
      if a[j] < ai and dp[j] + 1 > d then d = dp[j] + 1 end
    end
    dp[i] = d
    if d > best then best = d end
  end
  return best
end
local out = { [0] = 0 }
local total = 0
local sizes = { [0] = 1000000, 700000, 500000, 300000 }
local ranges = { [0] = 1000000000, 1000, 100000, 50 }
for s = 0, 3 do
  local a = make_seq(sizes[s], ranges[s])
  local l = lis_fast(a, out)
  print(string.format("fast %d %d %d %d", sizes[s], ranges[s], l, out[0]))
  total = total + l
end
local b = make_seq(16000, 1000000)
local l1 = lis_slow(b)
local l2 = lis_fast(b, out)
print(string.format("slow %d %d %d %d", len(b), l1, l2, out[0]))
print(string.format("%d", total + l1))
