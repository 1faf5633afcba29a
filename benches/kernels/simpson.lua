-- Adaptive Simpson integration (recursive, many double arguments) of a few functions.
local abs, floor = math.abs, math.floor

local function trunc(x) if x >= 0 then return floor(x) else return -floor(-x) end end

local evals = 0

local function f(k, x)
  evals = evals + 1
  if k == 0 then return x * x * x - 2.0 * x + 1.0
  elseif k == 1 then return 1.0 / (1.0 + x * x)
  elseif k == 2 then return (x * x + 1.0) / (x * x * x * x + x + 3.0)
  elseif k == 3 then return 1.0 / (1.0 + 25.0 * x * x)
  else return x / (3.0 + x) - x * x * x * x * x * 0.01 end
end

local function asr(k, a, b, eps, whole, fa, fm, fb, depth)
  local m = (a + b) / 2.0
  local lm = (a + m) / 2.0
  local rm = (m + b) / 2.0
  local flm = f(k, lm)
  local frm = f(k, rm)
  local left = (m - a) / 6.0 * (fa + 4.0 * flm + fm)
  local right = (b - m) / 6.0 * (fm + 4.0 * frm + fb)
  local delta = left + right - whole
  if depth <= 0 or abs(delta) <= 15.0 * eps then return left + right + delta / 15.0 end
  local l = asr(k, a, m, eps / 2.0, left, fa, flm, fm, depth - 1)
  local r = asr(k, m, b, eps / 2.0, right, fm, frm, fb, depth - 1)
  return l + r
end

local function integrate(k, a, b, eps)
  local fa = f(k, a)
  local fb = f(k, b)
  local m = (a + b) / 2.0
  local fm = f(k, m)
  local whole = (b - a) / 6.0 * (fa + 4.0 * fm + fb)
  return asr(k, a, b, eps, whole, fa, fm, fb, 40)
end

local total = 0.0
local rounds = 12000
for k = 0, 4 do
  local sum = 0.0
  for r = 0, rounds - 1 do
    local a = -1.0 + r * 0.0001
    local b = 2.0 + (r % 7) * 0.25
    sum = sum + integrate(k, a, b, 0.000000000001)
  end
  total = total + sum
  print(string.format("%d %d %d", k, trunc(sum * 1000000.0), evals))
end
print(string.format("total %d evals %d", trunc(total * 1000000.0), evals))
