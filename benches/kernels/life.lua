-- Conway's Game of Life on a toroidal grid of boolean row tables,
-- double-buffered, seeded from an LCG; reports the population every 250
-- generations.
-- The LCG and the hash wrap at 64 bits: uint64_t/int64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 31337)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function make_grid(rows, cols)
  local g = {}
  for r = 0, rows - 1 do
    local row = {}
    for c = 0, cols - 1 do row[c] = false end
    g[r] = row
  end
  return g
end
local function step(cur, next, rows, cols)
  for r = 0, rows - 1 do
    local up = cur[(r + rows - 1) % rows]
    local mid = cur[r]
    local down = cur[(r + 1) % rows]
    local out = next[r]
    for c = 0, cols - 1 do
      local left = (c + cols - 1) % cols
      local right = (c + 1) % cols
      local n = 0
      if up[left] then n = n + 1 end
      if up[c] then n = n + 1 end
      if up[right] then n = n + 1 end
      if mid[left] then n = n + 1 end
      if mid[right] then n = n + 1 end
      if down[left] then n = n + 1 end
      if down[c] then n = n + 1 end
      if down[right] then n = n + 1 end
      if mid[c] then
        out[c] = n == 2 or n == 3
      else
        out[c] = n == 3
      end
    end
  end
end
local function population(g, rows, cols)
  local count = 0
  for r = 0, rows - 1 do
    for c = 0, cols - 1 do
      if g[r][c] then count = count + 1 end
    end
  end
  return count
end
local rows, cols = 256, 256
local a = make_grid(rows, cols)
local b = make_grid(rows, cols)
for r = 0, rows - 1 do
  for c = 0, cols - 1 do a[r][c] = next_random() % 100 < 30 end
end
-- A glider in a corner, for good measure.
a[1][2] = true
a[2][3] = true
a[3][1] = true
a[3][2] = true
a[3][3] = true
local generations = 2000
for gen = 1, generations do
  step(a, b, rows, cols)
  local t = a
  a = b
  b = t
  if gen % 250 == 0 then print(string.format("%d %d", gen, population(a, rows, cols))) end
end
local hash = 0LL
for r = 0, rows - 1 do
  for c = 0, cols - 1 do
    if a[r][c] then hash = hash * 31 + r * cols + c end
  end
end
print(string.format("%d", hash))
