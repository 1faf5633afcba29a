-- A Brainfuck interpreter: the program text is reduced to its command
-- characters, the matching brackets are found once with a stack, then an
-- if/elseif chain over opcodes runs it on a tape of 8-bit cells. The program
-- runs a 255 x 255 loop whose body steps a mod-256 LCG (c3 = 5 * c3 + 3)
-- with move loops, so the inner loops run data-dependent numbers of times.
local band, byte = bit.band, string.byte
-- Cells c0, c1, ...
local source = [[
-[                     c0 is 255: outer loop
  >-[                  c1 is 255: middle loop
    >>[->+>+<<]        move c3 into c4 and c5
    >>[-<<+>>]         move c5 back into c3
    <[->++++<]         c5 gets 4 times c4
    >[-<<+>>]          add c5 into c3 so c3 is now 5 times c3
    <<+++              add 3 to c3
    .                  output c3
    >>>+               count in c6
    <<<<<-             decrement c1
  ]
  >>>>>[->+>+<<]       copy c6 into c7 and c8
  >>[-<<+>>]           move c8 back into c6
  <[-<<<<+>>>>]        add c7 into c3
  <<<<.                output c3
  <<<-                 decrement c0
]
]]
local PLUS, MINUS, LEFT, RIGHT = byte("+"), byte("-"), byte("<"), byte(">")
local OPEN, CLOSE, DOT = byte("["), byte("]"), byte(".")
local code, n = {}, 0
for i = 1, #source do
  local c = byte(source, i)
  if c == PLUS or c == MINUS or c == LEFT or c == RIGHT or c == OPEN or c == CLOSE or c == DOT then
    code[n] = c
    n = n + 1
  end
end
local jump, stack, sp = {}, {}, 0
for i = 0, n - 1 do
  jump[i] = 0
  if code[i] == OPEN then
    stack[sp] = i
    sp = sp + 1
  elseif code[i] == CLOSE then
    sp = sp - 1
    local j = stack[sp]
    jump[i] = j
    jump[j] = i
  end
end
local steps, outputs, out_hash = 0, 0, 0
local function run(code, n, jump, tape)
  local pc, ptr = 0, 0
  while pc < n do
    local op = code[pc]
    steps = steps + 1
    if op == PLUS then
      tape[ptr] = band(tape[ptr] + 1, 255)
    elseif op == MINUS then
      tape[ptr] = band(tape[ptr] - 1, 255)
    elseif op == RIGHT then
      ptr = ptr + 1
    elseif op == LEFT then
      ptr = ptr - 1
    elseif op == OPEN then
      if tape[ptr] == 0 then pc = jump[pc] end
    elseif op == CLOSE then
      if tape[ptr] ~= 0 then pc = jump[pc] end
    elseif op == DOT then
      outputs = outputs + 1
      out_hash = (out_hash * 31 + tape[ptr]) % 1000000007
    end
    pc = pc + 1
  end
end
local tape = {}
for i = 0, 255 do tape[i] = 0 end
run(code, n, jump, tape)
local tape_hash = 0
for i = 0, 255 do tape_hash = (tape_hash * 3 + tape[i]) % 1000000007 end
print(string.format("%d %d %d", n, steps, outputs))
print(string.format("%d %d", out_hash, tape_hash))
