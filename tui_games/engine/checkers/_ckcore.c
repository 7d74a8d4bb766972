/* The checkers search core in C: a line-for-line twin of tui_games/engine/checkers/core.py.
 *
 * The Python module is the reference: the same move generator (checked by perft against
 * position.generate, the source of truth for the rules), the same evaluation (its weights
 * come from evaluation.py through Core(weights=...)), the same node function (PVS, table,
 * killers, history, reductions, futility, late move pruning, ProbCut,
 * capture extension), the same move keys and the same table
 * indexing and replacement, so both cores return the same scores and node counts at a
 * fixed depth (tests/engine/test_checkers_core.py). The Zobrist keys come from position.py.
 *
 * The search releases the GIL and takes it back every `check_every` nodes to call the
 * driver's `check(nodes)`, which reads the stop flag and the CPU-time budget and raises to
 * stop; the exception unwinds the C recursion and reaches the caller unchanged.
 *
 * A search may be traced (the tree inspector's recording, done in Python): begin(tracer=T)
 * and node(..., tnode) with T's handle of the node searched. Each traced node's children are
 * announced to T.enter(parent, move, ply, alpha, beta), which returns the child's handle or
 * None (not traced: the recording's bounds); a child searched again with a wider window goes
 * to T.again(child, alpha, beta); a traced node's value to T.leave(node, value, flag, kind,
 * best, pruned). The trace only observes: a traced search visits the same nodes in the same
 * order as an untraced one and returns the same scores (the GIL is taken for each call, so a
 * trace costs the top plies only, where T stops handing out handles).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#define MAX_PLY 120
#define MAX_MOVES 128
#define WIN 1000000
#define INF (10 * WIN)
#define WIN_BOUND (WIN - 10000)
#define QUIET_LIMIT 80
#define QUIET_FADE 24
#define LMR_DEPTH 3
#define LMR_AFTER 3
/* Selectivity (core.py's doc says why each is sound enough): reverse futility from
 * RFP_DEPTH down, late move pruning from LMP_DEPTH down. */
#define RFP_DEPTH 5
#define RFP_MARGIN 55
#define RFP_LIMIT 2000
#define LMP_DEPTH 4
/* ProbCut: from PC_DEPTH up, where the evaluation clears beta by PC_MARGIN, a search
 * PC_REDUCE plies shallower (at least one) that clears it too is taken as the deep search's
 * cut. */
#define PC_DEPTH 3
#define PC_REDUCE 4
#define PC_MARGIN 16
/* None of it in an ending of SELECT_PIECES pieces or fewer, where a won position is converted
 * by long king manoeuvres that pruning would cut short. */
#define SELECT_PIECES 6
#define F_EXACT 0
#define F_LOWER 1
#define F_UPPER 2
#define NO_DEPTH (-128)
#define DB_WIN 5000
#define DB_MARGIN 1000
/* Scores from DB_LOW to DB_HIGH (and their negatives) are database results: counted from
 * the node in the table, as wins are, so faster conversions score higher. */
#define DB_HIGH (DB_WIN + DB_MARGIN)
#define DB_LOW (DB_WIN - DB_MARGIN - MAX_PLY)

#include "ckmoves.h"

/* -- the evaluation's geometry (computed at import, as bits.py does) --------------------- */

static u32 CONE[2][32];
static int DIST[32][32];
static int zobrist_ready = 0;

static void init_geometry(void) {
    ck_init_moves();
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 32; i++) {
            u32 out = 0, frontier = 1u << i;
            while (frontier) {
                u32 next = 0;
                for (int j = 0; j < 32; j++) {
                    if (!(frontier >> j & 1)) continue;
                    for (int k = 0; k < 2; k++) {
                        int t = STEP[FORWARD[c][k]][j];
                        if (t >= 0 && !(out >> t & 1)) { out |= 1u << t; next |= 1u << t; }
                    }
                }
                frontier = next;
            }
            CONE[c][i] = out;
        }
    for (int a = 0; a < 32; a++)
        for (int b = 0; b < 32; b++) {
            int ra = a / 4, ca = 2 * (a % 4) + (ra % 2 == 0), rb = b / 4, cb = 2 * (b % 4) + (rb % 2 == 0);
            int x = abs(ra - rb), y = abs(ca - cb);
            DIST[a][b] = x > y ? x : y;
        }
}

static u64 perft(u32 b, u32 w, u32 k, int turn, int depth) {
    Move moves[MAX_MOVES];
    if (depth <= 0) return 1;
    int n = generate(b, w, k, turn, moves);
    if (depth == 1) return (u64)n;
    u64 total = 0;
    for (int i = 0; i < n; i++) {
        Move *m = &moves[i];
        u32 nb = turn ? b ^ m->cap : b ^ m->delta, nw = turn ? w ^ m->delta : w ^ m->cap;
        total += perft(nb, nw, (k & ~m->cap) ^ m->kdelta, turn ^ 1, depth - 1);
    }
    return total;
}

/* -- evaluation (evaluation.py's evaluate, with its weights) ------------------------------ */

/* The features, as evaluation.FEATURE_NAMES: material, the two square tables, the per-side
 * features (side_features, Black minus White), then the ones that need both sides. The
 * weights: every feature's opening weight, then every feature's endgame weight. */
enum {
    F_MAN, F_KING, F_MAN_SQ, F_KING_SQ = F_MAN_SQ + 32, F_SIDE = F_KING_SQ + 32,
    N_SIDE = 13, F_HANGING = F_SIDE + N_SIDE, F_DOUBLE_CORNER, F_CHASE, F_TRADE, N_FEATURES,
    N_WEIGHTS = 2 * N_FEATURES
};
#define PHASE 24

/* The pattern tables (evaluation.PATTERN_WINDOWS): eight squares a window, each empty, the
 * side's or the opponent's (3^8 states), an (opening, endgame) pair of int16 per state. A
 * core's weights are N_WEIGHTS ints, then a flag (1: the tables follow), then the tables as
 * int16 from the next int on: evaluate() keeps one pointer to all of it. */
#define N_WINDOWS 13
#define N_STATES 6561
#define N_PATTERN (2 * N_WINDOWS * N_STATES)
#define PATTERN_UNIT 16 /* the tables' unit: 1/16 of the features' */
#define WEIGHT_INTS (N_WEIGHTS + 1 + (N_PATTERN + 1) / 2)
static const int WINDOW_SHIFT[N_WINDOWS] = {0, 4, 8, 12, 16, 20, 24, 0, 2, 8, 10, 16, 18};
static int BASE3[256];

/* evaluation.window_byte: a band's two rows, or a block's eight squares packed. */
static inline u32 band_byte(u32 m, int shift) { return m >> shift & 255; }
static inline u32 block_byte(u32 m, int shift) {
    m = m >> shift & 0x3333u;
    m = (m | m >> 2) & 0x0F0Fu;
    return (m | m >> 4) & 255;
}

#define SQ(s) (1u << ((s) - 1))

static inline int floordiv(int a, int b) {
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}
static u32 LEFT_HALF, HAS_UL, HAS_UR;

static void init_eval_masks(void) {
    for (int x = 0; x < 256; x++) {
        int v = 0, p = 1;
        for (int j = 0; j < 8; j++, p *= 3)
            if (x >> j & 1) v += p;
        BASE3[x] = v;
    }
    LEFT_HALF = 0;
    for (int i = 0; i < 32; i++) {
        int row = i / 4, col = 2 * (i % 4) + (row % 2 == 0);
        if (col < 4) LEFT_HALF |= 1u << i;
    }
    HAS_UL = SHIFT_MASK[0][0] | SHIFT_MASK[0][1];
    HAS_UR = SHIFT_MASK[1][0] | SHIFT_MASK[1][1];
}

/* The board turned round: bit i <-> bit 31 - i. */
static inline u32 turned(u32 x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(x);
}

/* evaluation._side: the features of the side with men om and kings ok, moving down the
 * board as Black, against men pm and kings pk. */
static void side_features(u32 om, u32 ok, u32 pm, u32 pk, int *f) {
    const u32 BACK = SQ(1) | SQ(3), TRIANGLE = SQ(2) | SQ(3) | SQ(7);
    u32 own = om | ok, opp = pm | pk, empty = ~(own | opp);
    u32 back = pm ? om & BACK : 0;
    f[0] = popc(back);
    f[1] = back == BACK;
    f[2] = (om & TRIANGLE) == TRIANGLE;
    f[3] = (om & SQ(28)) && (opp & SQ(32));
    f[4] = f[5] = f[6] = 0;
    for (u32 m = om; m; m &= m - 1) {
        int i = lowbit(m);
        if (!(CONE[0][i] & opp)) {
            int togo = 7 - (i >> 2);
            f[4 + (togo < 3 ? togo : 3) - 1]++;
        }
    }
    f[7] = popc(shift_dir(om, 2) & empty) + popc(shift_dir(om, 3) & empty);
    int king_moves = 0;
    u32 king_free = 0;
    if (ok)
        for (int d = 0; d < 4; d++) {
            king_moves += popc(shift_dir(ok, d) & empty);
            king_free |= shift_dir(empty, d);
        }
    f[8] = king_moves;
    f[9] = popc(ok & ~king_free);
    f[10] = popc(om & ~(shift_dir(empty, 0) | shift_dir(empty, 1)));
    f[11] = popc(om & (shift_dir(own, 3) | ~HAS_UL) & (shift_dir(own, 2) | ~HAS_UR));
    int d = popc(om & LEFT_HALF) - popc(om & ~LEFT_HALF);
    f[12] = d < 0 ? -d : d;
}

/* evaluation._hanging: how many of own (moving down) the opponent could jump. */
static int hanging(u32 own, u32 pm, u32 pk, u32 empty) {
    u32 out = 0;
    for (int d = 0; d < 4; d++) {
        u32 attackers = d < 2 ? pm | pk : pk;
        if (!attackers) continue;
        u32 land = shift_dir(shift_dir(attackers, d) & own, d) & empty;
        out |= shift_dir(land, 3 - d);
    }
    return popc(out & own);
}

static int chase(u32 hunters, u32 prey) {
    if (!prey) return 0;
    int total = 0;
    for (; hunters; hunters &= hunters - 1) {
        int h = lowbit(hunters), best = 8;
        for (u32 p = prey; p; p &= p - 1) {
            int d = DIST[h][lowbit(p)];
            if (d < best) best = d;
        }
        total += best;
    }
    return total;
}

/* A database win's score over DB_WIN, for the side `win` (colour `colour`) that the tables say
 * wins: how far it has got with converting, not how good its position looks. The tables
 * keep the result; this orders the won positions so that the search makes progress towards
 * the next capture or crowning instead of shuffling until the 40-move rule: fewer pieces
 * (an exchange or a capture, the winner's), men crowned and advanced, kings near the loser's
 * pieces. Every term grows only by an irreversible move or by closing in. */
#define CONV_TRADE 100
#define CONV_CROWN 100
#define CONV_ADVANCE 6
#define CONV_CHASE 8
static int conversion(u32 win, u32 lose, u32 kings, int colour) {
    int s = CONV_TRADE * (8 - popc(win | lose)) + CONV_CROWN * popc(win & kings);
    for (u32 p = win & ~kings; p; p &= p - 1) {
        int row = lowbit(p) >> 2;
        s += CONV_ADVANCE * (colour ? 7 - row : row);
    }
    s -= CONV_CHASE * chase(win & kings, lose);
    return s > DB_MARGIN ? DB_MARGIN : s < -DB_MARGIN ? -DB_MARGIN : s;
}

/* -- the network (network.py's forward; its module doc has the arithmetic) ----------------- */

#define NET_INPUTS 128
#define NET_ACT 127
#define NET_SHIFT2 6
#define NET_SHIFT3 10
#define NET_LIMIT 500
#define NET_MAX_H1 256
#define NET_MAX_H2 64
#define NET_MAX_WEIGHT 32767
#define NET_MAX_BIAS (1 << 24)
/* The first layer's bounds: 32 inputs and the bias stay inside 16 bits. */
#define NET_MAX_W1 800
#define NET_MAX_B1 7000
/* Above this many changed squares the first layer is summed afresh (either way the same sums). */
#define NET_INCREMENTAL 12
#if defined(__SSE2__) && !defined(NET_NO_SIMD) /* NET_NO_SIMD: build the plain loops (to test them) */
#include <emmintrin.h>
#define NET_SSE2 1
#endif
/* Forced inline, so that the shipped widths passed as constants unroll the loops. */
#if defined(__GNUC__)
#define NET_INLINE static inline __attribute__((always_inline))
#else
#define NET_INLINE static inline
#endif

/* The first layer's sums for the last position evaluated from one side's view (its four
 * masks): the next one is reached by the rows of the squares that changed, a handful between
 * neighbouring leaves instead of every piece on the board. Integer sums, so the same numbers
 * as summing from scratch (16-bit lanes wrap, and the true sum fits in them). */
typedef struct {
    u32 planes[4];
    int valid;
    int16_t acc[NET_MAX_H1];
} NetCache;

/* The weights in the image's order, in one allocation (mem NULL: no network). */
typedef struct {
    int h1, h2;
    int32_t *mem, *w1, *b1, *w2, *b2, *w3, b3;
    int16_t *w1s, *b1s; /* W1 and B1 in 16 bits (their bounds keep the sums there: they vectorise) */
    /* The second and third layers laid out for multiply-adds of 16-bit pairs: W2 two
     * first-layer units at a time (w2p[(p · h2pad + k) · 2 + i] = W2[2p + i][k]), so one
     * broadcast pair of activations updates four second-layer sums at once and a pair of
     * zero activations (clipped ReLUs are often 0) is skipped whole; then W3 in 16 bits.
     * h2pad rounds h2 up to 8, the padding zero (it adds nothing). All in one allocation. */
    int16_t *w2p, *w3s;
    int32_t *b2p;
    int h2pad;
    NetCache cache[2]; /* per side to move */
} Net;

/* The second and third layers from the clipped first-layer activations c1 (paired: c1[h1]
 * is 0 when h1 is odd), before the final shift. Inlined with the shipped widths as constants
 * (see net_forward) so the compiler keeps the sums in registers. */
NET_INLINE int32_t net_tail(const Net *N, const int16_t *c1, const int pairs, const int h2pad) {
#ifdef NET_SSE2
    /* The same integers as the plain loops below: pmaddwd multiplies 16-bit pairs exactly
     * into 32 bits and every sum stays inside them (read_net's bounds). */
    __m128i acc[NET_MAX_H2 / 4];
    for (int q = 0; q < h2pad / 4; q++) acc[q] = _mm_loadu_si128((const __m128i *)(N->b2p + 4 * q));
    for (int p = 0; p < pairs; p++) {
        uint32_t pair = (uint32_t)(uint16_t)c1[2 * p] | (uint32_t)(uint16_t)c1[2 * p + 1] << 16;
        if (!pair) continue;
        const __m128i x = _mm_set1_epi32((int)pair);
        const __m128i *row = (const __m128i *)(N->w2p + 2 * p * h2pad);
        for (int q = 0; q < h2pad / 4; q++) acc[q] = _mm_add_epi32(acc[q], _mm_madd_epi16(x, _mm_loadu_si128(row + q)));
    }
    /* a2 = clamp(s >> SHIFT2, 0, ACT): a non-positive s shifts to at most 0, and the 16-bit
     * saturation of the pack keeps the order, so clamping after it is the same. */
    const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi16(NET_ACT);
    __m128i sum = zero;
    for (int q = 0; q < h2pad / 8; q++) {
        __m128i v = _mm_packs_epi32(_mm_srai_epi32(acc[2 * q], NET_SHIFT2), _mm_srai_epi32(acc[2 * q + 1], NET_SHIFT2));
        v = _mm_min_epi16(_mm_max_epi16(v, zero), top);
        sum = _mm_add_epi32(sum, _mm_madd_epi16(v, _mm_loadu_si128((const __m128i *)(N->w3s + 8 * q))));
    }
    sum = _mm_add_epi32(sum, _mm_srli_si128(sum, 8));
    sum = _mm_add_epi32(sum, _mm_srli_si128(sum, 4));
    return N->b3 + _mm_cvtsi128_si32(sum);
#else
    int32_t a2[NET_MAX_H2];
    memcpy(a2, N->b2p, sizeof(int32_t) * h2pad);
    for (int p = 0; p < pairs; p++) {
        int32_t x = c1[2 * p], y = c1[2 * p + 1];
        if (!x && !y) continue;
        const int16_t *row = N->w2p + 2 * p * h2pad;
        for (int k = 0; k < h2pad; k++) a2[k] += x * row[2 * k] + y * row[2 * k + 1];
    }
    int32_t out = N->b3;
    for (int k = 0; k < h2pad; k++) {
        int32_t s = a2[k];
        if (s <= 0) continue;
        s >>= NET_SHIFT2;
        out += (s < NET_ACT ? s : NET_ACT) * N->w3s[k];
    }
    return out;
#endif
}

/* The first layer for widths h1: the clipped activations c1 (c1[h1] = 0, the odd unit's
 * partner) of the side whose men om and kings ok move down the board. */
NET_INLINE void net_layer1(Net *N, int view, u32 om, u32 ok, u32 pm, u32 pk, const int h1, int16_t *c1) {
    NetCache *C = &N->cache[view];
    int16_t *a1 = C->acc;
    const u32 planes[4] = {om, ok, pm, pk};
    /* Rows to move from the last position seen from this side: a handful between
     * neighbouring leaves (counted bit by bit: fewer than a popcount call's worth). */
    int changed = 0;
    for (int p = 0; p < 4; p++)
        for (u32 m = C->planes[p] ^ planes[p]; m; m &= m - 1) changed++;
    if (C->valid && changed <= NET_INCREMENTAL) {
        for (int p = 0; p < 4; p++) {
            for (u32 m = C->planes[p] & ~planes[p]; m; m &= m - 1) {
                const int16_t *row = N->w1s + (32 * p + lowbit(m)) * h1;
                for (int j = 0; j < h1; j++) a1[j] = (int16_t)(a1[j] - row[j]);
            }
            for (u32 m = planes[p] & ~C->planes[p]; m; m &= m - 1) {
                const int16_t *row = N->w1s + (32 * p + lowbit(m)) * h1;
                for (int j = 0; j < h1; j++) a1[j] = (int16_t)(a1[j] + row[j]);
            }
        }
    } else {
        memcpy(a1, N->b1s, sizeof(int16_t) * h1);
        for (int p = 0; p < 4; p++) {
            for (u32 m = planes[p]; m; m &= m - 1) {
                const int16_t *row = N->w1s + (32 * p + lowbit(m)) * h1;
                for (int j = 0; j < h1; j++) a1[j] = (int16_t)(a1[j] + row[j]);
            }
        }
        C->valid = 1;
    }
    memcpy(C->planes, planes, sizeof planes);
    for (int j = 0; j < h1; j++) c1[j] = (int16_t)(a1[j] < 0 ? 0 : a1[j] > NET_ACT ? NET_ACT : a1[j]);
    c1[h1] = 0;
}

static inline int net_output(int32_t tail) {
    int32_t out = floordiv(tail, 1 << NET_SHIFT3);
    return out > NET_LIMIT ? NET_LIMIT : out < -NET_LIMIT ? -NET_LIMIT : out;
}

/* net_forward for widths h1 and h2pad. The bounds checked in read_net keep every sum inside
 * 32 bits. */
NET_INLINE int net_forward_w(Net *N, int view, u32 om, u32 ok, u32 pm, u32 pk, const int h1, const int h2pad) {
    int16_t c1[NET_MAX_H1 + 1];
    net_layer1(N, view, om, ok, pm, pk, h1, c1);
    return net_output(net_tail(N, c1, (h1 + 1) >> 1, h2pad));
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(NET_NO_SIMD)
#include <immintrin.h>
#define NET_AVX2 1
/* Chosen at import where the processor has AVX2 (net_avx2). */
static int net_avx2;

/* The widths (128, 32) with 256-bit registers: the first layer's loops vectorise twice as
 * wide, and a pair of activations updates eight second-layer sums per multiply-add. The same
 * integers as net_forward_w: the third layer clamps and multiplies in 32 bits instead of
 * packing to 16, which changes no value (the clamped activations and W3 fit in 16 bits). */
__attribute__((target("avx2"))) static int net_forward_128_avx2(Net *N, int view, u32 om, u32 ok, u32 pm, u32 pk) {
    int16_t c1[128 + 1];
    net_layer1(N, view, om, ok, pm, pk, 128, c1);
    __m256i acc[4];
    for (int q = 0; q < 4; q++) acc[q] = _mm256_loadu_si256((const __m256i *)(N->b2p + 8 * q));
    for (int p = 0; p < 64; p++) {
        uint32_t pair = (uint32_t)(uint16_t)c1[2 * p] | (uint32_t)(uint16_t)c1[2 * p + 1] << 16;
        if (!pair) continue;
        const __m256i x = _mm256_set1_epi32((int)pair);
        const __m256i *row = (const __m256i *)(N->w2p + 2 * p * 32);
        for (int q = 0; q < 4; q++) acc[q] = _mm256_add_epi32(acc[q], _mm256_madd_epi16(x, _mm256_loadu_si256(row + q)));
    }
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi32(NET_ACT);
    __m256i sum = zero;
    for (int q = 0; q < 4; q++) {
        __m256i v = _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(acc[q], NET_SHIFT2), zero), top);
        __m256i w = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(N->w3s + 8 * q)));
        sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(v, w));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_srli_si128(s, 8));
    s = _mm_add_epi32(s, _mm_srli_si128(s, 4));
    return net_output(N->b3 + _mm_cvtsi128_si32(s));
}
#endif

/* The output for the side whose men om and kings ok move down the board (as Black), against
 * men pm and kings pk: the shipped widths (128, 32) compiled apart, other widths (a fit being
 * tried) by the general loops. */
static int net_forward(Net *N, int view, u32 om, u32 ok, u32 pm, u32 pk) {
    if (N->h1 == 128 && N->h2pad == 32) {
#ifdef NET_AVX2
        if (net_avx2) return net_forward_128_avx2(N, view, om, ok, pm, pk);
#endif
        return net_forward_w(N, view, om, ok, pm, pk, 128, 32);
    }
    return net_forward_w(N, view, om, ok, pm, pk, N->h1, N->h2pad);
}

static int evaluate(const int *W, Net *N, u32 black, u32 white, u32 kings, int turn) {
    const int *OP = W, *EN = W + N_FEATURES;
    const u32 DOUBLE = SQ(1) | SQ(5) | SQ(28) | SQ(32);
    u32 bk = black & kings, wk = white & kings, bm = black ^ bk, wm = white ^ wk;
    int nbm = popc(bm), nbk = popc(bk), nwm = popc(wm), nwk = popc(wk);
    int op = OP[F_MAN] * (nbm - nwm) + OP[F_KING] * (nbk - nwk);
    int en = EN[F_MAN] * (nbm - nwm) + EN[F_KING] * (nbk - nwk);
    /* Square tables, from Black's side: White's piece on index i counts as Black's on 31 - i. */
    for (u32 p = bm; p; p &= p - 1) { int i = F_MAN_SQ + lowbit(p); op += OP[i]; en += EN[i]; }
    for (u32 p = wm; p; p &= p - 1) { int i = F_MAN_SQ + 31 - lowbit(p); op -= OP[i]; en -= EN[i]; }
    for (u32 p = bk; p; p &= p - 1) { int i = F_KING_SQ + lowbit(p); op += OP[i]; en += EN[i]; }
    for (u32 p = wk; p; p &= p - 1) { int i = F_KING_SQ + 31 - lowbit(p); op -= OP[i]; en -= EN[i]; }
    int fb[N_SIDE], fw[N_SIDE];
    side_features(bm, bk, wm, wk, fb);
    side_features(turned(wm), turned(wk), turned(bm), turned(bk), fw);
    for (int j = 0; j < N_SIDE; j++) {
        int f = fb[j] - fw[j];
        if (f) { op += f * OP[F_SIDE + j]; en += f * EN[F_SIDE + j]; }
    }
    u32 empty = ~(black | white);
    int g[4];
    g[0] = turn == 0 ? hanging(black, wm, wk, empty)
                     : -hanging(turned(white), turned(bm), turned(bk), turned(empty));
    int lead = 2 * (nbm - nwm) + 3 * (nbk - nwk), pieces = nbm + nbk + nwm + nwk;
    if (lead > 0) {
        g[1] = -popc(wk & DOUBLE);
        g[2] = -chase(bk, white);
        g[3] = (24 - pieces) * (lead < 6 ? lead : 6);
    } else if (lead < 0) {
        g[1] = popc(bk & DOUBLE);
        g[2] = chase(wk, black);
        g[3] = (24 - pieces) * (lead > -6 ? lead : -6);
    } else {
        g[1] = g[2] = g[3] = 0;
    }
    for (int j = 0; j < 4; j++)
        if (g[j]) { op += g[j] * OP[F_HANGING + j]; en += g[j] * EN[F_HANGING + j]; }
    int unit = 1;
    if (W[N_WEIGHTS]) { /* the pattern tables: Black's windows minus White's (the board turned) */
        const int16_t *P = (const int16_t *)(W + N_WEIGHTS + 1);
        unit = PATTERN_UNIT;
        op *= unit;
        en *= unit;
        u32 tb = turned(white), tw = turned(black);
        for (int j = 0; j < 7; j++) {
            const int16_t *T = P + 2 * N_STATES * j;
            int s = WINDOW_SHIFT[j];
            int x = 2 * (BASE3[band_byte(black, s)] + 2 * BASE3[band_byte(white, s)]);
            int y = 2 * (BASE3[band_byte(tb, s)] + 2 * BASE3[band_byte(tw, s)]);
            op += T[x] - T[y];
            en += T[x + 1] - T[y + 1];
        }
        for (int j = 7; j < N_WINDOWS; j++) {
            const int16_t *T = P + 2 * N_STATES * j;
            int s = WINDOW_SHIFT[j];
            int x = 2 * (BASE3[block_byte(black, s)] + 2 * BASE3[block_byte(white, s)]);
            int y = 2 * (BASE3[block_byte(tb, s)] + 2 * BASE3[block_byte(tw, s)]);
            op += T[x] - T[y];
            en += T[x + 1] - T[y + 1];
        }
    }
    /* Blended by the phase; C's division rounds towards zero, as evaluation.blend does. */
    int score = (op * pieces + en * (PHASE - pieces)) / (PHASE * unit);
    if (turn) score = -score;
    if (N->mem != NULL) { /* the network's correction, read from the side to move */
        if (turn == 0) {
            score += net_forward(N, 0, bm, bk, wm, wk);
        } else {
            score += net_forward(N, 1, turned(wm), turned(wk), turned(bm), turned(bk));
        }
    }
    return score;
}

/* -- the search core ---------------------------------------------------------------------- */

/* The compiled endgame probe handed over in a capsule by _egdb (Tables.capsule()). */
#define EGDB_CAPSULE "tui_games.engine.checkers._egdb.probe"
typedef struct {
    int (*probe)(void *self, uint32_t black, uint32_t white, uint32_t kings, int turn);
    void *self;
} egdb_probe_api;

typedef struct {
    u64 key;
    int32_t score;
    uint16_t move;
    int8_t depth;
    uint8_t flag_age; /* flag in bits 0-1, age in bits 2-7 */
} Entry;

/* An evaluation kept with its whole position, so a hit is exact (no key can collide). About
 * a sixth of the search's evaluations are of a position evaluated a moment before (the next
 * iteration's leaves, ProbCut's and PVS's searches again); the network makes them worth
 * keeping. 256 KB: it stays in the cache the memory sits near. */
typedef struct {
    u32 black, white, kings;
    int32_t score_turn; /* the score · 2 + the side to move */
} EvalEntry;
#define EVAL_CACHE (1 << 14)

typedef struct {
    PyObject_HEAD
    Entry *table;
    u64 mask;
    int age;
    int *weights;        /* WEIGHT_INTS: the feature weights, the pattern flag, the tables */
    Net net;             /* the network on top of the evaluation (net.mem NULL: none) */
    EvalEntry evals[EVAL_CACHE]; /* the last evaluations, by key (see cached_evaluate) */
    int32_t history[2 * 1024];
    uint16_t killers[MAX_PLY + 2][2];
    uint16_t pv[MAX_PLY + 2][MAX_PLY + 2];
    int pvlen[MAX_PLY + 2];
    u64 *keys;          /* the game's keys since the last irreversible move, then the path */
    int nkeys, keys_cap, base; /* base: index of the root's key */
    /* counters: nodes, leaves, cutoffs, tt hits, seldepth, horizon */
    long long nodes, leaves, cutoffs, tt_hits, horizon;
    int seldepth;
    long long next_check, check_every;
    PyObject *check;
    PyObject *probe;     /* None, a capsule of _egdb, or probe(b, w, k, turn) -> 1 / 0 / -1 / None */
    egdb_probe_api db;   /* the capsule's probe, called without the GIL (db.probe NULL: none) */
    int probe_pieces, cut_pieces;
    PyThreadState *saved;
    int failed;
    PyObject *tracer;    /* NULL, or the tracer of begin(): see the top of the file */
    PyObject *trace[MAX_PLY + 2]; /* the handle for the node about to be searched at a ply (borrowed) */
} Core;

/* The kinds of node a trace reports (core.py's TRACE_KINDS names them). */
enum { K_SEARCHED, K_END, K_HORIZON, K_TT, K_DATABASE, K_FUTILITY, K_PROBCUT };

static int do_check(Core *c) {
    c->next_check = c->nodes + c->check_every;
    if (c->check == NULL || c->check == Py_None) return 0;
    PyEval_RestoreThread(c->saved);
    PyObject *r = PyObject_CallFunction(c->check, "L", c->nodes);
    int failed = r == NULL;
    Py_XDECREF(r);
    c->saved = PyEval_SaveThread();
    if (failed) c->failed = 1;
    return failed;
}

/* The endgame database's verdict for the side to move (1 win, 0 draw, -1 loss), or 2 for
 * none; 3 when the probe raised (the search stops with its exception). */
static int do_probe(Core *c, u32 b, u32 w, u32 k, int turn) {
    if (c->db.probe != NULL) {
        static const int verdicts[4] = {2, 1, -1, 0}; /* none, win, loss, draw */
        return verdicts[c->db.probe(c->db.self, b, w, k, turn) & 3];
    }
    PyEval_RestoreThread(c->saved);
    PyObject *r = PyObject_CallFunction(c->probe, "IIIi", b, w, k, turn);
    int out = 2;
    if (r == NULL) {
        out = 3;
    } else if (r != Py_None) {
        long v = PyLong_AsLong(r);
        if (v == -1 && PyErr_Occurred()) out = 3;
        else out = v > 0 ? 1 : v < 0 ? -1 : 0;
    }
    Py_XDECREF(r);
    c->saved = PyEval_SaveThread();
    if (out == 3) c->failed = 1;
    return out;
}

static PyObject *move_tuple(const Move *m) {
    PyObject *path = PyTuple_New(m->len);
    if (!path) return NULL;
    for (int j = 0; j < m->len; j++) PyTuple_SET_ITEM(path, j, PyLong_FromLong(m->path[j]));
    return Py_BuildValue("(IIIKNi)", m->delta, m->cap, m->kdelta, (unsigned long long)m->zd, path, m->id);
}

/* T.enter(parent, move, ply, alpha, beta): a new reference to the child's handle, or NULL
 * (not traced; c->failed when the tracer raised). */
static PyObject *trace_enter(Core *c, PyObject *parent, const Move *m, int ply, int alpha, int beta) {
    PyEval_RestoreThread(c->saved);
    PyObject *out = NULL, *move = move_tuple(m);
    if (move) {
        out = PyObject_CallMethod(c->tracer, "enter", "OOiii", parent, move, ply, alpha, beta);
        Py_DECREF(move);
    }
    if (out == NULL) c->failed = 1;
    else if (out == Py_None) Py_CLEAR(out);
    c->saved = PyEval_SaveThread();
    return out;
}

/* A child about to be searched: a traced node's child is announced to the tracer, and its
 * handle (in *ch, kept for a re-search) goes to the child's slot. Nonzero: the tracer raised. */
static int enter_child(Core *c, PyObject *tn, PyObject **ch, const Move *m, int ply, int alpha, int beta) {
    *ch = tn ? trace_enter(c, tn, m, ply, alpha, beta) : NULL;
    c->trace[ply] = *ch;
    return c->failed;
}

static void trace_again(Core *c, PyObject *tn, int alpha, int beta) {
    PyEval_RestoreThread(c->saved);
    PyObject *r = PyObject_CallMethod(c->tracer, "again", "Oii", tn, alpha, beta);
    if (r == NULL) c->failed = 1;
    Py_XDECREF(r);
    c->saved = PyEval_SaveThread();
}

static void trace_release(Core *c, PyObject *tn) {
    PyEval_RestoreThread(c->saved);
    Py_DECREF(tn);
    c->saved = PyEval_SaveThread();
}

/* T.leave(node, value, flag, kind, best, pruned) for a traced node (tn not NULL); the value
 * passes through, so that a return reads `return leave(...)`. */
/* evaluate() through the cache of the last evaluations (the same numbers). */
static inline int cached_evaluate(Core *c, u64 z, u32 b, u32 w, u32 k, int turn) {
    EvalEntry *e = &c->evals[z & (EVAL_CACHE - 1)];
    if (e->black == b && e->white == w && e->kings == k && (e->score_turn & 1) == turn) return e->score_turn >> 1;
    int s = evaluate(c->weights, &c->net, b, w, k, turn);
    *e = (EvalEntry){b, w, k, s * 2 + turn};
    return s;
}

static int leave(Core *c, PyObject *tn, int value, int flag, int kind, const Move *best, const Move *pruned,
                 int npruned) {
    if (tn == NULL) return value;
    PyEval_RestoreThread(c->saved);
    PyObject *b = best ? move_tuple(best) : (Py_INCREF(Py_None), Py_None), *p = PyList_New(npruned), *r = NULL;
    for (int i = 0; p && i < npruned; i++) {
        PyObject *m = move_tuple(&pruned[i]);
        if (!m) { Py_CLEAR(p); break; }
        PyList_SET_ITEM(p, i, m);
    }
    if (b && p) r = PyObject_CallMethod(c->tracer, "leave", "OiiiOO", tn, value, flag, kind, b, p);
    if (r == NULL) c->failed = 1;
    Py_XDECREF(r);
    Py_XDECREF(b);
    Py_XDECREF(p);
    c->saved = PyEval_SaveThread();
    return value;
}

static inline int far(int s) { return s >= WIN_BOUND || s <= -WIN_BOUND; }
/* A database result (only while a database is probed: without one the scores are as ever). */
static inline int db_band(const Core *c, int s) {
    return c->probe_pieces && ((s >= DB_LOW && s <= DB_HIGH) || (s <= -DB_LOW && s >= -DB_HIGH));
}
static inline int plain(const Core *c, int s, int ply) {
    return far(s) || db_band(c, s) ? (s > 0 ? s + ply : s - ply) : s;
}
static inline int rooted(const Core *c, int s, int ply) {
    return far(s) || db_band(c, s) ? (s > 0 ? s - ply : s + ply) : s;
}

static int repeated(Core *c, u64 z, int ply, int quiet) {
    int here = c->base + ply;
    for (int i = here - 2; i >= 0 && i >= here - quiet; i -= 2)
        if (c->keys[i] == z) return 1;
    return 0;
}

/* Late move reductions: one ply, more for later moves deeper down (up to five plies at depth
 * 15+), one more off the PV for a move that has never cut off (no history), one less on the
 * PV and one less for a killer. */
static inline int reduction(int depth, int i, int pv_node, int hist, int killer) {
    int r = 1;
    if (depth >= 5 && i >= 5) r++;
    if (depth >= 8 && i >= 8) r++;
    if (depth >= 11 && i >= 4) r++;
    if (depth >= 15 && i >= 6) r++;
    if (!pv_node && hist == 0 && depth >= 4) r++;
    if (pv_node && r > 1) r--;
    if (killer) r--;
    return r;
}
#define LMP_COUNT(depth) (2 + 2 * (depth))

static int node(Core *c, u32 b, u32 w, u32 k, int turn, u64 z, int depth, int alpha, int beta, int ply, int quiet) {
    /* This node's trace handle, taken from its slot: a search of the same node from inside
     * it (as a shallower look for ordering would be) is not traced. */
    PyObject *tn = c->trace[ply];
    c->trace[ply] = NULL;
    c->nodes++;
    if (c->nodes >= c->next_check && do_check(c)) return 0;
    c->pvlen[ply] = 0;
    if (ply > c->seldepth) c->seldepth = ply;
    if ((quiet >= 4 && repeated(c, z, ply, quiet)) || quiet >= QUIET_LIMIT) {
        c->leaves++;
        c->horizon++;
        return leave(c, tn, 0, F_EXACT, K_END, NULL, NULL, 0);
    }
    /* A side without pieces has lost outright (below): the database is asked the rest,
     * above cut_pieces only at the horizon (see core.py's begin). */
    int pieces = popc(b | w);
    if (c->probe_pieces && b && w &&
        (pieces <= c->cut_pieces || (pieces <= c->probe_pieces && (depth <= 0 || ply >= MAX_PLY)))) {
        int verdict = do_probe(c, b, w, k, turn);
        if (verdict == 3) return 0;
        if (verdict != 2) {
            c->leaves++;
            c->horizon++;
            u32 own = turn ? w : b, opp = turn ? b : w;
            int score = verdict == 0 ? 0
                      : verdict > 0 ? DB_WIN + conversion(own, opp, k, turn) - ply
                                    : -DB_WIN - conversion(opp, own, k, turn ^ 1) + ply;
            return leave(c, tn, score, F_EXACT, K_DATABASE, NULL, NULL, 0);
        }
    }
    u32 own = turn ? w : b, opp = turn ? b : w;
    if ((depth <= 0 || ply >= MAX_PLY) && (ply >= MAX_PLY || !can_capture(own, opp, k, turn))) {
        c->leaves++;
        if (ply < MAX_PLY && !can_step(own, opp, k, turn)) return leave(c, tn, ply - WIN, F_EXACT, K_END, NULL, NULL, 0);
        c->horizon++;
        int score = cached_evaluate(c, z, b, w, k, turn);
        if (quiet > QUIET_FADE) score = floordiv(score * (QUIET_LIMIT - quiet), QUIET_LIMIT - QUIET_FADE);
        if (c->probe_pieces) score = score >= DB_LOW ? DB_LOW - 1 : score <= -DB_LOW ? 1 - DB_LOW : score;
        return leave(c, tn, score, F_EXACT, K_HORIZON, NULL, NULL, 0);
    }
    Move moves[MAX_MOVES];
    int n = generate(b, w, k, turn, moves);
    if (n == 0) {
        c->leaves++;
        return leave(c, tn, ply - WIN, F_EXACT, K_END, NULL, NULL, 0);
    }
    int capture = moves[0].cap != 0;
    if (n == 1 && depth > 1) depth++;
    int alpha0 = alpha;
    Entry *e = &c->table[z & c->mask];
    int tt_move = -1;
    if (e->key == z && e->depth != NO_DEPTH) {
        tt_move = e->move;
        if (e->depth >= depth) {
            int s = rooted(c, e->score, ply), f = e->flag_age & 3;
            if (f == F_EXACT || (f == F_LOWER && s >= beta) || (f == F_UPPER && s <= alpha)) {
                c->tt_hits++;
                if (s > -WIN_BOUND && s < WIN_BOUND) c->horizon++;
                return leave(c, tn, s, f, K_TT, NULL, NULL, 0);
            }
        }
    }
    int pv_node = beta - alpha > 1;
    int selective = !pv_node && !capture && pieces > SELECT_PIECES;
    /* Reverse futility: a quiet position (no capture for either side) far enough above beta
     * near the horizon is not searched on. */
    if (selective && depth <= RFP_DEPTH && beta < RFP_LIMIT && beta > -RFP_LIMIT &&
        quiet <= QUIET_FADE && !can_capture(opp, own, k, turn ^ 1)) {
        int s = cached_evaluate(c, z, b, w, k, turn) - RFP_MARGIN * depth;
        if (s >= beta) {
            c->leaves++;
            c->horizon++;
            return leave(c, tn, s, F_LOWER, K_FUTILITY, NULL, NULL, 0);
        }
    }
    /* ProbCut: off the PV, a shallow search well above beta stands for the deep one (the
     * search of this same node is not traced: see the top of node()). */
    if (selective && depth >= PC_DEPTH && beta < RFP_LIMIT && beta > -RFP_LIMIT) {
        int rb = beta + PC_MARGIN;
        /* The shallow search is paid for only where the evaluation already clears its bound. */
        if (cached_evaluate(c, z, b, w, k, turn) >= rb) {
            int pd = depth - PC_REDUCE > 1 ? depth - PC_REDUCE : 1;
            int s = node(c, b, w, k, turn, z, pd, rb - 1, rb, ply, quiet);
            if (c->failed) return 0;
            c->pvlen[ply] = 0;
            if (s >= rb) return leave(c, tn, s, F_LOWER, K_PROBCUT, NULL, NULL, 0);
            if (e->key == z && e->depth != NO_DEPTH) tt_move = e->move;
        }
    }
    /* Ordering: one integer key per move, larger first, no ties between distinct moves. */
    long long order[MAX_MOVES];
    if (n > 1) {
        uint16_t k1 = c->killers[ply][0], k2 = c->killers[ply][1];
        const int32_t *hist = c->history + turn * 1024;
        for (int i = 0; i < n; i++) {
            uint16_t id = moves[i].id;
            long long key;
            if (capture)
                key = ((long long)popc(moves[i].cap) << 16) | (65535 - id);
            else
                key = ((long long)(id == k1 ? 3 : id == k2 ? 2 : 0) << 50) |
                      ((long long)hist[id & 1023] << 16) | (65535 - id);
            if (id == tt_move) key |= 1LL << 60;
            order[i] = key;
        }
        for (int i = 1; i < n; i++) { /* insertion sort, stable */
            Move m = moves[i];
            long long key = order[i];
            int j = i - 1;
            while (j >= 0 && order[j] < key) {
                order[j + 1] = order[j];
                moves[j + 1] = moves[j];
                j--;
            }
            order[j + 1] = key;
            moves[j + 1] = m;
        }
    }
    int here = c->base + ply;
    if (here >= c->keys_cap) { /* cannot happen: keys_cap leaves room for MAX_PLY */
        return 0;
    }
    c->keys[here] = z;
    int best = -INF;
    uint16_t best_id = 0;
    int best_i = -1, searched = 0; /* the moves searched: those after them were pruned */
    int d1 = depth - 1, nply = ply + 1;
    int reducible = depth >= LMR_DEPTH && !capture;
    int prunable = selective && depth <= LMP_DEPTH;
    Move skipped[MAX_MOVES]; /* the moves late move pruning left out, for a trace */
    int nskipped = 0;
    for (int i = 0; i < n; i++) {
        Move *m = &moves[i];
        u32 nb = turn ? b ^ m->cap : b ^ m->delta, nw = turn ? w ^ m->delta : w ^ m->cap;
        u32 nk = (k & ~m->cap) ^ m->kdelta;
        u64 nz = z ^ m->zd;
        /* The child's table slot (or, at the horizon, its evaluation cache slot) is fetched
         * while this node finishes setting the child up: the search's main cache misses. As
         * early as this, even for a move pruned below: issued after the pruning and reduction
         * decisions (at the child's exact depth) it came too late, 10-20% fewer nodes a second. */
        if (d1 > 0) __builtin_prefetch(&c->table[nz & c->mask]);
        else __builtin_prefetch(&c->evals[nz & (EVAL_CACHE - 1)]);
        int nq = (m->cap || m->kdelta != m->delta) ? 0 : quiet + 1;
        int score;
        PyObject *ch = NULL;
        int crowns = m->kdelta && m->kdelta != m->delta;
        /* A quiet move at the last ply that threatens a capture gets one ply more: the
         * opponent's answer to the threat is searched, not the evaluation's guess at it. */
        int dm = d1 + (d1 == 0 && !m->cap && can_capture(turn ? nw : nb, turn ? nb : nw, nk, turn));
        if (i == 0) {
            if (enter_child(c, tn, &ch, m, nply, -beta, -alpha)) return 0;
            score = -node(c, nb, nw, nk, turn ^ 1, nz, dm, -beta, -alpha, nply, nq);
        } else {
            /* Late move pruning spares a move that leaves the opponent a capture: a shot. */
            if (prunable && i >= LMP_COUNT(depth) && !crowns && best > -WIN_BOUND &&
                !can_capture(turn ? nb : nw, turn ? nw : nb, nk, turn ^ 1)) {
                if (tn) skipped[nskipped++] = *m;
                searched = i + 1;
                continue;
            }
            int reduce = reducible && i >= LMR_AFTER && !crowns
                             ? reduction(depth, i, pv_node, c->history[turn * 1024 + (m->id & 1023)],
                                         m->id == c->killers[ply][0] || m->id == c->killers[ply][1]) : 0;
            if (enter_child(c, tn, &ch, m, nply, -beta, -alpha)) return 0;
            score = -node(c, nb, nw, nk, turn ^ 1, nz, dm - reduce, -alpha - 1, -alpha, nply, nq);
            if (!c->failed && score > alpha && (reduce || score < beta)) {
                if (ch) trace_again(c, ch, -beta, -alpha);
                if (!c->failed) {
                    c->trace[nply] = ch;
                    score = -node(c, nb, nw, nk, turn ^ 1, nz, dm, -beta, -alpha, nply, nq);
                }
            }
        }
        if (ch) trace_release(c, ch);
        if (c->failed) return 0;
        searched = i + 1;
        if (score > best) {
            best = score;
            best_id = m->id;
            best_i = i;
            if (score > alpha) {
                alpha = score;
                c->pv[ply][0] = m->id;
                int len = c->pvlen[nply];
                memcpy(&c->pv[ply][1], c->pv[nply], sizeof(uint16_t) * len);
                c->pvlen[ply] = len + 1;
                if (score >= beta) {
                    c->cutoffs++;
                    if (!capture) {
                        if (c->killers[ply][0] != best_id) {
                            c->killers[ply][1] = c->killers[ply][0];
                            c->killers[ply][0] = best_id;
                        }
                        int32_t *hist = c->history + turn * 1024, bonus = depth * depth;
                        hist[best_id & 1023] += bonus;
                        /* The quiet moves tried before it lose as much (not below zero). */
                        for (int j = 0; j < i; j++) {
                            int32_t *h = &hist[moves[j].id & 1023];
                            *h = *h > bonus ? *h - bonus : 0;
                        }
                    }
                    break;
                }
            }
        }
    }
    int flag = best >= beta ? F_LOWER : best <= alpha0 ? F_UPPER : F_EXACT;
    int old_age = e->flag_age >> 2;
    if (e->key == z || e->depth == NO_DEPTH || old_age != c->age || depth >= e->depth) {
        e->key = z;
        e->score = plain(c, best, ply);
        e->move = best_id;
        e->depth = (int8_t)(depth > 127 ? 127 : depth);
        e->flag_age = (uint8_t)(flag | c->age << 2);
    }
    if (nskipped) { /* a trace's pruned moves: those left out, then those after a cutoff */
        for (int i = searched; i < n; i++) skipped[nskipped++] = moves[i];
        return leave(c, tn, best, flag, K_SEARCHED, best_i >= 0 ? &moves[best_i] : NULL, skipped, nskipped);
    }
    return leave(c, tn, best, flag, K_SEARCHED, best_i >= 0 ? &moves[best_i] : NULL, &moves[searched], n - searched);
}

/* -- Python glue -------------------------------------------------------------------------- */

/* The core holds Python objects (the search's clock check, the probe, the tracer) that hold
 * the engine that holds the core: the collector must see them, or no engine that ever
 * searched would be freed, table and all. */
static int Core_traverse(Core *self, visitproc visit, void *arg) {
    Py_VISIT(self->check);
    Py_VISIT(self->probe);
    Py_VISIT(self->tracer);
    return 0;
}

static int Core_clear_refs(Core *self) {
    Py_CLEAR(self->check);
    Py_CLEAR(self->probe);
    Py_CLEAR(self->tracer);
    return 0;
}

static void Core_dealloc(Core *self) {
    PyObject_GC_UnTrack(self);
    Core_clear_refs(self);
    free(self->table);
    free(self->keys);
    free(self->weights);
    free(self->net.mem);
    free(self->net.w1s);
    free(self->net.b2p);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int read_weights(Core *self, PyObject *weights) {
    PyObject *seq = PySequence_Fast(weights, "weights must be a sequence of ints");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != N_WEIGHTS && n != N_WEIGHTS + N_PATTERN) {
        PyErr_Format(PyExc_ValueError, "expected %d weights (or %d with the pattern tables)", N_WEIGHTS,
                     N_WEIGHTS + N_PATTERN);
        Py_DECREF(seq);
        return -1;
    }
    if (self->weights == NULL) {
        self->weights = calloc(WEIGHT_INTS, sizeof(int));
        if (self->weights == NULL) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    }
    int16_t *P = (int16_t *)(self->weights + N_WEIGHTS + 1);
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        if (i < N_WEIGHTS) {
            self->weights[i] = (int)v;
        } else if (v < -32768 || v > 32767) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "pattern weights must fit in 16 bits");
            return -1;
        } else {
            P[i - N_WEIGHTS] = (int16_t)v;
        }
    }
    self->weights[N_WEIGHTS] = n > N_WEIGHTS;
    Py_DECREF(seq);
    if (self->weights[F_MAN] <= 0) {
        PyErr_SetString(PyExc_ValueError, "the man's weight must be positive");
        return -1;
    }
    return 0;
}


/* net: None, or (hidden1, hidden2, weights) as network.Network holds them (network.check's
 * bounds, checked again here: the C sums rely on them). */
static int read_net(Core *self, PyObject *net) {
    free(self->net.mem);
    free(self->net.w1s);
    free(self->net.b2p);
    self->net.mem = NULL;
    self->net.w1s = NULL;
    self->net.b2p = NULL;
    if (net == Py_None) return 0;
    int h1, h2;
    PyObject *weights;
    if (!PyArg_ParseTuple(net, "iiO", &h1, &h2, &weights)) return -1;
    if (h1 < 1 || h1 > NET_MAX_H1 || h2 < 1 || h2 > NET_MAX_H2) {
        PyErr_SetString(PyExc_ValueError, "network widths out of range");
        return -1;
    }
    Py_ssize_t n = (Py_ssize_t)NET_INPUTS * h1 + h1 + h1 * h2 + h2 + h2 + 1;
    PyObject *seq = PySequence_Fast(weights, "network weights must be a sequence of ints");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "expected %zd network weights", n);
        return -1;
    }
    int32_t *mem = malloc(sizeof(int32_t) * n);
    if (!mem) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    Py_ssize_t b1 = NET_INPUTS * h1, w2 = b1 + h1, b2 = w2 + h1 * h2, w3 = b2 + h2;
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) { free(mem); Py_DECREF(seq); return -1; }
        int bias = (i >= b1 && i < w2) || (i >= b2 && i < w3) || i == n - 1;
        long bound = i < b1 ? NET_MAX_W1 : i < w2 ? NET_MAX_B1 : bias ? NET_MAX_BIAS : NET_MAX_WEIGHT;
        if (v < -bound || v > bound) {
            free(mem);
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "network weight out of range");
            return -1;
        }
        mem[i] = (int32_t)v;
    }
    Py_DECREF(seq);
    int h2pad = (h2 + 7) & ~7, pairs = (h1 + 1) / 2;
    size_t n16 = (size_t)(b1 + h1) + (size_t)2 * pairs * h2pad + h2pad;
    int16_t *w1s = calloc(n16, sizeof(int16_t));
    int32_t *b2p = calloc((size_t)h2pad, sizeof(int32_t));
    if (!w1s || !b2p) { free(mem); free(w1s); free(b2p); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < b1 + h1; i++) w1s[i] = (int16_t)mem[i];
    int16_t *w2p = w1s + b1 + h1, *w3s = w2p + 2 * pairs * h2pad;
    for (int j = 0; j < h1; j++)
        for (int k = 0; k < h2; k++) w2p[((j >> 1) * h2pad + k) * 2 + (j & 1)] = (int16_t)mem[w2 + j * h2 + k];
    for (int k = 0; k < h2; k++) {
        w3s[k] = (int16_t)mem[w3 + k];
        b2p[k] = mem[b2 + k];
    }
    self->net = (Net){h1, h2, mem, mem, mem + b1, mem + w2, mem + b2, mem + w3, mem[n - 1], w1s, w1s + b1,
                      w2p, w3s, b2p, h2pad, {{{0}, 0, {0}}, {{0}, 0, {0}}}};
    return 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"table_bits", "weights", "net", NULL};
    int bits;
    PyObject *weights, *net = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iO|O", names, &bits, &weights, &net)) return -1;
    if (!zobrist_ready) {
        PyErr_SetString(PyExc_RuntimeError, "set_zobrist() first");
        return -1;
    }
    if (bits < 8 || bits > 28) {
        PyErr_SetString(PyExc_ValueError, "table_bits must be from 8 to 28");
        return -1;
    }
    if (read_weights(self, weights) < 0) return -1;
    if (read_net(self, net) < 0) return -1;
    memset(self->evals, 0xFF, sizeof self->evals); /* black and white on every square: never a position */
    free(self->table);
    self->table = malloc(sizeof(Entry) << bits);
    if (!self->table) { PyErr_NoMemory(); return -1; }
    self->mask = ((u64)1 << bits) - 1;
    for (u64 i = 0; i <= self->mask; i++) { self->table[i].key = 0; self->table[i].depth = NO_DEPTH; }
    self->age = 0;
    memset(self->history, 0, sizeof self->history);
    self->check_every = 1024;
    return 0;
}

static PyObject *Core_clear(Core *self, PyObject *unused) {
    for (u64 i = 0; i <= self->mask; i++) { self->table[i].key = 0; self->table[i].depth = NO_DEPTH; }
    memset(self->history, 0, sizeof self->history);
    self->age = 0;
    Py_RETURN_NONE;
}

/* begin(keys, check, check_every, probe=None, probe_pieces=0, cut_pieces=probe_pieces, tracer=None): a new
 * search from the position whose key is keys[-1] (the tracer: see the top of the file). */
static PyObject *Core_begin(Core *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"keys", "check", "check_every", "probe", "probe_pieces", "cut_pieces", "tracer", NULL};
    PyObject *keys, *check, *probe = Py_None, *tracer = Py_None;
    long long every;
    int probe_pieces = 0, cut_pieces = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOL|OiiO", names, &keys, &check, &every, &probe, &probe_pieces,
                                     &cut_pieces, &tracer))
        return NULL;
    egdb_probe_api db = {NULL, NULL};
    if (PyCapsule_CheckExact(probe)) {
        egdb_probe_api *api = PyCapsule_GetPointer(probe, EGDB_CAPSULE);
        if (api == NULL) return NULL;
        db = *api;
    } else if (probe != Py_None && !PyCallable_Check(probe)) {
        PyErr_SetString(PyExc_TypeError, "probe must be a capsule of _egdb, callable or None");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(keys, "keys must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > 4096) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "1 to 4096 keys"); return NULL; }
    free(self->keys);
    self->keys_cap = (int)n + MAX_PLY + 4;
    self->keys = malloc(sizeof(u64) * self->keys_cap);
    if (!self->keys) { Py_DECREF(seq); return PyErr_NoMemory(); }
    for (Py_ssize_t i = 0; i < n; i++) {
        self->keys[i] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
    }
    Py_DECREF(seq);
    self->nkeys = (int)n;
    self->base = (int)n - 1;
    Py_XDECREF(self->check);
    Py_INCREF(check);
    self->check = check;
    Py_XDECREF(self->probe);
    Py_INCREF(probe);
    self->probe = probe;
    Py_CLEAR(self->tracer);
    if (tracer != Py_None) {
        Py_INCREF(tracer);
        self->tracer = tracer;
    }
    self->db = db;
    self->probe_pieces = probe == Py_None ? 0 : (probe_pieces < 0 ? 0 : probe_pieces);
    self->cut_pieces = cut_pieces < 0 || cut_pieces > self->probe_pieces ? self->probe_pieces : cut_pieces;
    self->check_every = every > 0 ? every : 1024;
    self->nodes = self->leaves = self->cutoffs = self->tt_hits = self->horizon = 0;
    self->seldepth = 0;
    self->next_check = self->check_every;
    self->age = (self->age + 1) & 63;
    memset(self->killers, 0, sizeof self->killers);
    for (int i = 0; i < 2048; i++) self->history[i] >>= 2;
    Py_RETURN_NONE;
}

static PyObject *Core_node(Core *self, PyObject *args) {
    unsigned long long z;
    unsigned int b, w, k;
    int turn, depth, alpha, beta, ply, quiet;
    PyObject *tnode = Py_None;
    if (!PyArg_ParseTuple(args, "IIIiKiiiii|O", &b, &w, &k, &turn, &z, &depth, &alpha, &beta, &ply, &quiet, &tnode))
        return NULL;
    if (self->keys == NULL) { PyErr_SetString(PyExc_RuntimeError, "begin() first"); return NULL; }
    if (ply < 1 || ply >= MAX_PLY || turn < 0 || turn > 1 || (b & w)) {
        PyErr_SetString(PyExc_ValueError, "bad node arguments");
        return NULL;
    }
    if (tnode != Py_None && self->tracer == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a traced node needs begin(..., tracer=...)");
        return NULL;
    }
    memset(self->trace, 0, sizeof self->trace);
    self->trace[ply] = tnode == Py_None ? NULL : tnode; /* borrowed: the caller holds it for the call */
    self->failed = 0;
    self->saved = PyEval_SaveThread();
    int score = node(self, b, w, k, turn, z, depth, alpha, beta, ply, quiet);
    PyEval_RestoreThread(self->saved);
    if (self->failed) return NULL;
    return PyLong_FromLong(score);
}

static PyObject *Core_pv(Core *self, PyObject *args) {
    int ply;
    if (!PyArg_ParseTuple(args, "i", &ply)) return NULL;
    if (ply < 0 || ply > MAX_PLY) { PyErr_SetString(PyExc_ValueError, "bad ply"); return NULL; }
    PyObject *out = PyList_New(self->pvlen[ply]);
    if (!out) return NULL;
    for (int i = 0; i < self->pvlen[ply]; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(self->pv[ply][i]));
    return out;
}

static PyObject *Core_counters(Core *self, PyObject *unused) {
    return Py_BuildValue("(LLLLiL)", self->nodes, self->leaves, self->cutoffs, self->tt_hits, self->seldepth,
                         self->horizon);
}

/* entry(key) -> (depth, flag, score, move) or None */
static PyObject *Core_entry(Core *self, PyObject *args) {
    unsigned long long z;
    if (!PyArg_ParseTuple(args, "K", &z)) return NULL;
    Entry *e = &self->table[z & self->mask];
    if (e->key != z || e->depth == NO_DEPTH) Py_RETURN_NONE;
    return Py_BuildValue("(iiii)", e->depth, e->flag_age & 3, e->score, e->move);
}

/* store(key, depth, flag, score, move): the root's entry, written by the driver. */
static PyObject *Core_store(Core *self, PyObject *args) {
    unsigned long long z;
    int depth, flag, score, move;
    if (!PyArg_ParseTuple(args, "Kiiii", &z, &depth, &flag, &score, &move)) return NULL;
    Entry *e = &self->table[z & self->mask];
    e->key = z;
    e->depth = (int8_t)(depth > 127 ? 127 : depth < -127 ? -127 : depth);
    e->flag_age = (uint8_t)((flag & 3) | self->age << 2);
    e->score = score;
    e->move = (uint16_t)move;
    Py_RETURN_NONE;
}

static PyObject *Core_evaluate(Core *self, PyObject *args) {
    unsigned int b, w, k;
    int turn;
    if (!PyArg_ParseTuple(args, "IIIi", &b, &w, &k, &turn)) return NULL;
    return PyLong_FromLong(evaluate(self->weights, &self->net, b, w, k, turn & 1));
}

static PyMethodDef Core_methods[] = {
    {"clear", (PyCFunction)Core_clear, METH_NOARGS, "forget the table and the history"},
    {"begin", (PyCFunction)(void (*)(void))Core_begin, METH_VARARGS | METH_KEYWORDS,
     "begin(keys, check, check_every, probe=None, probe_pieces=0, cut_pieces=probe_pieces, tracer=None)"},
    {"node", (PyCFunction)Core_node, METH_VARARGS, "node(b, w, k, turn, z, depth, alpha, beta, ply, quiet, tnode=None)"},
    {"pv", (PyCFunction)Core_pv, METH_VARARGS, "pv(ply): the move keys of the line found below ply"},
    {"counters", (PyCFunction)Core_counters, METH_NOARGS, "(nodes, leaves, cutoffs, tt_hits, seldepth, horizon)"},
    {"entry", (PyCFunction)Core_entry, METH_VARARGS, "entry(key): (depth, flag, score, move) or None"},
    {"store", (PyCFunction)Core_store, METH_VARARGS, "store(key, depth, flag, score, move)"},
    {"evaluate", (PyCFunction)Core_evaluate, METH_VARARGS, "evaluate(b, w, k, turn)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tui_games.engine.checkers._ckcore.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear_refs,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_doc = "the checkers search core (see core.py, its Python twin)",
};

static PyObject *mod_set_zobrist(PyObject *m, PyObject *args) {
    PyObject *table;
    unsigned long long side;
    if (!PyArg_ParseTuple(args, "OK", &table, &side)) return NULL;
    PyObject *seq = PySequence_Fast(table, "a sequence of 128 keys");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 128) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "128 keys"); return NULL; }
    for (int i = 0; i < 128; i++) {
        ZOB[i / 64][(i / 32) % 2][i % 32] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, i));
    }
    Py_DECREF(seq);
    if (PyErr_Occurred()) return NULL;
    Z_WHITE = side;
    zobrist_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *mod_generate(PyObject *m, PyObject *args) {
    unsigned int b, w, k;
    int turn;
    if (!PyArg_ParseTuple(args, "IIIi", &b, &w, &k, &turn)) return NULL;
    if (b & w) { PyErr_SetString(PyExc_ValueError, "overlapping masks"); return NULL; }
    Move moves[MAX_MOVES];
    int n = generate(b, w, k, turn & 1, moves);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *path = PyTuple_New(moves[i].len);
        for (int j = 0; j < moves[i].len; j++) PyTuple_SET_ITEM(path, j, PyLong_FromLong(moves[i].path[j]));
        PyList_SET_ITEM(out, i, Py_BuildValue("(IIIKNi)", moves[i].delta, moves[i].cap, moves[i].kdelta,
                                              (unsigned long long)moves[i].zd, path, moves[i].id));
    }
    return out;
}

static PyObject *mod_perft(PyObject *m, PyObject *args) {
    unsigned int b, w, k;
    int turn, depth;
    if (!PyArg_ParseTuple(args, "IIIii", &b, &w, &k, &turn, &depth)) return NULL;
    if (b & w || depth > 20) { PyErr_SetString(PyExc_ValueError, "bad perft arguments"); return NULL; }
    u64 r;
    Py_BEGIN_ALLOW_THREADS
    r = perft(b, w, k, turn & 1, depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(r);
}

/* use_avx2(flag): whether the (128, 32) network takes the AVX2 path, for the tests that
 * check both paths against the Python twin; it stays off where the processor lacks AVX2. */
static PyObject *mod_use_avx2(PyObject *self, PyObject *args) {
    int flag;
    if (!PyArg_ParseTuple(args, "p", &flag)) return NULL;
#ifdef NET_AVX2
    net_avx2 = flag && __builtin_cpu_supports("avx2");
    return PyBool_FromLong(net_avx2);
#else
    (void)flag;
    Py_RETURN_FALSE;
#endif
}

/* -- random playouts for Monte Carlo tree search (twin: position.python_playout) --------------- */

/* splitmix64 (Steele, Lea & Flood): the Python twin draws the same numbers. */
static u64 splitmix_next(u64 *state) {
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Paths compared as Python compares tuples: square by square, a prefix before the longer path. */
static int path_before(const Move *a, const Move *b) {
    int n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->path, b->path, (size_t)n);
    return c < 0 || (c == 0 && a->len < b->len);
}

#define PLAYOUT_QUIET_LIMIT 80 /* position.QUIET_LIMIT: the 40-move rule */

/* playout(b, w, k, turn, quiet, seed, max_plies): +1 / -1 / 0 for the side to move of a random
 * game; the move each ply is the (z % n)-th legal move in path order, as the twin picks it. */
static PyObject *mod_playout(PyObject *m, PyObject *args) {
    unsigned int b, w, k;
    int turn, quiet, max_plies;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "IIIiiKi", &b, &w, &k, &turn, &quiet, &seed, &max_plies)) return NULL;
    if (b & w) { PyErr_SetString(PyExc_ValueError, "overlapping masks"); return NULL; }
    u64 state = seed;
    turn &= 1;
    Move moves[MAX_MOVES];
    for (int plies = 0;; plies++) {
        int n = generate(b, w, k, turn, moves);
        if (n == 0) return PyLong_FromLong(plies % 2 == 0 ? -1 : 1);
        if (quiet >= PLAYOUT_QUIET_LIMIT || plies >= max_plies) return PyLong_FromLong(0);
        int rank = (int)(splitmix_next(&state) % (u64)n);
        /* The rank-th move in path order: the one with exactly rank moves before it. */
        const Move *mv = &moves[0];
        if (n > 1) {
            for (int i = 0; i < n; i++) {
                int before = 0;
                for (int j = 0; j < n; j++) before += path_before(&moves[j], &moves[i]);
                if (before == rank) { mv = &moves[i]; break; }
            }
        }
        if (turn == 0) { b ^= mv->delta; w ^= mv->cap; } else { w ^= mv->delta; b ^= mv->cap; }
        k = (k & ~mv->cap) ^ mv->kdelta;
        quiet = (mv->cap || mv->kdelta != mv->delta) ? 0 : quiet + 1;
        turn ^= 1;
    }
}

static PyMethodDef mod_methods[] = {
    {"use_avx2", mod_use_avx2, METH_VARARGS, "use_avx2(flag): the (128, 32) network's AVX2 path on or off; returns whether it is on"},
    {"set_zobrist", mod_set_zobrist, METH_VARARGS, "set_zobrist(keys128, white_to_move)"},
    {"generate", mod_generate, METH_VARARGS, "generate(b, w, k, turn): [(delta, cap, kdelta, zd, path, key)]"},
    {"perft", mod_perft, METH_VARARGS, "perft(b, w, k, turn, depth)"},
    {"playout", mod_playout, METH_VARARGS,
     "playout(b, w, k, turn, quiet, seed, max_plies): +1/-1/0 for the side to move of a random game"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_ckcore", "the checkers search core in C", -1,
                                    mod_methods};

PyMODINIT_FUNC PyInit__ckcore(void) {
    init_geometry();
    init_eval_masks();
#ifdef NET_AVX2
    __builtin_cpu_init();
    net_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moddef);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) return NULL;
    PyModule_AddIntConstant(m, "N_WEIGHTS", N_WEIGHTS);
    PyModule_AddIntConstant(m, "MAX_PLY", MAX_PLY);
    return m;
}
