-- Mandelbrot: escape-time iteration counts over a grid (float arithmetic).
local function escape(cr, ci, limit)
  local zr, zi = 0.0, 0.0
  for n = 0, limit - 1 do
    local zr2, zi2 = zr * zr, zi * zi
    if zr2 + zi2 > 4.0 then return n end
    zi = 2.0 * zr * zi + ci
    zr = zr2 - zi2 + cr
  end
  return limit
end
local size, total = 1200, 0
for y = 0, size - 1 do
  local ci = 2.0 * y / size - 1.0
  for x = 0, size - 1 do
    local cr = 2.5 * x / size - 2.0
    total = total + escape(cr, ci, 200)
  end
end
print(string.format("%d", total))
