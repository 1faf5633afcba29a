-- Backtracking sudoku solver on an array of 81 cells: the first empty cell
-- gets each digit that passes the row, column and box checks in turn.
-- Several hard puzzles, each solved several times from a fresh copy.
-- Grids are 0-based tables; the puzzle literals are 1-based, copied across.
local floor = math.floor
local nodes = 0
local function ok(grid, row, col, d)
  local br, bc = floor(row / 3) * 3, floor(col / 3) * 3
  for i = 0, 8 do
    if grid[row * 9 + i] == d then return false end
    if grid[i * 9 + col] == d then return false end
    if grid[(br + floor(i / 3)) * 9 + bc + i % 3] == d then return false end
  end
  return true
end
local function solve(grid, pos)
  nodes = nodes + 1
  while pos < 81 and grid[pos] ~= 0 do pos = pos + 1 end
  if pos == 81 then return true end
  local row, col = floor(pos / 9), pos % 9
  for d = 1, 9 do
    if ok(grid, row, col, d) then
      grid[pos] = d
      if solve(grid, pos + 1) then return true end
    end
  end
  grid[pos] = 0
  return false
end
-- 0 marks an empty cell.
local puzzles = {
  {
    8, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 3, 6, 0, 0, 0, 0, 0,
    0, 7, 0, 0, 9, 0, 2, 0, 0,
    0, 5, 0, 0, 0, 7, 0, 0, 0,
    0, 0, 0, 0, 4, 5, 7, 0, 0,
    0, 0, 0, 1, 0, 0, 0, 3, 0,
    0, 0, 1, 0, 0, 0, 0, 6, 8,
    0, 0, 8, 5, 0, 0, 0, 1, 0,
    0, 9, 0, 0, 0, 0, 4, 0, 0
  },
  {
    1, 0, 0, 0, 0, 7, 0, 9, 0,
    0, 3, 0, 0, 2, 0, 0, 0, 8,
    0, 0, 9, 6, 0, 0, 5, 0, 0,
    0, 0, 5, 3, 0, 0, 9, 0, 0,
    0, 1, 0, 0, 8, 0, 0, 0, 2,
    6, 0, 0, 0, 0, 4, 0, 0, 0,
    3, 0, 0, 0, 0, 0, 0, 1, 0,
    0, 4, 0, 0, 0, 0, 0, 0, 7,
    0, 0, 7, 0, 0, 0, 3, 0, 0
  },
  {
    6, 0, 0, 0, 0, 0, 8, 0, 3,
    0, 4, 0, 7, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 5, 0, 4, 0, 7, 0,
    3, 0, 0, 2, 0, 0, 0, 0, 0,
    1, 0, 6, 0, 0, 0, 0, 0, 0,
    0, 2, 0, 0, 0, 0, 0, 5, 0,
    0, 0, 0, 0, 8, 0, 6, 0, 0,
    0, 0, 0, 0, 1, 0, 0, 0, 0
  },
  {
    1, 0, 0, 0, 0, 0, 0, 0, 2,
    0, 9, 0, 4, 0, 0, 0, 5, 0,
    0, 0, 6, 0, 0, 0, 7, 0, 0,
    0, 5, 0, 9, 0, 3, 0, 0, 0,
    0, 0, 0, 0, 7, 0, 0, 0, 0,
    0, 0, 0, 8, 5, 0, 0, 4, 0,
    7, 0, 0, 0, 0, 0, 6, 0, 0,
    0, 3, 0, 0, 0, 9, 0, 8, 0,
    0, 0, 2, 0, 0, 0, 0, 0, 1
  },
  {
    0, 2, 0, 4, 0, 3, 7, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 3, 2,
    0, 0, 0, 0, 0, 0, 0, 0, 4,
    0, 4, 0, 2, 0, 0, 0, 7, 0,
    8, 0, 0, 0, 5, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 1, 0, 0, 0,
    5, 0, 0, 0, 0, 0, 9, 0, 0,
    0, 3, 0, 9, 0, 0, 0, 0, 7,
    0, 0, 1, 0, 0, 8, 6, 0, 0
  },
  {
    4, 8, 0, 3, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 7, 1,
    0, 2, 0, 0, 0, 0, 0, 0, 0,
    7, 0, 5, 0, 0, 0, 0, 6, 0,
    0, 0, 0, 2, 0, 0, 8, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 1, 0, 7, 6, 0, 0, 0,
    3, 0, 0, 0, 0, 0, 4, 0, 0,
    0, 0, 0, 0, 5, 0, 0, 0, 0
  }
}
local total, check = 0, 0
for round = 0, 2 do
  for p = 0, #puzzles - 1 do
    local grid = {}
    for i = 0, 80 do grid[i] = puzzles[p + 1][i + 1] end
    nodes = 0
    local solved = solve(grid, 0)
    local cs = 0
    for i = 0, 80 do cs = (cs * 10 + grid[i]) % 1000000007 end
    if round == 0 then
      print(string.format("%d %s %d %d", p, tostring(solved), nodes, cs))
    end
    total = total + nodes
    check = (check * 31 + cs) % 1000000007
  end
end
print(string.format("%d %d", total, check))
