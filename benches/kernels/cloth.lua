-- Cloth: a spring-mass grid. 2-D vectors are passed by value as pairs of
-- numbers (multiple arguments / multiple return values) and stored in
-- parallel x/y arrays.
local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift
local sqrt = math.sqrt

local S = ffi.new("uint64_t[1]", 20240611)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end
local function rndf() return rnd() / 2147483648.0 end

local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end

local function vec(x, y) return x, y end
local function add(ax, ay, bx, by) return ax + bx, ay + by end
local function sub(ax, ay, bx, by) return ax - bx, ay - by end
local function scale(ax, ay, s) return ax * s, ay * s end
local function dot(ax, ay, bx, by) return ax * bx + ay * by end
local function length(ax, ay) return sqrt(dot(ax, ay, ax, ay)) end

local W = 24
local H = 24
local N = W * H
local mass, k, damp, floor_y = 1.0, 400.0, 2.0, -30.0
local gravx, gravy = 0.0, 0.0

local posx, posy, velx, vely, forcex, forcey = {}, {}, {}, {}, {}, {}
for p = 0, N - 1 do
  posx[p] = 0.0; posy[p] = 0.0; velx[p] = 0.0; vely[p] = 0.0; forcex[p] = 0.0; forcey[p] = 0.0
end
local MAXS = 4 * N
local sa, sb, rest = {}, {}, {}
for s = 0, MAXS - 1 do sa[s] = 0; sb[s] = 0; rest[s] = 0.0 end
local ns = 0

local function spring(a, b)
  sa[ns] = a
  sb[ns] = b
  rest[ns] = length(sub(posx[b], posy[b], posx[a], posy[a]))
  ns = ns + 1
end

local function pinned(p) return p == 0 or p == W - 1 end

local function step(dt)
  for p = 0, N - 1 do forcex[p], forcey[p] = scale(gravx, gravy, mass) end
  for s = 0, ns - 1 do
    local a, b = sa[s], sb[s]
    local dx, dy = sub(posx[b], posy[b], posx[a], posy[a])
    local l = length(dx, dy)
    local fsx, fsy = scale(dx, dy, k * (l - rest[s]) / l)
    local rvx, rvy = sub(velx[b], vely[b], velx[a], vely[a])
    local fdx, fdy = scale(dx, dy, damp * dot(rvx, rvy, dx, dy) / (l * l))
    local fx, fy = add(fsx, fsy, fdx, fdy)
    forcex[a], forcey[a] = add(forcex[a], forcey[a], fx, fy)
    forcex[b], forcey[b] = sub(forcex[b], forcey[b], fx, fy)
  end
  for p = 0, N - 1 do
    if not pinned(p) then
      local sx, sy = scale(forcex[p], forcey[p], dt / mass)
      local ax, ay = add(velx[p], vely[p], sx, sy)
      velx[p], vely[p] = scale(ax, ay, 0.9995)
      local vx, vy = scale(velx[p], vely[p], dt)
      posx[p], posy[p] = add(posx[p], posy[p], vx, vy)
      if posy[p] < floor_y then
        posx[p], posy[p] = vec(posx[p], floor_y)
        velx[p], vely[p] = vec(velx[p] * 0.8, -vely[p] * 0.5)
      end
    end
  end
end

local function report(t)
  local cx, cy = vec(0.0, 0.0)
  local e = 0.0
  for p = 0, N - 1 do
    cx, cy = add(cx, cy, posx[p], posy[p])
    e = e + 0.5 * mass * dot(velx[p], vely[p], velx[p], vely[p])
  end
  cx, cy = scale(cx, cy, 1.0 / N)
  print(string.format("%d %d %d %d", t, trunc(cx * 1000000.0), trunc(cy * 1000000.0), trunc(e * 1000.0)))
end

gravx, gravy = vec(0.0, -9.81)
for j = 0, H - 1 do
  for i = 0, W - 1 do
    local p = j * W + i
    local rx = rndf()
    local ry = rndf()
    posx[p], posy[p] = vec(i + 0.05 * (rx - 0.5), -j + 0.05 * (ry - 0.5))
    velx[p], vely[p] = vec(0.0, 0.0)
    forcex[p], forcey[p] = vec(0.0, 0.0)
  end
end
for j = 0, H - 1 do
  for i = 0, W - 1 do
    local p = j * W + i
    if i + 1 < W then spring(p, p + 1) end
    if j + 1 < H then spring(p, p + W) end
    if i + 1 < W and j + 1 < H then spring(p, p + W + 1) end
    if i > 0 and j + 1 < H then spring(p, p + W - 1) end
  end
end
print(string.format("springs %d", ns))
local steps = 50000
for t = 0, steps - 1 do
  step(0.002)
  if (t + 1) % 10000 == 0 then report(t + 1) end
end
