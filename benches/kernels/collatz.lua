-- Longest Collatz chain below a bound: integer division, branches.
local best, best_start = 0, 0
for start = 1, 1000000 - 1 do
  local n, steps = start, 1
  while n ~= 1 do
    if n % 2 == 0 then n = n / 2 else n = 3 * n + 1 end
    steps = steps + 1
  end
  if steps > best then best, best_start = steps, start end
end
print(string.format("%d %d", best_start, best))
