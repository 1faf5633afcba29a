-- Edit distance and longest common subsequence of random int sequences:
-- dynamic programming over two rows, swapped after each row.
-- The LCG and the checksum wrap at 64 bits: uint64_t/int64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local min = math.min
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 2024)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
local function zeros(n)
  local t = {}
  for i = 0, n - 1 do t[i] = 0 end
  return t
end
local function random_sequence(n, alphabet)
  local s = zeros(n)
  for i = 0, n - 1 do s[i] = next_random() % alphabet end
  return s
end
local function edit_distance(a, b)
  local n, m = len(a), len(b)
  local prev, cur = zeros(m + 1), zeros(m + 1)
  for j = 0, m do prev[j] = j end
  for i = 1, n do
    cur[0] = i
    local ai = a[i - 1]
    for j = 1, m do
      local cost = 1
      if ai == b[j - 1] then cost = 0 end
      cur[j] = min(min(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost)
    end
    prev, cur = cur, prev
  end
  return prev[m]
end
local function lcs(a, b)
  local n, m = len(a), len(b)
  local prev, cur = zeros(m + 1), zeros(m + 1)
  for i = 1, n do
    local ai = a[i - 1]
    for j = 1, m do
      if ai == b[j - 1] then
        cur[j] = prev[j - 1] + 1
      elseif prev[j] >= cur[j - 1] then
        cur[j] = prev[j]
      else
        cur[j] = cur[j - 1]
      end
    end
    prev, cur = cur, prev
  end
  return prev[m]
end
local check = 0LL
for round = 0, 3 do
  local alphabet = 2 + round * 6
  local a = random_sequence(5000 + round * 100, alphabet)
  local b = random_sequence(6000 - round * 100, alphabet)
  local d = edit_distance(a, b)
  local l = lcs(a, b)
  print(string.format("%d %d %d %d %d", alphabet, len(a), len(b), d, l))
  check = check * 7919 + d * 31 + l
end
print(string.format("%d", check))
