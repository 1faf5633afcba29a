-- Kahn's topological sort of random DAGs stored as adjacency arrays of
-- arrays, followed by a longest-path DP over the order; several graphs, each
-- sorted several times with different start values.
-- Arrays are 0-based tables with explicit lengths. The minstd LCG products
-- stay below 2^47, exact as Lua numbers.
local min, max = math.min, math.max
local seed = 8888
local function next_random()
  seed = seed * 48271 % 2147483647
  return seed
end
-- Out-neighbours and edge weights of every node. Node ranks come from a
-- random permutation; each edge goes from the lower to the higher rank.
local function random_dag(n, m, adj, weight, len)
  local perm = {}
  for i = 0, n - 1 do perm[i] = i end
  for i = 0, n - 2 do
    local j = i + next_random() % (n - i)
    perm[i], perm[j] = perm[j], perm[i]
  end
  local from, to, degree = {}, {}, {}
  for u = 0, n - 1 do degree[u] = 0 end
  for e = 0, m - 1 do
    local a = next_random() % n
    local b = next_random() % n
    while b == a do b = next_random() % n end
    from[e] = perm[min(a, b)]
    to[e] = perm[max(a, b)]
    degree[from[e]] = degree[from[e]] + 1
  end
  for u = 0, n - 1 do
    local a, w = {}, {}
    for k = 0, degree[u] - 1 do a[k] = 0; w[k] = 0 end
    adj[u] = a
    weight[u] = w
    len[u] = degree[u]
    degree[u] = 0
  end
  for e = 0, m - 1 do
    local u = from[e]
    adj[u][degree[u]] = to[e]
    weight[u][degree[u]] = 1 + next_random() % 100
    degree[u] = degree[u] + 1
  end
end
-- Fills order with a topological order; returns how many nodes it holds.
local function kahn(n, adj, len, order)
  local indegree = {}
  for u = 0, n - 1 do indegree[u] = 0 end
  for u = 0, n - 1 do
    local out = adj[u]
    for k = 0, len[u] - 1 do
      local v = out[k]
      indegree[v] = indegree[v] + 1
    end
  end
  local tail = 0
  for u = 0, n - 1 do
    if indegree[u] == 0 then
      order[tail] = u
      tail = tail + 1
    end
  end
  local head = 0
  while head < tail do
    local u = order[head]
    head = head + 1
    local out = adj[u]
    for k = 0, len[u] - 1 do
      local v = out[k]
      indegree[v] = indegree[v] - 1
      if indegree[v] == 0 then
        order[tail] = v
        tail = tail + 1
      end
    end
  end
  return tail
end
local function longest_path(n, adj, weight, len, order, dist)
  local best = 0
  for i = 0, n - 1 do
    local u = order[i]
    local du = dist[u]
    best = max(best, du)
    local out, w = adj[u], weight[u]
    for k = 0, len[u] - 1 do
      local v = out[k]
      dist[v] = max(dist[v], du + w[k])
    end
  end
  return best
end
local n, m = 60000, 360000
local check = 0
for graph = 0, 2 do
  local adj, weight, len = {}, {}, {}
  random_dag(n, m, adj, weight, len)
  local order, dist = {}, {}
  for i = 0, n - 1 do order[i] = 0; dist[i] = 0 end
  for round = 0, 19 do
    local count = kahn(n, adj, len, order)
    for i = 0, n - 1 do
      check = (check * 31 + order[i]) % 1000000007
      dist[i] = (i * (round + 1)) % 53
    end
    local longest = longest_path(n, adj, weight, len, order, dist)
    check = (check + longest) % 1000000007
    if round == 0 then print(string.format("%d %d %d", graph, count, longest)) end
  end
end
print(string.format("%d", check))
