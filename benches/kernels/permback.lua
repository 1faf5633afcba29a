-- Permutations by backtracking with a [bool] used-array: counts permutations of
-- 0..n-1 with no two neighbours differing by 1, and derangements, with checksums.
-- All values stay non-negative and below 2^53 (weight * 3 below 2^32): plain
-- Lua numbers and % give Toy's results.
local abs = math.abs
local weight = 0
-- Extends perm[0..pos) in every way that keeps adjacent values at least 2 apart.
local no_adjacent
no_adjacent = function(perm, used, pos, n)
  if pos == n then
    weight = (weight + perm[0] * 7 + perm[n - 1]) % 1000000007
    return 1
  end
  local count = 0
  for v = 0, n - 1 do
    if not used[v] and not (pos > 0 and abs(perm[pos - 1] - v) == 1) then
      used[v] = true
      perm[pos] = v
      count = count + no_adjacent(perm, used, pos + 1, n)
      used[v] = false
    end
  end
  return count
end
-- Permutations with no fixed point; also sums the position of the value 0.
local derange
derange = function(perm, used, pos, n)
  if pos == n then
    local p = 0
    while perm[p] ~= 0 do p = p + 1 end
    weight = (weight * 3 + p) % 1000000007
    return 1
  end
  local count = 0
  for v = 0, n - 1 do
    if not used[v] and v ~= pos then
      used[v] = true
      perm[pos] = v
      count = count + derange(perm, used, pos + 1, n)
      used[v] = false
    end
  end
  return count
end
for n = 4, 11 do
  local perm, used = {}, {}
  for i = 0, n - 1 do perm[i] = 0; used[i] = false end
  weight = 0
  local a = no_adjacent(perm, used, 0, n)
  local wa = weight
  weight = 0
  local d = 0
  if n <= 11 then d = derange(perm, used, 0, n) end
  print(string.format("%d %d %d %d %d", n, a, wa, d, weight))
end
