-- Benchmarks Game fannkuch-redux: permutations, array reversal.
local function fannkuch(n)
  local perm, perm1, count = {}, {}, {}
  for i = 0, n - 1 do perm1[i] = i; perm[i] = 0; count[i] = 0 end
  local max_flips, checksum, permutation, r = 0, 0, 0, n
  while true do
    while r ~= 1 do count[r - 1] = r; r = r - 1 end
    for i = 0, n - 1 do perm[i] = perm1[i] end
    local flips, k = 0, perm[0]
    while k ~= 0 do
      local lo, hi = 0, k
      while lo < hi do
        perm[lo], perm[hi] = perm[hi], perm[lo]
        lo, hi = lo + 1, hi - 1
      end
      flips = flips + 1
      k = perm[0]
    end
    if flips > max_flips then max_flips = flips end
    if permutation % 2 == 0 then checksum = checksum + flips else checksum = checksum - flips end
    while true do
      if r == n then return checksum, max_flips end
      local first = perm1[0]
      for i = 0, r - 1 do perm1[i] = perm1[i + 1] end
      perm1[r] = first
      count[r] = count[r] - 1
      if count[r] > 0 then break end
      r = r + 1
    end
    permutation = permutation + 1
  end
end
local checksum, max_flips = fannkuch(10)
print(string.format("%d %d", checksum, max_flips))
