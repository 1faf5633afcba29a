-- JPEG-like 8x8 DCT / quantize / IDCT round trip over an int image, at many qualities.
local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift
local floor, fmod, sqrt = math.floor, math.fmod, math.sqrt

local S = ffi.new("uint64_t[1]", 99)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end

local function trunc(x) if x >= 0 then return floor(x) else return -floor(-x) end end

local PI = 3.141592653589793

local function cosine(x)
  x = fmod(x, 2.0 * PI)
  if x > PI then x = x - 2.0 * PI end
  if x < -PI then x = x + 2.0 * PI end
  local term, s = 1.0, 1.0
  for k = 1, 29 do
    term = -term * x * x / ((2 * k - 1) * (2 * k))
    s = s + term
  end
  return s
end

local T = {}
for i = 0, 63 do T[i] = 0.0 end
local QT = {[0] = 16, 11, 10, 16, 24, 40, 51, 61,
          12, 12, 14, 19, 26, 58, 60, 55,
          14, 13, 16, 24, 40, 57, 69, 56,
          14, 17, 22, 29, 51, 87, 80, 62,
          18, 22, 37, 56, 68, 109, 103, 77,
          24, 35, 55, 64, 81, 104, 113, 92,
          49, 64, 78, 87, 103, 121, 120, 101,
          72, 92, 95, 98, 112, 100, 103, 99}

local function fdct(blk, out, tmp)
  for u = 0, 7 do
    for y = 0, 7 do
      local s = 0.0
      for x = 0, 7 do s = s + T[u * 8 + x] * blk[x * 8 + y] end
      tmp[u * 8 + y] = s
    end
  end
  for u = 0, 7 do
    for v = 0, 7 do
      local s = 0.0
      for y = 0, 7 do s = s + tmp[u * 8 + y] * T[v * 8 + y] end
      out[u * 8 + v] = s
    end
  end
end

local function idct(coef, out, tmp)
  for x = 0, 7 do
    for v = 0, 7 do
      local s = 0.0
      for u = 0, 7 do s = s + T[u * 8 + x] * coef[u * 8 + v] end
      tmp[x * 8 + v] = s
    end
  end
  for x = 0, 7 do
    for y = 0, 7 do
      local s = 0.0
      for v = 0, 7 do s = s + tmp[x * 8 + v] * T[v * 8 + y] end
      out[x * 8 + y] = s
    end
  end
end

local function round_(x)
  if x >= 0.0 then return trunc(x + 0.5) end
  return -trunc(-x + 0.5)
end
local function lmin(a, b) if a < b then return a else return b end end
local function lmax(a, b) if a > b then return a else return b end end

local W = 512
local H = 512
local img = {}
for y = 0, H - 1 do
  local row = {}
  for x = 0, W - 1 do row[x] = 0 end
  img[y] = row
end

for u = 0, 7 do
  local cu = 0.5
  if u == 0 then cu = 0.5 / sqrt(2.0) end
  for x = 0, 7 do T[u * 8 + x] = cu * cosine(((2 * x + 1) * u) * PI / 16.0) end
end
for y = 0, H - 1 do
  for x = 0, W - 1 do
    local v = floor((x * 3 + y * 5) / 8) + floor((x * y) / 512) % 64 + rnd() % 24
    if x > 100 and x < 260 and y > 50 and y < 180 then v = 230 - rnd() % 8 end
    if (x - 380) * (x - 380) + (y - 350) * (y - 350) < 4900 then v = 20 + (x + y) % 16 end
    img[y][x] = lmin(255, lmax(0, v))
  end
end
local blk, coef, rec, tmp, q = {}, {}, {}, {}, {}
for i = 0, 63 do blk[i] = 0.0; coef[i] = 0.0; rec[i] = 0.0; tmp[i] = 0.0; q[i] = 0 end
local grand = 0
local quality = 5
while quality <= 95 do
  local scale = 0
  if quality < 50 then scale = floor(5000 / quality) else scale = 200 - 2 * quality end
  for i = 0, 63 do q[i] = lmax(1, floor((QT[i] * scale + 50) / 100)) end
  local nonzero, sse = 0, 0
  for by = 0, H - 1, 8 do
    for bx = 0, W - 1, 8 do
      for y = 0, 7 do
        for x = 0, 7 do blk[y * 8 + x] = img[by + y][bx + x] - 128 end
      end
      fdct(blk, coef, tmp)
      for i = 0, 63 do
        local c = round_(coef[i] / q[i])
        if c ~= 0 then nonzero = nonzero + 1 end
        coef[i] = c * q[i]
      end
      idct(coef, rec, tmp)
      for y = 0, 7 do
        for x = 0, 7 do
          local p = lmin(255, lmax(0, round_(rec[y * 8 + x]) + 128))
          local d = p - img[by + y][bx + x]
          sse = sse + d * d
        end
      end
    end
  end
  grand = grand + nonzero * 7 + sse
  if quality % 10 == 5 then print(string.format("%d %d %d", quality, nonzero, sse)) end
  quality = quality + 1
end
print(string.format("T %d %d grand %d", trunc(T[9] * 1000000000000.0), trunc(T[63] * 1000000000000.0), grand))
