-- A tiny ray tracer: spheres on a big "floor" sphere, one point light with
-- hard shadows, Phong highlights and mirror reflections, 4x4 supersampling.
-- Prints an integer checksum of the 8-bit pixel values.
-- The checksum stays below 2^46, exact as a Lua number; float-to-int
-- conversions are of non-negative values, so floor is Toy's int().
local floor, sqrt = math.floor, math.sqrt
local ns = 6
local cx = { [0] = 0.0, -1.6, 0.0, 1.6, 0.8, -0.7 }
local cy = { [0] = -1000.0, 0.0, 0.3, 0.0, -0.55, -0.6 }
local cz = { [0] = 0.0, 5.0, 6.5, 5.0, 3.6, 3.4 }
local cr = { [0] = 999.0, 1.0, 1.3, 1.0, 0.45, 0.4 }
local colr = { [0] = 0.8, 0.9, 0.3, 0.2, 1.0, 0.6 }
local colg = { [0] = 0.8, 0.2, 0.9, 0.4, 0.8, 0.6 }
local colb = { [0] = 0.7, 0.2, 0.3, 0.95, 0.1, 0.9 }
local refl = { [0] = 0.25, 0.3, 0.5, 0.2, 0.0, 0.7 }
local lx = -4.0
local ly = 6.0
local lz = 0.0
local hit_t = 0.0
local function dot3(ax, ay, az, bx, by, bz)
  return ax * bx + ay * by + az * bz
end
local function normalize(v)
  local l = sqrt(dot3(v[0], v[1], v[2], v[0], v[1], v[2]))
  v[0] = v[0] / l
  v[1] = v[1] / l
  v[2] = v[2] / l
end
-- Distance along the ray to sphere i, or -1.0 on a miss.
local function hit_sphere(i, ox, oy, oz, dx, dy, dz)
  local px = ox - cx[i]
  local py = oy - cy[i]
  local pz = oz - cz[i]
  local b = dot3(px, py, pz, dx, dy, dz)
  local c = dot3(px, py, pz, px, py, pz) - cr[i] * cr[i]
  local disc = b * b - c
  if disc < 0.0 then return -1.0 end
  local s = sqrt(disc)
  local t = -b - s
  if t > 0.0001 then return t end
  t = -b + s
  if t > 0.0001 then return t end
  return -1.0
end
-- Index of the nearest sphere hit (distance left in hit_t), or -1.
local function nearest(ox, oy, oz, dx, dy, dz)
  local best = -1
  hit_t = 1e30
  for i = 0, ns - 1 do
    local t = hit_sphere(i, ox, oy, oz, dx, dy, dz)
    if t > 0.0 and t < hit_t then
      hit_t = t
      best = i
    end
  end
  return best
end
-- Adds weight * (colour seen along the ray) into col.
local function trace(ox, oy, oz, dx, dy, dz, depth, weight, col)
  local i = nearest(ox, oy, oz, dx, dy, dz)
  if i < 0 then
    local sky = 0.5 + 0.5 * dy
    col[0] = col[0] + weight * (0.3 + 0.4 * sky)
    col[1] = col[1] + weight * (0.5 + 0.3 * sky)
    col[2] = col[2] + weight * (0.9 + 0.1 * sky)
    return
  end
  local t = hit_t
  local px = ox + t * dx
  local py = oy + t * dy
  local pz = oz + t * dz
  local n = { [0] = (px - cx[i]) / cr[i], (py - cy[i]) / cr[i], (pz - cz[i]) / cr[i] }
  local l = { [0] = lx - px, ly - py, lz - pz }
  local dist = sqrt(dot3(l[0], l[1], l[2], l[0], l[1], l[2]))
  normalize(l)
  local diffuse = dot3(n[0], n[1], n[2], l[0], l[1], l[2])
  local spec = 0.0
  if diffuse < 0.0 then
    diffuse = 0.0
  else
    local s = nearest(px, py, pz, l[0], l[1], l[2])
    if s >= 0 and hit_t < dist then
      diffuse = 0.0
    else
      local dn = dot3(dx, dy, dz, n[0], n[1], n[2])
      local rx = dx - 2.0 * dn * n[0]
      local ry = dy - 2.0 * dn * n[1]
      local rz = dz - 2.0 * dn * n[2]
      local rl = dot3(rx, ry, rz, l[0], l[1], l[2])
      if rl > 0.0 then
        local p = rl * rl
        p = p * p
        p = p * p
        p = p * p
        spec = 0.6 * p
      end
    end
  end
  -- Checkerboard on the floor.
  local shade = 1.0
  if i == 0 then
    local ix = floor(px + 1000.0)
    local iz = floor(pz + 1000.0)
    if (ix + iz) % 2 == 0 then shade = 0.55 end
  end
  local k = 1.0 - refl[i]
  local light = 0.15 + 0.85 * diffuse
  col[0] = col[0] + weight * k * (colr[i] * shade * light + spec)
  col[1] = col[1] + weight * k * (colg[i] * shade * light + spec)
  col[2] = col[2] + weight * k * (colb[i] * shade * light + spec)
  if depth < 4 and refl[i] > 0.0 then
    local dn = dot3(dx, dy, dz, n[0], n[1], n[2])
    local rx = dx - 2.0 * dn * n[0]
    local ry = dy - 2.0 * dn * n[1]
    local rz = dz - 2.0 * dn * n[2]
    trace(px, py, pz, rx, ry, rz, depth + 1, weight * refl[i], col)
  end
end
local function to_byte(c)
  local v = c
  if v > 1.0 then v = 1.0 end
  if v < 0.0 then v = 0.0 end
  return floor(v * 255.0 + 0.5)
end
local width = 200
local height = 150
local ss = 4
local frames = 8
local checksum = 0
local histogram = {}
for i = 0, 7 do histogram[i] = 0 end
for f = 0, frames - 1 do
  -- The camera moves sideways a little each frame.
  local camx = -0.4 + 0.1 * f
  local frame_sum = 0
  for y = 0, height - 1 do
    for x = 0, width - 1 do
      local col = { [0] = 0.0, 0.0, 0.0 }
      for sy = 0, ss - 1 do
        for sx = 0, ss - 1 do
          local u = (x + (sx + 0.5) / ss) / width * 2.0 - 1.0
          local v = 1.0 - (y + (sy + 0.5) / ss) / height * 2.0
          local d = { [0] = u * 1.3333, v, 1.5 }
          normalize(d)
          trace(camx, 0.6, 0.0, d[0], d[1], d[2], 0, 1.0 / (ss * ss), col)
        end
      end
      local r = to_byte(col[0])
      local g = to_byte(col[1])
      local b = to_byte(col[2])
      frame_sum = frame_sum + r + g + b
      checksum = (checksum * 31 + r * 65536 + g * 256 + b) % 1000000007
      local bucket = floor((r + g + b) / 96)
      histogram[bucket] = histogram[bucket] + 1
    end
  end
  print(string.format("%d %d", f, frame_sum))
end
print(string.format("%d", checksum))
print(string.format("[%d, %d, %d, %d, %d, %d, %d, %d]", histogram[0], histogram[1], histogram[2],
  histogram[3], histogram[4], histogram[5], histogram[6], histogram[7]))
