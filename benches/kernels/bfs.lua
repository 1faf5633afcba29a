-- Breadth-first search with an array queue on a random maze-like grid:
-- distances from several sources, four neighbours per cell.
-- The LCG and the checksum wrap at 64 bits: uint64_t/int64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor = math.floor
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 31337)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local width, height = 1000, 1000
local cells = width * height
local wall = {}
for i = 0, cells - 1 do wall[i] = next_random() % 100 < 30 end
local dist, queue = {}, {}
for i = 0, cells - 1 do dist[i] = 0; queue[i] = 0 end
local dx = { [0] = 1, -1, 0, 0 }
local dy = { [0] = 0, 0, 1, -1 }
-- Fills `dist` (-1 for unreached) and returns the number of reached cells.
local function bfs(sx, sy)
  for i = 0, cells - 1 do dist[i] = -1 end
  local start = sy * width + sx
  wall[start] = false
  dist[start] = 0
  queue[0] = start
  local head, tail = 0, 1
  while head < tail do
    local cell = queue[head]
    head = head + 1
    local x = cell % width
    local y = floor(cell / width)
    for d = 0, 3 do
      local nx, ny = x + dx[d], y + dy[d]
      if nx >= 0 and nx < width and ny >= 0 and ny < height then
        local next = ny * width + nx
        if not wall[next] and dist[next] < 0 then
          dist[next] = dist[cell] + 1
          queue[tail] = next
          tail = tail + 1
        end
      end
    end
  end
  return tail
end
local check = 0LL
for source = 0, 11 do
  local sx = next_random() % width
  local sy = next_random() % height
  local reached = bfs(sx, sy)
  local far, sum = 0, 0
  for i = 0, cells - 1 do
    if dist[i] > far then far = dist[i] end
    if dist[i] > 0 then sum = sum + dist[i] end
  end
  print(string.format("%d %d %d %d %d", sx, sy, reached, far, sum))
  check = check * 1000003 + sum
end
print(string.format("%d", check))
