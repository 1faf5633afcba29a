-- Plain tree recursion without memoization: p(n, k), the number of partitions
-- of n into parts of size at most k, and binomials by Pascal's rule.
-- All values stay non-negative (n - k may go below zero only as a base
-- case) and below 2^53: plain Lua numbers and floored division give Toy's
-- results (k * (k + 1) is even, so its half is exact).
local floor = math.floor
local parts
parts = function(n, k)
  if n == 0 then return 1 end
  if n < 0 or k == 0 then return 0 end
  return parts(n, k - 1) + parts(n - k, k)
end
local binom
binom = function(n, k)
  if k == 0 or k == n then return 1 end
  return binom(n - 1, k - 1) + binom(n - 1, k)
end
-- Partitions of n into distinct parts, each at most k.
local distinct
distinct = function(n, k)
  if n == 0 then return 1 end
  if k == 0 or n > floor(k * (k + 1) / 2) then return 0 end
  if k > n then return distinct(n, n) end
  return distinct(n, k - 1) + distinct(n - k, k - 1)
end
local total = 0
for n = 10, 70 do
  local p = parts(n, n)
  total = total + p
  if n % 5 == 0 then
    print(string.format("p %d %d %d", n, p, parts(n, floor(n / 3))))
  end
end
print(string.format("sum p %d", total))
local bsum = 0
for n = 18, 28 do
  local b = binom(n, floor(n / 2))
  bsum = bsum + b
  print(string.format("C %d %d %d %d", n, floor(n / 2), b, binom(n, 3)))
end
print(string.format("sum C %d", bsum))
local dsum = 0
for n = 90, 120 do dsum = dsum + distinct(n, n) end
print(string.format("distinct %d %d", distinct(120, 120), dsum))
