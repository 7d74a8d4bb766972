/* THE move generator of the compiled checkers code, shared by the search core (_ckcore.c)
 * and the endgame database builder (_egdb.c), which both include this file: bitboard
 * geometry, move generation with multi-jumps and compulsory capture (a man that reaches
 * the crowning row ends its move there), and the capture/step tests. Its results are
 * position.generate's (the rules' source of truth), move for move: checked by perft and by
 * tests/engine/test_checkers_core.py, and through the databases' byte-identical builds.
 *
 * Squares are indexes 0-31 (PDN square - 1), Black at the top (rows 0-7), moving down.
 * Call ck_init_moves() once before anything else here.
 */
#ifndef TUI_GAMES_CKMOVES_H
#define TUI_GAMES_CKMOVES_H

#include <stdint.h>
#include <string.h>

#ifndef MAX_MOVES
#define MAX_MOVES 128
#endif

typedef uint32_t u32;
typedef uint64_t u64;

typedef struct {
    u32 delta, cap, kdelta;
    u64 zd;
    uint16_t id;
    uint8_t len;
    uint8_t path[14];
} Move;

/* -- board geometry (computed at import, as bits.py does) ------------------------------- */

static int STEP[4][32];                 /* UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT */
static const int FORWARD[2][2] = {{2, 3}, {0, 1}};
static u32 SHIFT_MASK[4][2];            /* per direction, the masks of the two shifts */
static int SHIFT_BY[4][2];              /* the signed shift of each */
static u32 ROW[8];
static u64 ZOB[2][2][32];               /* [colour][man/king][index]: set by _ckcore from position.py
                                           (zero in _egdb, which needs no keys) */
static u64 Z_WHITE;

static int square_index(int row, int col) {
    if (row < 0 || row > 7 || col < 0 || col > 7 || ((row + col) & 1) == 0) return -1;
    return row * 4 + col / 2;
}

static void ck_init_moves(void) {
    static const int dr[4] = {-1, -1, 1, 1}, dc[4] = {-1, 1, -1, 1};
    for (int i = 0; i < 32; i++) {
        int row = i / 4, col = 2 * (i % 4) + (row % 2 == 0 ? 1 : 0);
        for (int d = 0; d < 4; d++) STEP[d][i] = square_index(row + dr[d], col + dc[d]);
    }
    for (int d = 0; d < 4; d++) {
        int n = 0;
        SHIFT_BY[d][0] = SHIFT_BY[d][1] = 0;
        SHIFT_MASK[d][0] = SHIFT_MASK[d][1] = 0;
        for (int i = 0; i < 32; i++) {
            int t = STEP[d][i];
            if (t < 0) continue;
            int s = t - i, k;
            for (k = 0; k < n; k++) if (SHIFT_BY[d][k] == s) break;
            if (k == n) { SHIFT_BY[d][n++] = s; }
            SHIFT_MASK[d][k] |= 1u << i;
        }
    }
    for (int r = 0; r < 8; r++) ROW[r] = 0xFu << (4 * r);
}

static inline u32 shift_dir(u32 m, int d) {
    u32 out = 0;
    for (int k = 0; k < 2; k++) {
        int s = SHIFT_BY[d][k];
        u32 part = m & SHIFT_MASK[d][k];
        out |= s > 0 ? part << s : part >> -s;
    }
    return out;
}

/* Without the popcnt instruction (a build for any x86-64), __builtin_popcount is a call into
 * libgcc that showed as ~5% of a search's time; the inline bit count costs a dozen plain
 * instructions and no call. */
#if defined(__POPCNT__) || defined(__aarch64__)
static inline int popc(u32 x) { return __builtin_popcount(x); }
#else
static inline int popc(u32 x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}
#endif
static inline int lowbit(u32 x) { return __builtin_ctz(x); }

/* The move key: from | to << 5 | 6 bits of the captured mask (see core.move_key). */
static inline uint16_t move_key(int from, int to, u32 cap) {
    return (uint16_t)(from | to << 5 | (((u32)(cap * 0x9E3779B1u)) >> 26) << 10);
}

/* -- move generation ---------------------------------------------------------------------- */

typedef struct {
    Move *moves;
    int n;
    int colour, start;
    u32 kings, crown;
    int king;
} CapCtx;

static void emit_capture(CapCtx *c, int end, const uint8_t *path, int len, u32 cap, u64 zcap, int crowned) {
    if (c->n >= MAX_MOVES) return; /* more capture paths than any real position has */
    Move *m = &c->moves[c->n++];
    u32 s = 1u << c->start, e = 1u << end;
    m->delta = s ^ e;
    m->cap = cap;
    if (c->king) {
        m->kdelta = m->delta;
        m->zd = Z_WHITE ^ ZOB[c->colour][1][c->start] ^ ZOB[c->colour][1][end] ^ zcap;
    } else if (crowned) {
        m->kdelta = e;
        m->zd = Z_WHITE ^ ZOB[c->colour][0][c->start] ^ ZOB[c->colour][1][end] ^ zcap;
    } else {
        m->kdelta = 0;
        m->zd = Z_WHITE ^ ZOB[c->colour][0][c->start] ^ ZOB[c->colour][0][end] ^ zcap;
    }
    m->id = move_key(c->start, end, cap);
    m->len = (uint8_t)len;
    memcpy(m->path, path, len);
}

static void extend(CapCtx *c, int at, uint8_t *path, int len, u32 opp, u32 empty, u32 cap, u64 zcap) {
    int more = 0;
    int ndir = c->king ? 4 : 2;
    for (int k = 0; k < ndir; k++) {
        int d = c->king ? k : FORWARD[c->colour][k];
        int over = STEP[d][at];
        if (over < 0) continue;
        int land = STEP[d][over];
        if (land < 0) continue;
        u32 ob = 1u << over, lb = 1u << land;
        if (!(opp & ob) || !(empty & lb)) continue;
        more = 1;
        u64 z = zcap ^ ZOB[1 - c->colour][(c->kings & ob) ? 1 : 0][over];
        path[len] = (uint8_t)(land + 1);
        if (!c->king && (lb & c->crown))
            emit_capture(c, land, path, len + 1, cap | ob, z, 1);
        else
            extend(c, land, path, len + 1, opp ^ ob, empty, cap | ob, z);
        if (c->n >= MAX_MOVES) return;
    }
    if (!more && len > 1) emit_capture(c, at, path, len, cap, zcap, 0);
}

static inline int can_capture(u32 own, u32 opp, u32 kings, int colour) {
    u32 empty = ~(own | opp);
    u32 men = own & ~kings, ks = own & kings;
    for (int k = 0; k < 2; k++) {
        int d = FORWARD[colour][k];
        if (shift_dir(shift_dir(own, d) & opp, d) & empty) return 1;
    }
    if (ks) {
        for (int k = 0; k < 2; k++) {
            int d = FORWARD[1 - colour][k];
            if (shift_dir(shift_dir(ks, d) & opp, d) & empty) return 1;
        }
    }
    (void)men;
    return 0;
}

static inline int can_step(u32 own, u32 opp, u32 kings, int colour) {
    u32 empty = ~(own | opp);
    for (int k = 0; k < 2; k++)
        if (shift_dir(own, FORWARD[colour][k]) & empty) return 1;
    u32 ks = own & kings;
    if (ks)
        for (int k = 0; k < 2; k++)
            if (shift_dir(ks, FORWARD[1 - colour][k]) & empty) return 1;
    return 0;
}

static int generate(u32 black, u32 white, u32 kings, int turn, Move *moves) {
    u32 own = turn ? white : black, opp = turn ? black : white;
    u32 empty = ~(black | white);
    u32 men = own & ~kings, ks = own & kings;
    int n = 0;
    if (can_capture(own, opp, kings, turn)) {
        CapCtx c;
        uint8_t path[16];
        c.moves = moves; c.n = 0; c.colour = turn; c.kings = kings; c.crown = turn ? ROW[0] : ROW[7];
        for (u32 p = own; p; p &= p - 1) {
            int i = lowbit(p);
            c.start = i;
            c.king = (ks >> i) & 1;
            path[0] = (uint8_t)(i + 1);
            extend(&c, i, path, 1, opp, empty | (1u << i), 0, 0);
        }
        return c.n;
    }
    for (int kind = 0; kind < 2; kind++) {
        u32 pieces = kind ? ks : men;
        if (!pieces) continue;
        int ndir = kind ? 4 : 2;
        for (int k = 0; k < ndir; k++) {
            int d = kind ? k : FORWARD[turn][k];
            for (int h = 0; h < 2; h++) {
                int s = SHIFT_BY[d][h];
                u32 part = pieces & SHIFT_MASK[d][h];
                u32 t = (s > 0 ? part << s : part >> -s) & empty;
                for (; t; t &= t - 1) {
                    int to = lowbit(t), from = to - s;
                    Move *m = &moves[n++];
                    u32 f = 1u << from, tb = 1u << to;
                    m->delta = f | tb;
                    m->cap = 0;
                    if (kind) {
                        m->kdelta = m->delta;
                        m->zd = Z_WHITE ^ ZOB[turn][1][from] ^ ZOB[turn][1][to];
                    } else if (tb & (turn ? ROW[0] : ROW[7])) {
                        m->kdelta = tb;
                        m->zd = Z_WHITE ^ ZOB[turn][0][from] ^ ZOB[turn][1][to];
                    } else {
                        m->kdelta = 0;
                        m->zd = Z_WHITE ^ ZOB[turn][0][from] ^ ZOB[turn][0][to];
                    }
                    m->id = move_key(from, to, 0);
                    m->len = 2;
                    m->path[0] = (uint8_t)(from + 1);
                    m->path[1] = (uint8_t)(to + 1);
                }
            }
        }
    }
    return n;
}

#endif /* TUI_GAMES_CKMOVES_H */
