-- RK4 integration of the Henon-Heiles system, state [x, y, px, py].
-- The state and the stages are 0-based tables of four floats; the
-- derivative and the vector helpers write into scratch tables reused on
-- every step, and the current and next state tables are swapped.
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
local sqrt, abs, max = math.sqrt, math.abs, math.max
local N = 4
local function zeros(n)
  local t = {}
  for i = 0, n - 1 do t[i] = 0.0 end
  return t
end
local function deriv(s, out)
  local x, y = s[0], s[1]
  out[0] = s[2]
  out[1] = s[3]
  out[2] = -x - 2.0 * x * y
  out[3] = -y - x * x + y * y
end
-- r = y + h * k
local function axpy(y, h, k, r)
  for i = 0, N - 1 do r[i] = y[i] + h * k[i] end
end
local k1, k2, k3, k4, tmp = zeros(N), zeros(N), zeros(N), zeros(N), zeros(N)
local function rk4_step(s, h, out)
  deriv(s, k1)
  axpy(s, 0.5 * h, k1, tmp)
  deriv(tmp, k2)
  axpy(s, 0.5 * h, k2, tmp)
  deriv(tmp, k3)
  axpy(s, h, k3, tmp)
  deriv(tmp, k4)
  for i = 0, N - 1 do
    out[i] = s[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])
  end
end
local function energy(s)
  local x, y = s[0], s[1]
  return 0.5 * (s[2] * s[2] + s[3] * s[3]) + 0.5 * (x * x + y * y)
    + x * x * y - y * y * y / 3.0
end
local h = 0.01
local steps = 1000000
for orbit = 0, 3 do
  local y0 = 0.05 * orbit - 0.1
  local s = { [0] = 0.0, y0, 0.35 + 0.02 * orbit, 0.1 }
  local nxt = zeros(N)
  local e0 = energy(s)
  local maxr = 0.0
  local crossings = 0
  for t = 0, steps - 1 do
    rk4_step(s, h, nxt)
    -- count upward crossings of the x = 0 section
    if s[0] < 0.0 and nxt[0] >= 0.0 then crossings = crossings + 1 end
    s, nxt = nxt, s
    local r = sqrt(s[0] * s[0] + s[1] * s[1])
    maxr = max(maxr, r)
  end
  local drift = abs(energy(s) - e0)
  print(string.format("%d %d %d %d", orbit, trunc(e0 * 1e12), crossings, trunc(maxr * 1e9)))
  print(string.format("%d %d %d %d %d", trunc(s[0] * 1e9), trunc(s[1] * 1e9), trunc(s[2] * 1e9),
    trunc(s[3] * 1e9), trunc(drift * 1e15)))
end
