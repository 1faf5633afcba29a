-- Longest common subsequence and Needleman-Wunsch global alignment of two
-- LCG-generated int-table "strings", each with a full table of row tables
-- and a traceback; repeated over several alphabet sizes.
-- The LCG wraps at 64 bits: uint64_t cdata. The traceback hash stays below
-- 2^38 and table values are small: Lua numbers are exact, and the hash is
-- non-negative, so Lua's floored % is Toy's.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local max = math.max
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 8675309)
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
local function random_string(n, alphabet)
  local s = zeros(n)
  for i = 0, n - 1 do s[i] = 97 + next_random() % alphabet end
  return s
end
local function make_table(rows, cols)
  local t = {}
  for i = 0, rows - 1 do t[i] = zeros(cols) end
  return t
end
-- Returns the LCS length; the traceback folds the subsequence into lcs_hash.
local lcs_hash = 0
local function lcs(a, b)
  local n, m = len(a), len(b)
  local t = make_table(n + 1, m + 1)
  for i = 1, n do
    local row = t[i]
    local prev = t[i - 1]
    local ai = a[i - 1]
    for j = 1, m do
      if ai == b[j - 1] then
        row[j] = prev[j - 1] + 1
      elseif prev[j] >= row[j - 1] then
        row[j] = prev[j]
      else
        row[j] = row[j - 1]
      end
    end
  end
  -- Walk back, hashing the common subsequence in reverse.
  local i, j, h = n, m, 0
  while i > 0 and j > 0 do
    if a[i - 1] == b[j - 1] then
      h = (h * 131 + a[i - 1]) % 1000000007
      i = i - 1
      j = j - 1
    elseif t[i - 1][j] >= t[i][j - 1] then
      i = i - 1
    else
      j = j - 1
    end
  end
  lcs_hash = h
  return t[n][m]
end
local MATCH = 3
local MISMATCH = -2
local GAP = -4
local function score(x, y)
  if x == y then return MATCH end
  return MISMATCH
end
-- Returns the best global alignment score; the traceback counts matches,
-- mismatches and gaps into counts.
local function align(a, b, counts)
  local n, m = len(a), len(b)
  local t = make_table(n + 1, m + 1)
  for j = 0, m do t[0][j] = j * GAP end
  for i = 1, n do
    t[i][0] = i * GAP
    for j = 1, m do
      local diag = t[i - 1][j - 1] + score(a[i - 1], b[j - 1])
      local up = t[i - 1][j] + GAP
      local left = t[i][j - 1] + GAP
      t[i][j] = max(diag, max(up, left))
    end
  end
  local i, j = n, m
  while i > 0 or j > 0 do
    if i > 0 and j > 0 and t[i][j] == t[i - 1][j - 1] + score(a[i - 1], b[j - 1]) then
      if a[i - 1] == b[j - 1] then
        counts[0] = counts[0] + 1
      else
        counts[1] = counts[1] + 1
      end
      i = i - 1
      j = j - 1
    elseif i > 0 and t[i][j] == t[i - 1][j] + GAP then
      counts[2] = counts[2] + 1
      i = i - 1
    else
      counts[2] = counts[2] + 1
      j = j - 1
    end
  end
  return t[n][m]
end
local alphabets = { [0] = 2, 4, 8, 20, 26 }
for k = 0, 4 do
  local n = 3000 - 100 * k
  local a = random_string(n, alphabets[k])
  local b = random_string(n + 50, alphabets[k])
  local l = lcs(a, b)
  local counts = { [0] = 0, 0, 0 }
  local s = align(a, b, counts)
  print(string.format("%d %d %d %d %d [%d, %d, %d]", alphabets[k], n, l, lcs_hash, s,
    counts[0], counts[1], counts[2]))
end
