-- Dense float matrix multiply (i-k-j order), arrays of arrays.
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
local function matrix(n, seed)
  local out = {}
  for i = 0, n - 1 do
    local row = {}
    for j = 0, n - 1 do row[j] = ((i * 7 + j * 3) % 11) * seed - ((i + j) % 5) end
    out[i] = row
  end
  return out
end
local function multiply(a, b, n)
  local c = {}
  for i = 0, n - 1 do
    local ci = {}
    for j = 0, n - 1 do ci[j] = 0.0 end
    local ai = a[i]
    for k = 0, n - 1 do
      local aik, bk = ai[k], b[k]
      for j = 0, n - 1 do ci[j] = ci[j] + aik * bk[j] end
    end
    c[i] = ci
  end
  return c
end
local n = 800
local a, b = matrix(n, 0.5), matrix(n, 0.25)
local c = multiply(a, b, n)
local trace = 0.0
for i = 0, n - 1 do trace = trace + c[i][i] + c[i][n - 1 - i] end
print(string.format("%d", trunc(trace * 1000.0)))
