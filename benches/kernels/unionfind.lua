-- Union-find (disjoint sets) with union by size and path compression,
-- merging random edges over a million vertices; tracks the number of
-- components and the largest one, and answers connectivity queries.
-- The LCG, the per-round line and the check wrap at 64 bits:
-- uint64_t/int64_t cdata.
local ffi = require("ffi")
local band, bxor, rshift = bit.band, bit.bxor, bit.rshift
local max = math.max
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 99991)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function find(parent, x)
  local root = x
  while parent[root] ~= root do root = parent[root] end
  -- Second pass: point everything on the path at the root.
  while parent[x] ~= root do
    local next = parent[x]
    parent[x] = root
    x = next
  end
  return root
end
-- Returns true if x and y were in different sets.
local function union(parent, size, x, y)
  local rx = find(parent, x)
  local ry = find(parent, y)
  if rx == ry then return false end
  if size[rx] < size[ry] then
    local t = rx
    rx = ry
    ry = t
  end
  parent[ry] = rx
  size[rx] = size[rx] + size[ry]
  return true
end
local n = 1000000
local check = 0LL
for round = 0, 2 do
  local parent, size = {}, {}
  for i = 0, n - 1 do parent[i] = 0; size[i] = 1 end
  for i = 0, n - 1 do parent[i] = i end
  local components = n
  local largest = 1
  local batch = 200000
  local edges = 0
  local line = 0LL
  for b = 0, 5 do
    for e = 0, batch - 1 do
      local x = next_random() % n
      local y = 0
      if round == 1 then
        -- Mostly local edges: long paths before compression.
        y = (x + 1 + next_random() % 16) % n
      else
        y = next_random() % n
      end
      if union(parent, size, x, y) then
        components = components - 1
        largest = max(largest, size[find(parent, x)])
      end
      edges = edges + 1
    end
    local connected = 0
    for q = 0, 100000 - 1 do
      local p = find(parent, next_random() % n)
      if p == find(parent, next_random() % n) then connected = connected + 1 end
    end
    line = line * 1000003 + components * 7 + connected
    if b % 2 == 1 then
      print(string.format("%d %d %d %d %d", round, edges, components, largest, connected))
    end
  end
  check = bxor(check, line)
end
print(string.format("%d", check))
