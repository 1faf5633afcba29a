-- Floyd–Warshall all-pairs shortest paths on a random sparse digraph,
-- a table of row tables. Distances stay below 2^42: Lua numbers are exact.
-- The LCG wraps at 64 bits: uint64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor, max = math.floor, math.max
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 777)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local INF = 2 ^ 40
local function random_graph(n, degree)
  local d = {}
  for i = 0, n - 1 do
    local row = {}
    for j = 0, n - 1 do row[j] = INF end
    row[i] = 0
    d[i] = row
  end
  for i = 0, n - 1 do
    for e = 0, degree - 1 do
      local j = next_random() % n
      local w = 1 + next_random() % 1000
      if w < d[i][j] then d[i][j] = w end
    end
  end
  return d
end
local function floyd_warshall(d, n)
  for k = 0, n - 1 do
    for i = 0, n - 1 do
      for j = 0, n - 1 do
        if d[i][k] + d[k][j] < d[i][j] then d[i][j] = d[i][k] + d[k][j] end
      end
    end
  end
end
local n = 720
local d = random_graph(n, 3)
floyd_warshall(d, n)
local sum, unreachable, longest = 0, 0, 0
for i = 0, n - 1 do
  for j = 0, n - 1 do
    if d[i][j] >= INF then
      unreachable = unreachable + 1
    else
      sum = sum + d[i][j]
      longest = max(longest, d[i][j])
    end
  end
end
print(string.format("%d %d %d", sum, unreachable, longest))
print(string.format("%d %d %d", d[0][n - 1], d[n - 1][0], d[floor(n / 2)][floor(n / 3)]))
