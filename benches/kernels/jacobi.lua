-- Jacobi relaxation of the 2-D Laplace equation on grids of row tables: a
-- five-point stencil, two grids swapped each sweep, the largest change of a
-- sweep kept as a running maximum.
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
local abs, floor = math.abs, math.floor
local function grid(n)
  local g = {}
  for i = 0, n - 1 do
    local row = {}
    for j = 0, n - 1 do row[j] = 0.0 end
    g[i] = row
  end
  -- Hot top edge, a warm left edge, cold elsewhere.
  for j = 0, n - 1 do g[0][j] = 100.0 end
  for i = 1, n - 1 do g[i][0] = 50.0 * (n - i) / n end
  return g
end
local function sweep(u, v, n)
  local largest = 0.0
  for i = 1, n - 2 do
    for j = 1, n - 2 do
      local next = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1])
      local change = abs(next - u[i][j])
      if change > largest then largest = change end
      v[i][j] = next
    end
  end
  return largest
end
local n = 500
local u, v = grid(n), grid(n)
local sweeps, change = 0, 1.0
while sweeps < 1500 and change > 1e-9 do
  change = sweep(u, v, n)
  u, v = v, u
  sweeps = sweeps + 1
  if sweeps % 250 == 0 then print(string.format("%d %d", sweeps, trunc(change * 1e12))) end
end
local total = 0.0
for i = 0, n - 1 do
  for j = 0, n - 1 do total = total + u[i][j] end
end
print(string.format("%d %d %d", trunc(total * 1e6), trunc(u[floor(n / 8)][floor(n / 2)] * 1e12),
  trunc(u[floor(n / 4)][floor(n / 8)] * 1e12)))
