-- Jacobi relaxation of the 2-D heat equation on grids held as tables of row
-- tables: the top edge is held hot, a small square in the middle is held
-- cold; two grids are swapped every sweep and the largest change per sweep
-- is tracked.
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
local floor, abs, max = math.floor, math.abs, math.max
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
local n = 256

local function make_grid(n)
  local g = {}
  for i = 0, n - 1 do
    local row = {}
    for j = 0, n - 1 do row[j] = 0.0 end
    g[i] = row
  end
  return g
end

local function apply_boundary(g)
  local n = len(g)
  for j = 0, n - 1 do
    g[0][j] = 100.0
    g[n - 1][j] = 0.0
  end
  for i = 0, n - 1 do
    g[i][0] = 50.0 * (n - 1 - i) / (n - 1)
    g[i][n - 1] = 0.0
  end
  local c = floor(n / 2)
  for i = c - 4, c + 3 do
    for j = c - 4, c + 3 do g[i][j] = -20.0 end
  end
end

local function is_fixed(i, j, n)
  local c = floor(n / 2)
  return i >= c - 4 and i < c + 4 and j >= c - 4 and j < c + 4
end

local function sweep(src, dst)
  local n = len(src)
  local change = 0.0
  for i = 1, n - 2 do
    local up, row, down = src[i - 1], src[i], src[i + 1]
    local out = dst[i]
    for j = 1, n - 2 do
      if is_fixed(i, j, n) then
        out[j] = row[j]
      else
        local v = 0.25 * (up[j] + down[j] + row[j - 1] + row[j + 1])
        change = max(change, abs(v - row[j]))
        out[j] = v
      end
    end
  end
  return change
end

local function total(g)
  local s = 0.0
  for i = 0, len(g) - 1 do
    local row = g[i]
    for j = 0, len(row) - 1 do s = s + row[j] end
  end
  return s
end

local a = make_grid(n)
local b = make_grid(n)
apply_boundary(a)
apply_boundary(b)

local iters = 0
local maxiter = 6000
local tol = 1e-6
local change = 1.0
local q = floor(n / 4)
while iters < maxiter and change > tol do
  change = sweep(a, b)
  a, b = b, a
  iters = iters + 1
  if iters % 1000 == 0 then
    print(string.format("%d %d %d %d", iters, trunc(change * 1e9), trunc(total(a) * 1000.0), trunc(a[q][q] * 1e9)))
  end
end
print(string.format("%d %d %d", iters, trunc(change * 1e12), trunc(total(a) * 1000.0)))
