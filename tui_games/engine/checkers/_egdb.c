/* Checkers endgame databases, compiled: the retrograde builder and the probe.
 *
 * The twin of egdb.py (index, values) and egdb_build.py (the builder): the same index, the
 * same algorithm, the same tables byte for byte (tests/engine/test_checkers_egdb.py builds
 * the small classes both ways and compares). The move rules are those of position.py:
 * men step and capture forward, kings both ways, capture compulsory, a capture goes on while
 * it can, a man reaching the far row is crowned and its move ends.
 *
 * Python API:
 *   Tables()                      the classes known so far
 *   Tables.add(cls, buffer)       hold a finished class (a packed table; kept referenced)
 *   Tables.probe(b, w, k, turn)   0 not covered, 1 win, 2 loss, 3 draw (side to move); a
 *                                 class not held is looked up in its colour twin, the
 *                                 board turned round and the other side to move
 *   Tables.build(cls, progress)   -> bytearray: the packed table of cls; every class it
 *                                 depends on must have been added; progress(done, total)
 *                                 is called now and then (an exception there aborts)
 *   Tables.capsule()              PyCapsule "tui_games.engine.checkers._egdb.probe" holding
 *                                 a struct egdb_probe_api (below) for another C module:
 *     typedef struct { int (*probe)(void *self, uint32_t black, uint32_t white,
 *                                    uint32_t kings, int turn); void *self; } egdb_probe_api;
 *   The capsule keeps no reference: hold the Tables object while its capsule is used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 8 /* most pieces of a side (per kind) the class registry spans */
#define V_INVALID 0
#define V_WIN 1
#define V_LOSS 2
#define V_DRAW 3
#define V_OPEN 4 /* build only: not decided yet */

#include "ckmoves.h" /* the move generator, shared with the search core */

static uint64_t BINOM[33][33];
static uint32_t CROWN[2];
static const uint64_t FULL32 = 0xFFFFFFFFu;

static void init_tables(void) {
    ck_init_moves();
    for (int n = 0; n <= 32; n++) {
        BINOM[n][0] = 1;
        for (int k = 1; k <= n; k++) BINOM[n][k] = BINOM[n - 1][k - 1] + (k <= n - 1 ? BINOM[n - 1][k] : 0);
    }
    CROWN[0] = ROW[7]; /* Black is crowned on row 7 */
    CROWN[1] = ROW[0]; /* White on row 0 */
}

/* Square index i -> 31 - i: a 32-bit reversal. */
static uint32_t mirror(uint32_t x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(x);
}

/* -- the index (egdb.py) ---------------------------------------------------------------- */

typedef struct {
    int bm, bk, wm, wk;
    uint64_t r_bm, r_wm, r_bk, r_wk, n; /* digit sizes; n indexes per side to move */
} Cls;

static void cls_init(Cls *c, int bm, int bk, int wm, int wk) {
    int free_ = 32 - bm - wm;
    c->bm = bm; c->bk = bk; c->wm = wm; c->wk = wk;
    c->r_bm = BINOM[28][bm];
    c->r_wm = BINOM[28][wm];
    c->r_bk = BINOM[free_][bk];
    c->r_wk = BINOM[free_ - bk][wk];
    c->n = c->r_bm * c->r_wm * c->r_bk * c->r_wk;
}

static uint64_t colex(uint32_t mask) {
    uint64_t r = 0;
    int k = 1;
    while (mask) {
        r += BINOM[lowbit(mask)][k++];
        mask &= mask - 1;
    }
    return r;
}

static uint64_t colex_squeezed(uint32_t mask, uint32_t occupied) {
    uint64_t r = 0;
    int k = 1;
    while (mask) {
        int i = lowbit(mask);
        r += BINOM[i - popc(occupied & ((1u << i) - 1u))][k++];
        mask &= mask - 1;
    }
    return r;
}

static uint64_t index_of(const Cls *c, uint32_t black, uint32_t white, uint32_t kings) {
    uint32_t bmen = black & ~kings, wmen = white & ~kings, men = bmen | wmen;
    uint32_t bkings = black & kings;
    uint64_t i_bm = colex(bmen), i_wm = colex(mirror(wmen));
    uint64_t i_bk = colex_squeezed(bkings, men), i_wk = colex_squeezed(white & kings, men | bkings);
    return ((i_bm * c->r_wm + i_wm) * c->r_bk + i_bk) * c->r_wk + i_wk;
}

static uint32_t uncolex(uint64_t rank, int k) {
    uint32_t mask = 0;
    for (int j = k; j >= 1; j--) {
        int i = j - 1;
        while (BINOM[i + 1][j] <= rank) i++;
        mask |= 1u << i;
        rank -= BINOM[i][j];
    }
    return mask;
}

static uint32_t unsqueeze(uint32_t squeezed, uint32_t occupied) {
    uint32_t mask = 0;
    int slot = 0;
    for (int i = 0; i < 32 && squeezed >> slot; i++) {
        if (occupied >> i & 1) continue;
        if (squeezed >> slot & 1) mask |= 1u << i;
        slot++;
    }
    return mask;
}

/* 0 for an INVALID index (a Black and a White man on one square). */
static int position_of(const Cls *c, uint64_t index, uint32_t *black, uint32_t *white, uint32_t *kings) {
    uint64_t i_wk = index % c->r_wk; index /= c->r_wk;
    uint64_t i_bk = index % c->r_bk; index /= c->r_bk;
    uint64_t i_wm = index % c->r_wm, i_bm = index / c->r_wm;
    uint32_t bmen = uncolex(i_bm, c->bm), wmen = mirror(uncolex(i_wm, c->wm));
    if (bmen & wmen) return 0;
    uint32_t men = bmen | wmen;
    uint32_t bkings = unsqueeze(uncolex(i_bk, c->bk), men);
    uint32_t wkings = unsqueeze(uncolex(i_wk, c->wk), men | bkings);
    *black = bmen | bkings; *white = wmen | wkings; *kings = bkings | wkings;
    return 1;
}

/* -- the tables ------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Py_buffer views[MAXN + 1][MAXN + 1][MAXN + 1][MAXN + 1];
    char held[MAXN + 1][MAXN + 1][MAXN + 1][MAXN + 1];
} TablesObject;

static int probe_masks(TablesObject *t, uint32_t black, uint32_t white, uint32_t kings, int turn) {
    uint32_t own = turn ? white : black, other = turn ? black : white;
    if (!own) return V_LOSS;
    if (!other) return V_WIN;
    if ((black & white) || (black & ~kings & CROWN[0]) || (white & ~kings & CROWN[1])) return V_INVALID;
    int bm = popc(black & ~kings), bk = popc(black & kings), wm = popc(white & ~kings), wk = popc(white & kings);
    if (bm > MAXN || bk > MAXN || wm > MAXN || wk > MAXN) return V_INVALID;
    if (!t->held[bm][bk][wm][wk]) {
        if (!t->held[wm][wk][bm][bk]) return V_INVALID;
        /* the colour twin: the board turned round, colours swapped, the other to move */
        uint32_t b2 = mirror(white), w2 = mirror(black);
        kings = mirror(kings); black = b2; white = w2; turn ^= 1;
        int m = bm; bm = wm; wm = m;
        int k = bk; bk = wk; wk = k;
    }
    Cls c;
    cls_init(&c, bm, bk, wm, wk);
    uint64_t e = (uint64_t)turn * c.n + index_of(&c, black, white, kings);
    const uint8_t *table = t->views[bm][bk][wm][wk].buf;
    return table[e >> 2] >> ((e & 3) << 1) & 3;
}

static int probe_api(void *self, uint32_t black, uint32_t white, uint32_t kings, int turn) {
    return probe_masks((TablesObject *)self, black, white, kings, turn);
}

typedef struct {
    int (*probe)(void *self, uint32_t black, uint32_t white, uint32_t kings, int turn);
    void *self;
} egdb_probe_api;

/* A child's value (for the opponent, who moves there) as the mover's: LOSS < DRAW < WIN. */
static inline int rank_for_mover(int child_value) {
    return child_value == V_LOSS ? V_WIN : child_value == V_WIN ? V_LOSS : child_value;
}

/* -- the builder ------------------------------------------------------------------------ */

typedef struct {
    uint8_t *val;     /* per entry: V_OPEN, V_WIN, V_LOSS, V_DRAW, V_INVALID */
    uint8_t *count;   /* open entries: the moves not yet known to lose */
    uint32_t *queue;  /* decided wins and losses whose predecessors are still to hear */
    uint64_t head, tail;
} Work;

/* The value of one entry from its moves: captures decide at once; steps that crown look
 * in the class with a king more; steps inside the class are counted. */
static int first_pass(TablesObject *t, const Cls *c, Work *w, uint64_t e, int *missing) {
    int turn = e >= c->n;
    uint32_t black, white, kings;
    if (!position_of(c, e - (turn ? c->n : 0), &black, &white, &kings)) {
        w->val[e] = V_INVALID;
        return 0;
    }
    Move moves[MAX_MOVES];
    int n = generate(black, white, kings, turn, moves);
    if (n > 0 && moves[0].cap) {
        /* captures decide at once: every child has a piece fewer */
        int best = V_LOSS;
        for (int i = 0; i < n && best != V_WIN; i++) {
            const Move *m = &moves[i];
            uint32_t nb = turn ? black ^ m->cap : black ^ m->delta, nw = turn ? white ^ m->delta : white ^ m->cap;
            int v = probe_masks(t, nb, nw, (kings & ~m->cap) ^ m->kdelta, turn ^ 1);
            if (v == V_INVALID) { *missing = 1; return 0; }
            int mine = rank_for_mover(v);
            if (mine == V_WIN) best = V_WIN;
            else if (mine == V_DRAW) best = V_DRAW;
        }
        w->val[e] = (uint8_t)best;
        return best != V_DRAW;
    }
    int inside = 0, draw_out = 0;
    for (int i = 0; i < n; i++) {
        const Move *m = &moves[i];
        if (m->kdelta && m->kdelta != m->delta) { /* a man crowned: the class with a king more */
            uint32_t nb = turn ? black : black ^ m->delta, nw = turn ? white ^ m->delta : white;
            int v = probe_masks(t, nb, nw, kings ^ m->kdelta, turn ^ 1);
            if (v == V_INVALID) { *missing = 1; return 0; }
            if (v == V_LOSS) { w->val[e] = V_WIN; return 1; }
            if (v == V_DRAW) draw_out = 1;
        } else {
            inside++;
        }
    }
    if (inside + draw_out == 0) { w->val[e] = V_LOSS; return 1; }
    w->val[e] = V_OPEN;
    w->count[e] = (uint8_t)(inside + draw_out);
    return 0;
}

/* Tell the predecessors of a decided entry (the positions one step of the other side
 * before it, inside the class) what it is. */
static void propagate(const Cls *c, Work *w, uint64_t e) {
    int turn = e >= c->n, mover = turn ^ 1;
    uint32_t black, white, kings;
    position_of(c, e - (turn ? c->n : 0), &black, &white, &kings);
    int value = w->val[e];
    uint32_t own = mover ? white : black, empty = ~(black | white);
    for (uint32_t m = own; m; m &= m - 1) {
        int at = lowbit(m), king = (kings >> at) & 1;
        /* back along the directions the piece may move: a man came from behind it */
        int d0 = king ? 0 : (mover == 0 ? 0 : 2), d1 = king ? 4 : d0 + 2;
        for (int d = d0; d < d1; d++) {
            int from = STEP[d][at];
            if (from < 0 || !(empty >> from & 1)) continue;
            uint32_t delta = (1u << at) | (1u << from);
            uint32_t pb = mover == 0 ? black ^ delta : black, pw = mover == 1 ? white ^ delta : white;
            uint32_t pk = king ? kings ^ delta : kings;
            uint64_t q = (uint64_t)mover * c->n + index_of(c, pb, pw, pk);
            if (w->val[q] != V_OPEN) continue;
            if (value == V_LOSS) {
                w->val[q] = V_WIN;
                w->queue[w->tail++] = (uint32_t)q;
            } else if (--w->count[q] == 0) {
                w->val[q] = V_LOSS;
                w->queue[w->tail++] = (uint32_t)q;
            }
        }
    }
}

static int report(PyObject *progress, uint64_t done, uint64_t total) {
    if (PyErr_CheckSignals() < 0) return -1;
    if (progress == Py_None) return 0;
    PyObject *r = PyObject_CallFunction(progress, "KK", (unsigned long long)done, (unsigned long long)total);
    if (!r) return -1;
    Py_DECREF(r);
    return 0;
}

static int parse_cls(PyObject *arg, int *bm, int *bk, int *wm, int *wk) {
    if (!PyArg_ParseTuple(arg, "iiii", bm, bk, wm, wk)) return -1;
    if (*bm < 0 || *bk < 0 || *wm < 0 || *wk < 0 || *bm > MAXN || *bk > MAXN || *wm > MAXN || *wk > MAXN ||
        *bm + *bk + *wm + *wk > 2 * MAXN || *bm + *bk == 0 || *wm + *wk == 0) {
        PyErr_SetString(PyExc_ValueError, "bad piece class");
        return -1;
    }
    return 0;
}

static PyObject *Tables_build(TablesObject *self, PyObject *args) {
    PyObject *cls_arg, *progress = Py_None;
    int bm, bk, wm, wk;
    if (!PyArg_ParseTuple(args, "O|O", &cls_arg, &progress)) return NULL;
    if (parse_cls(cls_arg, &bm, &bk, &wm, &wk) < 0) return NULL;
    Cls c;
    cls_init(&c, bm, bk, wm, wk);
    uint64_t entries = 2 * c.n;
    if (entries >= (1ull << 32)) {
        PyErr_SetString(PyExc_ValueError, "class too large for the builder");
        return NULL;
    }
    Work w;
    w.val = malloc(entries);
    w.count = malloc(entries);
    w.queue = malloc(entries * sizeof(uint32_t));
    w.head = w.tail = 0;
    PyObject *out = NULL;
    if (!w.val || !w.count || !w.queue) {
        PyErr_NoMemory();
        goto done;
    }
    /* progress: the first pass counts each entry once, the propagation each decided one */
    uint64_t total = 2 * entries, step = 1u << 18;
    for (uint64_t e = 0; e < entries; e++) {
        int missing = 0;
        if (first_pass(self, &c, &w, e, &missing)) w.queue[w.tail++] = (uint32_t)e;
        if (missing) {
            PyErr_Format(PyExc_LookupError, "class (%d, %d, %d, %d) needs a class that is not held", bm, bk, wm, wk);
            goto done;
        }
        if ((e & (step - 1)) == 0 && report(progress, e, total) < 0) goto done;
    }
    while (w.head < w.tail) {
        propagate(&c, &w, w.queue[w.head++]);
        if ((w.head & (step - 1)) == 0 && report(progress, entries + w.head, total) < 0) goto done;
    }
    out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)((entries + 3) / 4));
    if (!out) goto done;
    uint8_t *packed = (uint8_t *)PyByteArray_AS_STRING(out);
    memset(packed, 0, (entries + 3) / 4);
    for (uint64_t e = 0; e < entries; e++) {
        int v = w.val[e] == V_OPEN ? V_DRAW : w.val[e];
        packed[e >> 2] |= (uint8_t)(v << ((e & 3) << 1));
    }
    if (report(progress, total, total) < 0) Py_CLEAR(out);
done:
    free(w.val);
    free(w.count);
    free(w.queue);
    return out;
}

/* -- the Tables type ---------------------------------------------------------------------- */

static PyObject *Tables_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)args; (void)kw;
    TablesObject *self = (TablesObject *)type->tp_alloc(type, 0);
    return (PyObject *)self; /* tp_alloc zeroes: nothing held */
}

static void Tables_dealloc(TablesObject *self) {
    for (int a = 0; a <= MAXN; a++)
        for (int b = 0; b <= MAXN; b++)
            for (int c = 0; c <= MAXN; c++)
                for (int d = 0; d <= MAXN; d++)
                    if (self->held[a][b][c][d]) PyBuffer_Release(&self->views[a][b][c][d]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Tables_add(TablesObject *self, PyObject *args) {
    PyObject *cls_arg, *buffer;
    int bm, bk, wm, wk;
    if (!PyArg_ParseTuple(args, "OO", &cls_arg, &buffer)) return NULL;
    if (parse_cls(cls_arg, &bm, &bk, &wm, &wk) < 0) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_SIMPLE) < 0) return NULL;
    Cls c;
    cls_init(&c, bm, bk, wm, wk);
    if ((uint64_t)view.len != (2 * c.n + 3) / 4) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "table size does not fit the class");
        return NULL;
    }
    if (self->held[bm][bk][wm][wk]) PyBuffer_Release(&self->views[bm][bk][wm][wk]);
    self->views[bm][bk][wm][wk] = view;
    self->held[bm][bk][wm][wk] = 1;
    Py_RETURN_NONE;
}

static PyObject *Tables_probe(TablesObject *self, PyObject *args) {
    unsigned long long black, white, kings;
    int turn;
    if (!PyArg_ParseTuple(args, "KKKi", &black, &white, &kings, &turn)) return NULL;
    if ((black | white | kings) > FULL32 || (turn != 0 && turn != 1)) return PyLong_FromLong(V_INVALID);
    return PyLong_FromLong(probe_masks(self, (uint32_t)black, (uint32_t)white, (uint32_t)kings, turn));
}

static void capsule_free(PyObject *capsule) {
    free(PyCapsule_GetPointer(capsule, "tui_games.engine.checkers._egdb.probe"));
}

static PyObject *Tables_capsule(TablesObject *self, PyObject *unused) {
    (void)unused;
    egdb_probe_api *api = malloc(sizeof *api);
    if (!api) return PyErr_NoMemory();
    api->probe = probe_api;
    api->self = self;
    PyObject *capsule = PyCapsule_New(api, "tui_games.engine.checkers._egdb.probe", capsule_free);
    if (!capsule) free(api);
    return capsule;
}

static PyMethodDef Tables_methods[] = {
    {"add", (PyCFunction)Tables_add, METH_VARARGS, "add(cls, buffer): hold a finished class's packed table"},
    {"probe", (PyCFunction)Tables_probe, METH_VARARGS, "probe(black, white, kings, turn) -> 0 none, 1 win, 2 loss, 3 draw"},
    {"build", (PyCFunction)Tables_build, METH_VARARGS, "build(cls, progress=None) -> bytearray: the packed table"},
    {"capsule", (PyCFunction)Tables_capsule, METH_NOARGS, "a PyCapsule with the C probe (see the source)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tui_games.engine.checkers._egdb.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Tables_new,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_methods = Tables_methods,
    .tp_doc = "Endgame tables: hold finished classes, build new ones, probe positions.",
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_egdb", "Checkers endgame databases: builder and probe (see egdb.py).", -1, NULL,
};

PyMODINIT_FUNC PyInit__egdb(void) {
    init_tables();
    if (PyType_Ready(&TablesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
