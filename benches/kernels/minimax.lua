-- Connect-four self-play: depth-limited negamax with alpha-beta pruning on a
-- 7x6 board array, centre-first move order, window-count evaluation.
local COLS, ROWS, WIN = 7, 6, 1000000
local order = {[0] = 3, 2, 4, 1, 5, 0, 6}
local weight = {[0] = 0, 1, 8, 64, 0}
local nodes, total_moves = 0, 0
local function count_dir(board, row, col, dr, dc, p)
  local n = 0
  local r, c = row + dr, col + dc
  while r >= 0 and r < ROWS and c >= 0 and c < COLS and board[r * COLS + c] == p do
    n = n + 1
    r = r + dr
    c = c + dc
  end
  return n
end
-- Does the piece just dropped at (row, col) complete four in a row?
local function wins(board, row, col, p)
  if 1 + count_dir(board, row, col, 1, 0, p) + count_dir(board, row, col, -1, 0, p) >= 4 then return true end
  if 1 + count_dir(board, row, col, 0, 1, p) + count_dir(board, row, col, 0, -1, p) >= 4 then return true end
  if 1 + count_dir(board, row, col, 1, 1, p) + count_dir(board, row, col, -1, -1, p) >= 4 then return true end
  if 1 + count_dir(board, row, col, 1, -1, p) + count_dir(board, row, col, -1, 1, p) >= 4 then return true end
  return false
end
local function window(board, row, col, dr, dc, p)
  local mine, theirs = 0, 0
  for i = 0, 3 do
    local v = board[(row + i * dr) * COLS + col + i * dc]
    if v == p then
      mine = mine + 1
    elseif v ~= 0 then
      theirs = theirs + 1
    end
  end
  if theirs == 0 then return weight[mine] end
  if mine == 0 then return -weight[theirs] end
  return 0
end
-- Score of the position for player p: every window of four cells.
local function evaluate(board, p)
  local score = 0
  for r = 0, ROWS - 1 do
    for c = 0, COLS - 1 do
      if c + 3 < COLS then score = score + window(board, r, c, 0, 1, p) end
      if r + 3 < ROWS then
        score = score + window(board, r, c, 1, 0, p)
        if c + 3 < COLS then score = score + window(board, r, c, 1, 1, p) end
        if c >= 3 then score = score + window(board, r, c, 1, -1, p) end
      end
    end
  end
  return score
end
local function negamax(board, heights, depth, alpha, beta, p)
  nodes = nodes + 1
  if depth == 0 then return evaluate(board, p) end
  local best = -WIN - 100
  local moved = false
  for i = 0, COLS - 1 do
    local col = order[i]
    if heights[col] ~= ROWS then
      moved = true
      local row = heights[col]
      board[row * COLS + col] = p
      heights[col] = heights[col] + 1
      local score
      if wins(board, row, col, p) then
        score = WIN + depth
      else
        score = -negamax(board, heights, depth - 1, -beta, -alpha, 3 - p)
      end
      heights[col] = heights[col] - 1
      board[row * COLS + col] = 0
      if score > best then best = score end
      if best > alpha then alpha = best end
      if alpha >= beta then break end
    end
  end
  if not moved then return 0 end
  return best
end
local function best_move(board, heights, depth, p)
  local best, move = -WIN - 1000, -1
  for i = 0, COLS - 1 do
    local col = order[i]
    if heights[col] ~= ROWS then
      local row = heights[col]
      board[row * COLS + col] = p
      heights[col] = heights[col] + 1
      local score
      if wins(board, row, col, p) then
        score = WIN + depth
      else
        score = -negamax(board, heights, depth - 1, -WIN - 1000, -best, 3 - p)
      end
      heights[col] = heights[col] - 1
      board[row * COLS + col] = 0
      if score > best then
        best = score
        move = col
      end
    end
  end
  return move
end
-- Plays one game from the given opening moves; returns the winner (0: draw).
local function play(opening, depth)
  local board, heights = {}, {}
  for i = 0, ROWS * COLS - 1 do board[i] = 0 end
  for i = 0, COLS - 1 do heights[i] = 0 end
  local p, history = 1, 0
  for m = 0, ROWS * COLS - 1 do
    local col
    if m < #opening then
      col = opening[m + 1]
    else
      col = best_move(board, heights, depth, p)
    end
    local row = heights[col]
    board[row * COLS + col] = p
    heights[col] = heights[col] + 1
    total_moves = total_moves + 1
    history = (history * 7 + col) % 1000000007
    if wins(board, row, col, p) then
      print(string.format("%d %d", p, history))
      return p
    end
    p = 3 - p
  end
  print(string.format("0 %d", history))
  return 0
end
local openings = {{3, 3}, {2, 4}, {0, 6}, {3, 1}}
local score = 0
for g = 1, 4 do
  local winner = play(openings[g], 7)
  score = score * 3 + winner
end
print(string.format("%d %d %d", total_moves, score, nodes))
