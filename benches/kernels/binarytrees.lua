-- Binary-trees allocation benchmark: every node is a fresh table {l, r}
-- holding the pool indices of its children (-1 for a leaf). Many
-- short-lived trees are built and checked recursively; one long-lived tree
-- stays alive.
local next_id = 0

local function build(pool, depth)
  local id = next_id
  next_id = next_id + 1
  if depth == 0 then
    pool[id + 1] = {-1, -1}
    return id
  end
  local l = build(pool, depth - 1)
  local r = build(pool, depth - 1)
  pool[id + 1] = {l, r}
  return id
end

local function check(pool, id)
  local node = pool[id + 1]
  if node[1] < 0 then
    return 1
  end
  return 1 + check(pool, node[1]) + check(pool, node[2])
end

local function make_tree(depth)
  local size = 2 ^ (depth + 1) - 1
  local empty = {0, 0}
  local pool = {}
  for i = 1, size do
    pool[i] = empty
  end
  next_id = 0
  build(pool, depth)
  return pool
end

local min_depth, max_depth = 4, 16
local stretch_depth = max_depth + 1

local stretch = make_tree(stretch_depth)
print(string.format("stretch tree of depth %d check: %d", stretch_depth, check(stretch, 0)))
stretch = nil

local long_lived = make_tree(max_depth)

local depth = min_depth
while depth <= max_depth do
  local iterations = 2 ^ (max_depth - depth + min_depth)
  local total = 0
  for i = 1, iterations do
    local t = make_tree(depth)
    total = total + check(t, 0)
  end
  print(string.format("%d trees of depth %d check: %d", iterations, depth, total))
  depth = depth + 2
end
print(string.format("long lived tree of depth %d check: %d", max_depth, check(long_lived, 0)))
