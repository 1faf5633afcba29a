-- Dijkstra's single-source shortest paths with the textbook O(n^2) scan
-- for the closest unvisited vertex, on a random weighted digraph stored as
-- an adjacency matrix (a table of row tables); run from many sources.
-- Distances stay below 2^51: Lua numbers are exact. The LCG wraps at 64
-- bits: uint64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor, max = math.floor, math.max
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 8086)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local INF = 2 ^ 50
local function random_graph(n, percent)
  local w = {}
  for i = 0, n - 1 do
    local row = {}
    for j = 0, n - 1 do row[j] = INF end
    for j = 0, n - 1 do
      if i ~= j and next_random() % 100 < percent then row[j] = 1 + next_random() % 1000 end
    end
    w[i] = row
  end
  return w
end
-- Fills dist and parent for paths from source.
local function dijkstra(w, n, source, dist, parent)
  local done = {}
  for i = 0, n - 1 do done[i] = false end
  for i = 0, n - 1 do
    dist[i] = INF
    parent[i] = -1
  end
  dist[source] = 0
  for round = 0, n - 1 do
    local u, best = -1, INF
    for v = 0, n - 1 do
      if not done[v] and dist[v] < best then
        best = dist[v]
        u = v
      end
    end
    if u < 0 then break end
    done[u] = true
    local row = w[u]
    for v = 0, n - 1 do
      if not done[v] and row[v] < INF and best + row[v] < dist[v] then
        dist[v] = best + row[v]
        parent[v] = u
      end
    end
  end
end
local n = 1500
local w = random_graph(n, 5)
local dist, parent = {}, {}
for i = 0, n - 1 do dist[i] = 0; parent[i] = 0 end
local total, farthest, hops, unreachable = 0, 0, 0, 0
for s = 0, 59 do
  local source = (s * 97) % n
  dijkstra(w, n, source, dist, parent)
  for v = 0, n - 1 do
    if dist[v] >= INF then
      unreachable = unreachable + 1
    else
      total = total + dist[v]
      farthest = max(farthest, dist[v])
    end
  end
  -- Length in edges of the path to the last vertex.
  local v = n - 1
  while parent[v] >= 0 do
    hops = hops + 1
    v = parent[v]
  end
  if s % 20 == 0 then
    print(string.format("%d %d %d %d", source, dist[0], dist[floor(n / 2)], dist[n - 1]))
  end
end
print(string.format("%d %d %d %d", total, farthest, hops, unreachable))
