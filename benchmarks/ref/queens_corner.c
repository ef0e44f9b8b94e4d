/* The corner/rotation N-Queens count (total and unique in one search) in plain C: the
 * reference the speed targets were set against, timed side by side with puzzlesearch by
 * benchmarks/queens.py to show how fast this machine is at the moment of the run.
 *
 * The method is the one of src/puzzlesearch/queens/corner.py (Takaken's refinement of the
 * bitboard backtracker) without its dead-child filter; see there for the reasoning. Rows go
 * top to bottom, column c is bit 1 << c, recursion instead of an explicit stack.
 *
 * Usage: queens_corner N   prints "solutions unique". Build: cc -O2 -o queens_corner queens_corner.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int n, last, bound1, bound2;
static int64_t mask, topbit, sidemask, lastmask, endbit;
static int64_t board[64];
static int64_t c8, c4, c2;

/* 0 if the side board is not its class's representative, else the class size (2, 4 or 8). */
static int rotation_class(void) {
    int own, you;
    int64_t bit, ptn;
    if (board[bound2] == 1) { /* 90 degrees */
        for (own = 1, ptn = 2; own <= last; own++, ptn <<= 1) {
            for (bit = 1, you = last; board[you] != ptn && board[own] >= bit; you--) bit <<= 1;
            if (board[own] > bit) return 0;
            if (board[own] < bit) break;
        }
        if (own > last) return 2;
    }
    if (board[last] == endbit) { /* 180 degrees */
        for (own = 1, you = last - 1; own <= last; own++, you--) {
            for (bit = 1, ptn = topbit; ptn != board[you] && board[own] >= bit; ptn >>= 1) bit <<= 1;
            if (board[own] > bit) return 0;
            if (board[own] < bit) break;
        }
        if (own > last) return 4;
    }
    if (board[bound1] == topbit) { /* 270 degrees */
        for (own = 1, ptn = topbit >> 1; own <= last; own++, ptn >>= 1) {
            for (bit = 1, you = 0; board[you] != ptn && board[own] >= bit; you++) bit <<= 1;
            if (board[own] > bit) return 0;
            if (board[own] < bit) break;
        }
    }
    return 8;
}

/* Boards with a queen in the top-left corner: rows above bound1 may not use column 1. */
static void corner(int y, int64_t left, int64_t down, int64_t right) {
    int64_t free = mask & ~(left | down | right), bit;
    if (y == last) {
        if (free) c8++;
        return;
    }
    if (y < bound1) free &= ~(int64_t)2;
    while (free) {
        bit = free & -free;
        free ^= bit;
        corner(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

/* Boards with row 0's queen at column bound1 and no corner queen. */
static void side(int y, int64_t left, int64_t down, int64_t right) {
    int64_t free = mask & ~(left | down | right), bit;
    if (y == last) {
        if (free && !(free & lastmask)) {
            board[y] = free;
            switch (rotation_class()) {
                case 8: c8++; break;
                case 4: c4++; break;
                case 2: c2++; break;
            }
        }
        return;
    }
    if (y < bound1) {
        free &= ~sidemask;
    } else if (y == bound2) {
        if (!(down & sidemask)) return;
        if ((down & sidemask) != sidemask) free &= sidemask;
    }
    while (free) {
        bit = free & -free;
        free ^= bit;
        board[y] = bit;
        side(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

int main(int argc, char **argv) {
    int64_t bit;
    n = argc > 1 ? atoi(argv[1]) : 0;
    if (n < 4 || n > 62) {
        fprintf(stderr, "usage: queens_corner N (4 <= N <= 62)\n");
        return 2;
    }
    last = n - 1;
    topbit = (int64_t)1 << last;
    mask = ((int64_t)1 << n) - 1;
    board[0] = 1;
    for (bound1 = 2; bound1 < last; bound1++) {
        board[1] = bit = (int64_t)1 << bound1;
        corner(2, (2 | bit) << 1, 1 | bit, bit >> 1);
    }
    sidemask = lastmask = topbit | 1;
    endbit = topbit >> 1;
    for (bound1 = 1, bound2 = n - 2; bound1 < bound2; bound1++, bound2--) {
        board[0] = bit = (int64_t)1 << bound1;
        side(1, bit << 1, bit, bit >> 1);
        lastmask |= lastmask >> 1 | lastmask << 1;
        endbit >>= 1;
    }
    printf("%lld %lld\n", (long long)(8 * c8 + 4 * c4 + 2 * c2), (long long)(c8 + c4 + c2));
    return 0;
}
