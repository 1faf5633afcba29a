-- Image filtering on a grey-scale image held as a table of row tables: a
-- 3x3 box blur followed by Sobel edge detection (|gx| + |gy|, clamped to
-- 255), repeated; the edge map is mixed back into the image each round.
-- Prints checksums.
-- The LCG wraps at 64 bits: uint64_t cdata. Pixels are small and every
-- division or % is of a non-negative value below 2^53, where Lua's floored
-- division and % are Toy's.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor, abs, min = math.floor, math.abs, math.min
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 777)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function make_image(h, w)
  local img = {}
  for y = 0, h - 1 do
    local row = {}
    for x = 0, w - 1 do row[x] = 0 end
    img[y] = row
  end
  return img
end
local function blur(src, dst, h, w)
  for y = 0, h - 1 do
    dst[y][0] = src[y][0]
    dst[y][w - 1] = src[y][w - 1]
  end
  for x = 0, w - 1 do
    dst[0][x] = src[0][x]
    dst[h - 1][x] = src[h - 1][x]
  end
  for y = 1, h - 2 do
    local up = src[y - 1]
    local mid = src[y]
    local down = src[y + 1]
    local out = dst[y]
    for x = 1, w - 2 do
      local s = up[x - 1] + up[x] + up[x + 1]
        + mid[x - 1] + mid[x] + mid[x + 1]
        + down[x - 1] + down[x] + down[x + 1]
      out[x] = floor(s / 9)
    end
  end
end
local function sobel(src, dst, h, w)
  for y = 0, h - 1 do
    dst[y][0] = 0
    dst[y][w - 1] = 0
  end
  for x = 0, w - 1 do
    dst[0][x] = 0
    dst[h - 1][x] = 0
  end
  for y = 1, h - 2 do
    for x = 1, w - 2 do
      local gx = -src[y - 1][x - 1] + src[y - 1][x + 1]
        - 2 * src[y][x - 1] + 2 * src[y][x + 1]
        - src[y + 1][x - 1] + src[y + 1][x + 1]
      local gy = -src[y - 1][x - 1] - 2 * src[y - 1][x] - src[y - 1][x + 1]
        + src[y + 1][x - 1] + 2 * src[y + 1][x] + src[y + 1][x + 1]
      local g = abs(gx) + abs(gy)
      if g > 255 then g = 255 end
      dst[y][x] = g
    end
  end
end
local h = 768
local w = 1024
local img = make_image(h, w)
-- blocky random picture: random rectangles of random grey levels
for y = 0, h - 1 do
  for x = 0, w - 1 do img[y][x] = next_random() % 32 end
end
for r = 0, 299 do
  local y0 = next_random() % h
  local x0 = next_random() % w
  local y1 = min(h, y0 + 1 + next_random() % 120)
  local x1 = min(w, x0 + 1 + next_random() % 160)
  local v = next_random() % 224
  for y = y0, y1 - 1 do
    for x = x0, x1 - 1 do img[y][x] = (img[y][x] + v) % 256 end
  end
end
local blurred = make_image(h, w)
local edges = make_image(h, w)
for round = 0, 63 do
  blur(img, blurred, h, w)
  sobel(blurred, edges, h, w)
  local sum = 0
  local strong = 0
  for y = 0, h - 1 do
    local e = edges[y]
    local b = blurred[y]
    local o = img[y]
    for x = 0, w - 1 do
      sum = sum + e[x] * (1 + (x + y) % 7)
      if e[x] > 128 then strong = strong + 1 end
      o[x] = floor((3 * b[x] + e[x]) / 4)
    end
  end
  if round % 8 == 7 then print(string.format("%d %d %d", round, sum, strong)) end
end
local check = 0
for y = 0, h - 1 do
  for x = 0, w - 1 do check = (check * 31 + img[y][x]) % 1000000007 end
end
print(string.format("%d", check))
