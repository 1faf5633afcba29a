-- Binary search tree stored in parallel int arrays (key/left/right, -1 = none):
-- recursive insert, search, height, in-order rank-weighted sum and range count.
-- The LCG's product reaches 2^61: it is taken in int64_t cdata (whose % is
-- C's). Everything else stays below 2^53 (key % 1000003 * rank below 2^37),
-- and every value reduced with % is non-negative, where Lua numbers, % and
-- floored division give Toy's results.
local ffi = require("ffi")
local floor, max = math.floor, math.max
local int64 = ffi.typeof("int64_t")
local cap = 200000
local key, left, right = {}, {}, {}
for i = 0, cap - 1 do key[i] = 0; left[i] = 0; right[i] = 0 end
local count = 0
local dups = 0
local seed = 8675309
local function next_random()
  seed = tonumber((int64(seed) * 1103515245 + 12345) % 2147483648)
  return floor(seed / 2)
end
local insert
insert = function(node, k)
  if node == -1 then
    key[count] = k
    left[count] = -1
    right[count] = -1
    count = count + 1
    return count - 1
  end
  if k < key[node] then
    left[node] = insert(left[node], k)
  elseif k > key[node] then
    right[node] = insert(right[node], k)
  else
    dups = dups + 1
  end
  return node
end
local contains
contains = function(node, k)
  if node == -1 then return false end
  if k == key[node] then return true end
  if k < key[node] then return contains(left[node], k) end
  return contains(right[node], k)
end
local height
height = function(node)
  if node == -1 then return 0 end
  return 1 + max(height(left[node]), height(right[node]))
end
-- In-order walk: adds key * rank (mod a prime) using the running rank.
local rank = 0
local inorder_sum
inorder_sum = function(node)
  if node == -1 then return 0 end
  local s = inorder_sum(left[node])
  rank = rank + 1
  s = (s + key[node] % 1000003 * rank) % 1000000007
  return (s + inorder_sum(right[node])) % 1000000007
end
-- Number of keys in [lo, hi].
local count_range
count_range = function(node, lo, hi)
  if node == -1 then return 0 end
  local k = key[node]
  if k < lo then return count_range(right[node], lo, hi) end
  if k > hi then return count_range(left[node], lo, hi) end
  return 1 + count_range(left[node], lo, hi) + count_range(right[node], lo, hi)
end
local check = 0
for round = 0, 5 do
  count = 0
  dups = 0
  local n = 50000 + round * 10000
  local range = n * (2 + round)
  local root = -1
  for i = 0, n - 1 do root = insert(root, next_random() % range) end
  local hits = 0
  for i = 0, n - 1 do
    if contains(root, next_random() % range) then hits = hits + 1 end
  end
  local h = height(root)
  rank = 0
  local s = inorder_sum(root)
  local rc = 0
  for q = 0, 1999 do
    local lo = next_random() % range
    rc = rc + count_range(root, lo, lo + floor(range / 50))
  end
  print(string.format("%d %d %d %d %d %d %d %d", n, count, dups, hits, h, rank, s, rc))
  check = (check * 31 + s + h + rc) % 1000000007
end
print(string.format("%d", check))
