-- Lloyd's k-means on 2-D points held in parallel float tables: points are
-- drawn around hidden centres with LCG noise; centroids start at the first
-- k points; a fixed number of iterations. Prints integer checksums.
-- The LCG wraps at 64 bits: uint64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 12345)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function uniform()
  return next_random() / 2147483648.0
end
local function filled(n, value)
  local t = {}
  for i = 0, n - 1 do t[i] = value end
  return t
end
local n = 300000
local k = 12
local iters = 80
local px = filled(n, 0.0)
local py = filled(n, 0.0)
local hx = filled(k, 0.0)
local hy = filled(k, 0.0)
for c = 0, k - 1 do
  hx[c] = uniform() * 100.0
  hy[c] = uniform() * 100.0
end
for i = 0, n - 1 do
  local c = next_random() % k
  -- roughly bell-shaped noise: sum of four uniforms
  local nx = uniform() + uniform() + uniform() + uniform() - 2.0
  local ny = uniform() + uniform() + uniform() + uniform() - 2.0
  px[i] = hx[c] + 6.0 * nx
  py[i] = hy[c] + 6.0 * ny
end
local cx = filled(k, 0.0)
local cy = filled(k, 0.0)
for c = 0, k - 1 do
  cx[c] = px[c]
  cy[c] = py[c]
end
local assign = filled(n, 0)
local sx = filled(k, 0.0)
local sy = filled(k, 0.0)
local cnt = filled(k, 0)
for it = 0, iters - 1 do
  local changed = 0
  local inertia = 0.0
  for c = 0, k - 1 do
    sx[c] = 0.0
    sy[c] = 0.0
    cnt[c] = 0
  end
  for i = 0, n - 1 do
    local x = px[i]
    local y = py[i]
    local best = 0
    local bestd = 1e300
    for c = 0, k - 1 do
      local dx = x - cx[c]
      local dy = y - cy[c]
      local d = dx * dx + dy * dy
      if d < bestd then
        bestd = d
        best = c
      end
    end
    if assign[i] ~= best then
      changed = changed + 1
      assign[i] = best
    end
    inertia = inertia + bestd
    sx[best] = sx[best] + x
    sy[best] = sy[best] + y
    cnt[best] = cnt[best] + 1
  end
  for c = 0, k - 1 do
    if cnt[c] > 0 then
      cx[c] = sx[c] / cnt[c]
      cy[c] = sy[c] / cnt[c]
    end
  end
  if it % 20 == 19 then
    print(string.format("%d %d %d", it, changed, trunc(inertia * 1000.0)))
  end
end
for c = 0, k - 1 do
  print(string.format("%d %d %d %d", c, cnt[c], trunc(cx[c] * 1000000.0), trunc(cy[c] * 1000000.0)))
end
