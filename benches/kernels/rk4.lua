-- Classical fourth-order Runge–Kutta integration of two coupled, damped
-- Duffing oscillators; the right-hand side takes ten arguments.
-- State: x1, v1, x2, v2.
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
local abs = math.abs
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
local function derivative(y, out, a1, b1, d1, a2, b2, d2, coupling, force)
  local x1, v1, x2, v2 = y[0], y[1], y[2], y[3]
  out[0] = v1
  out[1] = -d1 * v1 - a1 * x1 - b1 * x1 * x1 * x1 + coupling * (x2 - x1) + force
  out[2] = v2
  out[3] = -d2 * v2 - a2 * x2 - b2 * x2 * x2 * x2 + coupling * (x1 - x2)
end
local function rk4_step(y, h, k1, k2, k3, k4, tmp, p)
  local n = len(y)
  derivative(y, k1, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
  for i = 0, n - 1 do tmp[i] = y[i] + 0.5 * h * k1[i] end
  derivative(tmp, k2, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
  for i = 0, n - 1 do tmp[i] = y[i] + 0.5 * h * k2[i] end
  derivative(tmp, k3, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
  for i = 0, n - 1 do tmp[i] = y[i] + h * k3[i] end
  derivative(tmp, k4, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
  for i = 0, n - 1 do y[i] = y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) end
end
local function energy(y, p)
  local x1, x2 = y[0], y[2]
  local kinetic = 0.5 * (y[1] * y[1] + y[3] * y[3])
  local potential = 0.5 * p[0] * x1 * x1 + 0.25 * p[1] * x1 * x1 * x1 * x1
    + 0.5 * p[3] * x2 * x2 + 0.25 * p[4] * x2 * x2 * x2 * x2
    + 0.5 * p[6] * (x1 - x2) * (x1 - x2)
  return kinetic + potential
end
local function zeros(n)
  local t = {}
  for i = 0, n - 1 do t[i] = 0.0 end
  return t
end
local k1, k2, k3, k4, tmp = zeros(4), zeros(4), zeros(4), zeros(4), zeros(4)
local h = 0.001
for run = 0, 2 do
  local y = { [0] = 1.0, 0.0, -0.5 + 0.25 * run, 0.1 }
  local force = 0.05 * run
  local p = { [0] = 1.0, 0.5, 0.002, 1.5, 0.25, 0.003, 0.2 + 0.1 * run, force }
  local peak = 0.0
  for step = 0, 2000000 - 1 do
    rk4_step(y, h, k1, k2, k3, k4, tmp, p)
    if abs(y[0]) > peak then peak = abs(y[0]) end
  end
  print(string.format("%d %d %d %d", trunc(y[0] * 1e12), trunc(y[1] * 1e12),
    trunc(y[2] * 1e12), trunc(y[3] * 1e12)))
  print(string.format("%d %d", trunc(energy(y, p) * 1e12), trunc(peak * 1e12)))
end
