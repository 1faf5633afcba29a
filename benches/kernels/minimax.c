// Connect-four self-play: depth-limited negamax with alpha-beta pruning on a
// 7x6 board array, centre-first move order, window-count evaluation.
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

#define COLS 7
#define ROWS 6
#define WIN 1000000

static const int64_t order[COLS] = {3, 2, 4, 1, 5, 0, 6};
static const int64_t weight[5] = {0, 1, 8, 64, 0};
static int64_t nodes = 0;
static int64_t total_moves = 0;

static int64_t count_dir(const int64_t *board, int64_t row, int64_t col, int64_t dr, int64_t dc,
                         int64_t p) {
    int64_t n = 0;
    int64_t r = row + dr, c = col + dc;
    while (r >= 0 && r < ROWS && c >= 0 && c < COLS && board[r * COLS + c] == p) {
        n += 1;
        r += dr;
        c += dc;
    }
    return n;
}

// Does the piece just dropped at (row, col) complete four in a row?
static bool wins(const int64_t *board, int64_t row, int64_t col, int64_t p) {
    if (1 + count_dir(board, row, col, 1, 0, p) + count_dir(board, row, col, -1, 0, p) >= 4) return true;
    if (1 + count_dir(board, row, col, 0, 1, p) + count_dir(board, row, col, 0, -1, p) >= 4) return true;
    if (1 + count_dir(board, row, col, 1, 1, p) + count_dir(board, row, col, -1, -1, p) >= 4) return true;
    if (1 + count_dir(board, row, col, 1, -1, p) + count_dir(board, row, col, -1, 1, p) >= 4) return true;
    return false;
}

static int64_t window(const int64_t *board, int64_t row, int64_t col, int64_t dr, int64_t dc,
                      int64_t p) {
    int64_t mine = 0, theirs = 0;
    for (int64_t i = 0; i < 4; i++) {
        int64_t v = board[(row + i * dr) * COLS + col + i * dc];
        if (v == p) mine += 1;
        else if (v != 0) theirs += 1;
    }
    if (theirs == 0) return weight[mine];
    if (mine == 0) return -weight[theirs];
    return 0;
}

// Score of the position for player p: every window of four cells.
static int64_t evaluate(const int64_t *board, int64_t p) {
    int64_t score = 0;
    for (int64_t r = 0; r < ROWS; r++) {
        for (int64_t c = 0; c < COLS; c++) {
            if (c + 3 < COLS) score += window(board, r, c, 0, 1, p);
            if (r + 3 < ROWS) {
                score += window(board, r, c, 1, 0, p);
                if (c + 3 < COLS) score += window(board, r, c, 1, 1, p);
                if (c >= 3) score += window(board, r, c, 1, -1, p);
            }
        }
    }
    return score;
}

static int64_t negamax(int64_t *board, int64_t *heights, int64_t depth, int64_t alpha,
                       int64_t beta, int64_t p) {
    nodes += 1;
    if (depth == 0) return evaluate(board, p);
    int64_t best = -WIN - 100;
    bool moved = false;
    for (int64_t i = 0; i < COLS; i++) {
        int64_t col = order[i];
        if (heights[col] == ROWS) continue;
        moved = true;
        int64_t row = heights[col];
        board[row * COLS + col] = p;
        heights[col] += 1;
        int64_t score;
        if (wins(board, row, col, p)) score = WIN + depth;
        else score = -negamax(board, heights, depth - 1, -beta, -alpha, 3 - p);
        heights[col] -= 1;
        board[row * COLS + col] = 0;
        if (score > best) best = score;
        if (best > alpha) alpha = best;
        if (alpha >= beta) break;
    }
    if (!moved) return 0;
    return best;
}

static int64_t best_move(int64_t *board, int64_t *heights, int64_t depth, int64_t p) {
    int64_t best = -WIN - 1000, move = -1;
    for (int64_t i = 0; i < COLS; i++) {
        int64_t col = order[i];
        if (heights[col] == ROWS) continue;
        int64_t row = heights[col];
        board[row * COLS + col] = p;
        heights[col] += 1;
        int64_t score;
        if (wins(board, row, col, p)) score = WIN + depth;
        else score = -negamax(board, heights, depth - 1, -WIN - 1000, -best, 3 - p);
        heights[col] -= 1;
        board[row * COLS + col] = 0;
        if (score > best) {
            best = score;
            move = col;
        }
    }
    return move;
}

// Plays one game from the given opening moves; returns the winner (0: draw).
static int64_t play(const int64_t *opening, int64_t nopen, int64_t depth) {
    int64_t board[ROWS * COLS] = {0};
    int64_t heights[COLS] = {0};
    int64_t p = 1, history = 0;
    for (int64_t m = 0; m < ROWS * COLS; m++) {
        int64_t col = m < nopen ? opening[m] : best_move(board, heights, depth, p);
        int64_t row = heights[col];
        board[row * COLS + col] = p;
        heights[col] += 1;
        total_moves += 1;
        history = (history * 7 + col) % 1000000007;
        if (wins(board, row, col, p)) {
            printf("%lld %lld\n", (long long)p, (long long)history);
            return p;
        }
        p = 3 - p;
    }
    printf("0 %lld\n", (long long)history);
    return 0;
}

int main(void) {
    static const int64_t openings[4][2] = {{3, 3}, {2, 4}, {0, 6}, {3, 1}};
    int64_t score = 0;
    for (int64_t g = 0; g < 4; g++) {
        int64_t winner = play(openings[g], 2, 7);
        score = score * 3 + winner;
    }
    printf("%lld %lld %lld\n", (long long)total_moves, (long long)score, (long long)nodes);
    return 0;
}
