-- Breadth-first search on a random 2-D maze (a table of boolean rows) from
-- many start cells, with an explicit int queue of cell indices y * W + x.
-- The LCG wraps at 64 bits: uint64_t cdata. Everything else is non-negative
-- and far below 2^53, so Lua numbers, % and floor division give Toy's results.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor = math.floor
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 777)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end

local W = 200
local H = 180
local wall = {}
for y = 0, H - 1 do
  local row = {}
  for x = 0, W - 1 do row[x] = next_random() % 100 < 30 end
  wall[y] = row
end

local dist = {}
for y = 0, H - 1 do
  local row = {}
  for x = 0, W - 1 do row[x] = -1 end
  dist[y] = row
end
local queue = {}
for i = 0, W * H - 1 do queue[i] = 0 end
local dx = { [0] = 1, -1, 0, 0 }
local dy = { [0] = 0, 0, 1, -1 }

local reached = 0
local farthest = 0

-- Returns the sum of distances of all cells reachable from (sx, sy).
local function bfs(sx, sy)
  for y = 0, H - 1 do
    local row = dist[y]
    for x = 0, W - 1 do row[x] = -1 end
  end
  local head, tail = 0, 0
  queue[tail] = sy * W + sx
  tail = tail + 1
  dist[sy][sx] = 0
  local total = 0
  farthest = 0
  while head < tail do
    local cell = queue[head]
    head = head + 1
    local x = cell % W
    local y = floor(cell / W)
    local d = dist[y][x]
    total = total + d
    if d > farthest then farthest = d end
    for k = 0, 3 do
      local nx, ny = x + dx[k], y + dy[k]
      if nx >= 0 and nx < W and ny >= 0 and ny < H then
        if not wall[ny][nx] and dist[ny][nx] < 0 then
          dist[ny][nx] = d + 1
          queue[tail] = ny * W + nx
          tail = tail + 1
        end
      end
    end
  end
  reached = tail
  return total
end

local starts = 800
local grand, best, check = 0, 0, 0
for s = 0, starts - 1 do
  local sx = next_random() % W
  local sy = next_random() % H
  while wall[sy][sx] do
    sx = next_random() % W
    sy = next_random() % H
  end
  local total = bfs(sx, sy)
  grand = grand + total
  if farthest > best then best = farthest end
  check = (check * 31 + reached * 7 + farthest) % 1000000007
  if s % 160 == 0 then
    print(string.format("%d %d %d %d %d %d", s, sx, sy, reached, farthest, total))
  end
end
print(string.format("%d %d %d", grand, best, check))
