-- 2-D soft-disc particles in a box under gravity. 2-D vectors are passed by
-- value as pairs of numbers (multiple arguments / multiple return values)
-- and stored in parallel x/y tables.
-- The LCG wraps at 64 bits: uint64_t cdata.
local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift
local sqrt = math.sqrt

local S = ffi.new("uint64_t[1]", 4242)
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

local n = 360
local box = 24.0
local rc = 1.0
local stiff = 200.0
local gravx, gravy = vec(0.0, -2.0)
local dt = 0.004

local posx, posy, velx, vely, accx, accy = {}, {}, {}, {}, {}, {}
for i = 0, n - 1 do
  posx[i], posy[i] = vec(box * rndf(), box * rndf())
  velx[i], vely[i] = vec(rndf() - 0.5, rndf() - 0.5)
  accx[i], accy[i] = vec(0.0, 0.0)
end

local contacts = 0

local function forces()
  for i = 0, n - 1 do accx[i], accy[i] = gravx, gravy end
  for i = 0, n - 1 do
    for j = i + 1, n - 1 do
      local dx, dy = sub(posx[j], posy[j], posx[i], posy[i])
      local r2 = dot(dx, dy, dx, dy)
      if r2 < rc * rc and r2 > 0.0 then
        local r = sqrt(r2)
        local fx, fy = scale(dx, dy, stiff * (rc - r) / r)
        accx[i], accy[i] = sub(accx[i], accy[i], fx, fy)
        accx[j], accy[j] = add(accx[j], accy[j], fx, fy)
        contacts = contacts + 1
      end
    end
  end
end

local function move()
  for i = 0, n - 1 do
    velx[i], vely[i] = add(velx[i], vely[i], scale(accx[i], accy[i], dt))
    posx[i], posy[i] = add(posx[i], posy[i], scale(velx[i], vely[i], dt))
    local px, py = posx[i], posy[i]
    local vx, vy = velx[i], vely[i]
    if px < 0.0 then
      posx[i], posy[i] = vec(-px, py)
      velx[i], vely[i] = vec(-0.9 * vx, vy)
    elseif px > box then
      posx[i], posy[i] = vec(2.0 * box - px, py)
      velx[i], vely[i] = vec(-0.9 * vx, vy)
    end
    px, py = posx[i], posy[i]
    vx, vy = velx[i], vely[i]
    if py < 0.0 then
      posx[i], posy[i] = vec(px, -py)
      velx[i], vely[i] = vec(vx, -0.9 * vy)
    elseif py > box then
      posx[i], posy[i] = vec(px, 2.0 * box - py)
      velx[i], vely[i] = vec(vx, -0.9 * vy)
    end
  end
end

local function report(t)
  local cx, cy = vec(0.0, 0.0)
  local ke = 0.0
  for i = 0, n - 1 do
    cx, cy = add(cx, cy, posx[i], posy[i])
    ke = ke + 0.5 * dot(velx[i], vely[i], velx[i], vely[i])
  end
  cx, cy = scale(cx, cy, 1.0 / n)
  print(string.format("%d %d %d %d %d", t, contacts, trunc(cx * 1e6), trunc(cy * 1e6), trunc(ke * 1e6)))
end

local steps = 5000
for t = 0, steps - 1 do
  forces()
  move()
  if (t + 1) % 1000 == 0 then report(t + 1) end
end
