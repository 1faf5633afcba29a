-- N-queens by backtracking: columns and both diagonals marked in boolean tables.
local function place(row, n, cols, diag1, diag2)
  if row == n then return 1 end
  local count = 0
  for c = 0, n - 1 do
    local d1 = row + c
    local d2 = row - c + n - 1
    if not cols[c] and not diag1[d1] and not diag2[d2] then
      cols[c] = true
      diag1[d1] = true
      diag2[d2] = true
      count = count + place(row + 1, n, cols, diag1, diag2)
      cols[c] = false
      diag1[d1] = false
      diag2[d2] = false
    end
  end
  return count
end
local function falses(n)
  local t = {}
  for i = 0, n - 1 do t[i] = false end
  return t
end
local function queens(n)
  local cols = falses(n)
  local diag1 = falses(2 * n - 1)
  local diag2 = falses(2 * n - 1)
  return place(0, n, cols, diag1, diag2)
end
local total = 0
for n = 4, 13 do
  local solutions = queens(n)
  print(string.format("%d %d", n, solutions))
  total = total + solutions
end
print(string.format("%d", total))
