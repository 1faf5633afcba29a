-- Takeuchi's tak function: deep non-tail recursion with three arguments.
local function tak(x, y, z)
  if y < x then return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y)) end
  return z
end
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
local args = { [0] = { [0] = 18, 12, 6 }, { [0] = 28, 20, 10 }, { [0] = 30, 20, 10 }, { [0] = 32, 16, 8 } }
local sum = 0
for i = 0, len(args) - 1 do
  local a = args[i]
  local r = tak(a[0], a[1], a[2])
  print(string.format("%d %d %d %d", a[0], a[1], a[2], r))
  sum = sum * 10 + r
end
print(string.format("%d", sum))
