-- The Benchmarks Game n-body simulation (5 bodies), arrays of floats.
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
local PI = 3.141592653589793
local SOLAR_MASS = 4.0 * PI * PI
local DAYS = 365.24
local function body(x, y, z, vx, vy, vz, m)
  return { [0] = x, y, z, vx * DAYS, vy * DAYS, vz * DAYS, m * SOLAR_MASS }
end
local bodies = {
  [0] = body(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
  body(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
       1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
       9.54791938424326609e-04),
  body(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
       -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
       2.85885980666130812e-04),
  body(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
       2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
       4.36624404335156298e-05),
  body(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
       2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
       5.15138902046611451e-05),
}
local N = 5
local function offset_momentum()
  local px, py, pz = 0.0, 0.0, 0.0
  for i = 0, N - 1 do
    local b = bodies[i]
    px = px + b[3] * b[6]; py = py + b[4] * b[6]; pz = pz + b[5] * b[6]
  end
  local sun = bodies[0]
  sun[3] = -px / SOLAR_MASS; sun[4] = -py / SOLAR_MASS; sun[5] = -pz / SOLAR_MASS
end
local function energy()
  local e = 0.0
  for i = 0, N - 1 do
    local b = bodies[i]
    e = e + 0.5 * b[6] * (b[3] * b[3] + b[4] * b[4] + b[5] * b[5])
    for j = i + 1, N - 1 do
      local c = bodies[j]
      local dx, dy, dz = b[0] - c[0], b[1] - c[1], b[2] - c[2]
      e = e - b[6] * c[6] / math.sqrt(dx * dx + dy * dy + dz * dz)
    end
  end
  return e
end
local function advance(dt)
  for i = 0, N - 1 do
    local b = bodies[i]
    for j = i + 1, N - 1 do
      local c = bodies[j]
      local dx, dy, dz = b[0] - c[0], b[1] - c[1], b[2] - c[2]
      local d2 = dx * dx + dy * dy + dz * dz
      local mag = dt / (d2 * math.sqrt(d2))
      b[3] = b[3] - dx * c[6] * mag; b[4] = b[4] - dy * c[6] * mag; b[5] = b[5] - dz * c[6] * mag
      c[3] = c[3] + dx * b[6] * mag; c[4] = c[4] + dy * b[6] * mag; c[5] = c[5] + dz * b[6] * mag
    end
  end
  for i = 0, N - 1 do
    local b = bodies[i]
    b[0] = b[0] + dt * b[3]; b[1] = b[1] + dt * b[4]; b[2] = b[2] + dt * b[5]
  end
end
offset_momentum()
print(string.format("%d", trunc(energy() * 1000000000.0)))
for step = 1, 4000000 do advance(0.01) end
print(string.format("%d", trunc(energy() * 1000000000.0)))
