-- Sieve of Eratosthenes: array stores and loads in tight loops.
local function sieve(n)
  local composite = {}
  for i = 0, n do composite[i] = false end
  local count = 0
  for i = 2, n do
    if not composite[i] then
      count = count + 1
      for j = i * i, n, i do composite[j] = true end
    end
  end
  return count
end
local total = 0
for round = 0, 13 do total = total + sieve(4000000 + round) end
print(string.format("%d", total))
