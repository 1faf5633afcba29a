-- 2-D heat equation, explicit time stepping over two swapped grids.
local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift
local floor = math.floor

local S = ffi.new("uint64_t[1]", 777)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end

local function trunc(x) if x >= 0 then return floor(x) else return -floor(-x) end end

local function grid(n)
  local g = {}
  for i = 0, n - 1 do
    local row = {}
    for j = 0, n - 1 do row[j] = 0.0 end
    g[i] = row
  end
  return g
end

local function total(g, n)
  local s = 0.0
  for i = 0, n - 1 do
    for j = 0, n - 1 do s = s + g[i][j] end
  end
  return s
end

local n = 512
local u, v = grid(n), grid(n)
for i = 0, n - 1 do u[i][0] = 100.0; v[i][0] = 100.0 end
for s = 0, 59 do
  local ci = 1 + rnd() % (n - 12)
  local cj = 1 + rnd() % (n - 12)
  local t = (rnd() % 1000) / 10.0
  for i = ci, ci + 9 do
    for j = cj, cj + 9 do u[i][j] = t end
  end
end
local r = 0.2
local steps = 2000
for step = 0, steps - 1 do
  for i = 1, n - 2 do
    for j = 1, n - 2 do
      v[i][j] = u[i][j] + r * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4.0 * u[i][j])
    end
  end
  u, v = v, u
  if (step + 1) % 400 == 0 then
    print(string.format("%d %d %d %d", step + 1, trunc(total(u, n) * 1000.0), trunc(u[floor(n / 2)][floor(n / 2)] * 1000000.0), trunc(u[floor(n / 3)][10] * 1000000.0)))
  end
end
