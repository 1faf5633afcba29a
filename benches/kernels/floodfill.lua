-- Recursive 4-way flood fill on random grids stored as [[int]]: counts the
-- regions of filled and of empty cells, their largest sizes, and a size checksum.
-- The LCG's product reaches 2^61: it is taken in int64_t cdata (whose % is
-- C's). Everything else stays non-negative and below 2^53, where Lua
-- numbers, % and floored division give Toy's results. The grid is a table
-- of h rows of w cells (0-based); fill bounds-checks against h and w, the
-- grid's fixed dimensions, as the C twin does (the Toy source uses len()).
local ffi = require("ffi")
local floor, max = math.floor, math.max
local int64 = ffi.typeof("int64_t")
local seed = 31337
local function next_random()
  seed = tonumber((int64(seed) * 1103515245 + 12345) % 2147483648)
  return floor(seed / 256)
end
local h, w = 96, 128
-- Relabels the 4-connected region of value `from` containing (r, c) to `to`;
-- returns its size.
local fill
fill = function(g, r, c, from, to)
  if r < 0 or r >= h or c < 0 or c >= w then return 0 end
  if g[r][c] ~= from then return 0 end
  g[r][c] = to
  return 1 + fill(g, r - 1, c, from, to) + fill(g, r + 1, c, from, to)
    + fill(g, r, c - 1, from, to) + fill(g, r, c + 1, from, to)
end
local grid = {}
for r = 0, h - 1 do
  local row = {}
  for c = 0, w - 1 do row[c] = 0 end
  grid[r] = row
end
local check, total_regions = 0, 0
for round = 0, 1499 do
  local density = 40 + round % 25
  for r = 0, h - 1 do
    local row = grid[r]
    for c = 0, w - 1 do
      if next_random() % 100 < density then row[c] = 1 else row[c] = 0 end
    end
  end
  local full, empty, big_full, big_empty, sq = 0, 0, 0, 0, 0
  for r = 0, h - 1 do
    for c = 0, w - 1 do
      local v = grid[r][c]
      if v == 1 then
        local s = fill(grid, r, c, 1, 2)
        full = full + 1
        big_full = max(big_full, s)
        sq = (sq + s * s) % 1000003
      elseif v == 0 then
        local s = fill(grid, r, c, 0, 3)
        empty = empty + 1
        big_empty = max(big_empty, s)
        sq = (sq + s * 7) % 1000003
      end
    end
  end
  total_regions = total_regions + full + empty
  check = (check * 131 + sq + big_full * 3 + big_empty) % 1000000007
  if round % 150 == 0 then
    print(string.format("%d %d %d %d %d %d %d", round, density, full, big_full, empty, big_empty, sq))
  end
end
print(string.format("%d %d", total_regions, check))
