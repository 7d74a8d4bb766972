/* The Connect-4 solver's node function in C: the same search as _make_negamax in
 * solver.py, node for node.
 *
 * solver.py is the reference and the fallback; this file must stay a line-by-line
 * translation of its negamax so that both give the same scores and the same node counts
 * (tests/engine/test_connect4_compiled.py checks it on every shipped test set). Python ints become
 * uint64_t: every mask lies below bit 49, the table's stamped keys below bit 57, and a slot
 * (key << 7 | value) below bit 64. Left shifts that run past bit 63 lose only bits that the
 * final "& BOARD" (bits below 48) would drop anyway.
 *
 * Two differences that do not change any result:
 *  - the mover's threat cells after a move are computed from scratch (completing_cells of
 *    the new discs), where Python adds the new ones from precomputed tables to the old;
 *  - the search runs with the GIL released, taking it back at every stop check (the same
 *    Python callable, every CHECK_MASK + 1 nodes), so the interface stays responsive.
 *
 * Layout (as bits.py): bit 7 * col + row, row 0 at the bottom, bit 6 of a column always 0.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;

#define COLUMNS 7
#define ROWS 6
#define STRIDE 7
#define CELLS 42
#define BOTTOM 0x0040810204081ULL /* bit 7 * col of every column */
#define BOARD (BOTTOM * 63ULL)
/* Table slots: 1..63 upper bounds (score + 32), 64..127 lower bounds (score + 96). */
#define UPPER 32
#define LOWER 96
#define SPLIT 64
#define RECORD 5

static const int CENTRE_ORDER[COLUMNS] = {3, 2, 4, 1, 5, 0, 6};
static u64 ORDER_MASK[COLUMNS];
/* The book's key of one column, by first + mask of that column (see book.py). */
static uint32_t CODE[128];
static int CODE_LENGTH[128];

#if defined(__GNUC__) || defined(__clang__)
#define popcount(x) __builtin_popcountll(x)
#else
static inline int popcount(u64 x)
{
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}
#endif

static inline u64 completing_cells(u64 x)
{
    u64 r = (x << 1) & (x << 2) & (x << 3);
    static const int shifts[3] = {STRIDE, STRIDE - 1, STRIDE + 1};
    for (int i = 0; i < 3; i++) {
        int s = shifts[i];
        u64 p = (x << s) & (x << (2 * s));
        r |= p & ((x << (3 * s)) | (x >> s));
        p = (x >> s) & (x >> (2 * s));
        r |= p & ((x << s) | (x >> (3 * s)));
    }
    return r & BOARD;
}

typedef struct {
    PyObject_HEAD
    Py_buffer slots;
    int has_slots;
    u64 size;
    u64 stamp;
    Py_buffer book;
    int has_book;
    Py_ssize_t book_count;
    int book_discs;
    PyObject *check;
    u64 check_mask;
    u64 nodes, cutoffs, hits, booked;
    int deepest;
    int failed;               /* the check raised: unwind */
    PyThreadState *thread;    /* saved while the GIL is released */
} Search;

/* -- the opening book ---------------------------------------------------------------------- */

static int32_t book_key(u64 first, u64 mask, int mirror)
{
    u64 x = first + mask;
    uint32_t key = 0;
    for (int i = 0; i < COLUMNS; i++) {
        int col = mirror ? COLUMNS - 1 - i : i;
        int index = (int)((x >> (col * STRIDE)) & 127);
        key = (uint32_t)((key << CODE_LENGTH[index]) | CODE[index]);
    }
    key <<= 1;
    return (int32_t)key;
}

static int book_find(const Search *s, int32_t key, int *value)
{
    const unsigned char *data = (const unsigned char *)s->book.buf;
    Py_ssize_t lo = 0, hi = s->book_count;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) >> 1;
        const unsigned char *p = data + mid * RECORD;
        int32_t k = (int32_t)(((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3]);
        if (k < key) {
            lo = mid + 1;
        } else if (k > key) {
            hi = mid;
        } else {
            *value = (signed char)p[4];
            return 1;
        }
    }
    return 0;
}

/* book.to_score: the stored value as Pons' score for the first player; 0 if not a value. */
static int to_score(int value, int *score)
{
    if (value == 0) {
        *score = 0;
        return 1;
    }
    if (value >= 71 && value <= 97 && (value & 1)) {
        *score = (value - 69) / 2;
        return 1;
    }
    if (value >= -98 && value <= -70 && !(value & 1)) {
        *score = (value + 68) / 2;
        return 1;
    }
    return 0;
}

/* OpeningBook.score for the side to move holding cur (the first player with an even count). */
static int book_score(const Search *s, u64 cur, u64 mask, int n, int *score)
{
    u64 first = (n & 1) ? (cur ^ mask) : cur;
    int value, found;
    found = book_find(s, book_key(first, mask, 0), &value);
    if (!found)
        found = book_find(s, book_key(first, mask, 1), &value);
    if (!found || !to_score(value, score))
        return 0;
    if (n & 1)
        *score = -*score;
    return 1;
}

/* -- the search ------------------------------------------------------------------------------ */

static int check_now(Search *s)
{
    PyEval_RestoreThread(s->thread);
    PyObject *result = PyObject_CallFunction(s->check, "KKK", (unsigned long long)s->nodes,
                                             (unsigned long long)s->cutoffs, (unsigned long long)s->hits);
    int ok = result != NULL;
    Py_XDECREF(result);
    s->thread = PyEval_SaveThread();
    if (!ok)
        s->failed = 1;
    return ok;
}

static int negamax(Search *s, u64 cur, u64 mask, u64 opp_w, int n, int alpha, int beta)
{
    u64 *slots = (u64 *)s->slots.buf;
    s->nodes++;
    if (!(s->nodes & s->check_mask)) {
        if (!check_now(s))
            return 0;
        if (n > s->deepest)
            s->deepest = n;
    }
    u64 possible = (mask + BOTTOM) & BOARD;
    u64 opp_win = opp_w & ~mask;
    u64 forced = possible & opp_win;
    if (forced) {
        if (forced & (forced - 1))
            return -((42 - n) >> 1);
        possible = forced;
    }
    possible &= ~(opp_win >> 1);
    if (!possible)
        return -((42 - n) >> 1);
    if (n == s->book_discs) {
        int known;
        if (book_score(s, cur, mask, n, &known)) {
            s->booked++;
            return known;
        }
    }
    if (n >= 40)
        return 0;
    int v = -((40 - n) >> 1);
    if (alpha < v) {
        alpha = v;
        if (alpha >= beta)
            return alpha;
    }
    v = (41 - n) >> 1;
    if (beta > v) {
        beta = v;
        if (alpha >= beta)
            return beta;
    }
    u64 key = cur + mask + s->stamp;
    u64 index = key % s->size;
    u64 e = slots[index];
    if ((e >> 7) == key) {
        v = (int)(e & 127);
        if (v) {
            s->hits++;
            if (v >= SPLIT) {
                v -= LOWER;
                if (alpha < v) {
                    alpha = v;
                    if (alpha >= beta)
                        return alpha;
                }
            } else {
                v -= UPPER;
                if (beta > v) {
                    beta = v;
                    if (alpha >= beta)
                        return beta;
                }
            }
        }
    }
    u64 opp = cur ^ mask;
    int score;
    if (!(possible & (possible - 1))) {
        /* One move: nothing to order. */
        score = -negamax(s, opp, mask | possible, completing_cells(cur | possible), n + 1, -beta, -alpha);
        if (s->failed)
            return 0;
        if (score >= beta) {
            s->cutoffs++;
            slots[index] = key << 7 | (u64)(score + LOWER);
            return score;
        }
        if (score > alpha)
            alpha = score;
        slots[index] = key << 7 | (u64)(alpha + UPPER);
        return alpha;
    }
    u64 empty = BOARD & ~mask;
    u64 ms[COLUMNS], ws[COLUMNS];
    int keys[COLUMNS];
    int count = 0;
    for (int i = 0; i < COLUMNS; i++) {
        u64 m = possible & ORDER_MASK[i];
        if (m) {
            u64 w = completing_cells(cur | m);
            ms[i] = m;
            ws[i] = w;
            /* Insertion sort, largest first, as Python's keys.sort(reverse=True). */
            int k = popcount(w & empty) << 3 | (7 - i);
            int j = count++;
            while (j > 0 && keys[j - 1] < k) {
                keys[j] = keys[j - 1];
                j--;
            }
            keys[j] = k;
        }
    }
    for (int j = 0; j < count; j++) {
        int i = 7 - (keys[j] & 7);
        score = -negamax(s, opp, mask | ms[i], ws[i], n + 1, -beta, -alpha);
        if (s->failed)
            return 0;
        if (score >= beta) {
            s->cutoffs++;
            slots[index] = key << 7 | (u64)(score + LOWER);
            return score;
        }
        if (score > alpha)
            alpha = score;
    }
    slots[index] = key << 7 | (u64)(alpha + UPPER);
    return alpha;
}

/* -- the Python type ---------------------------------------------------------------------------- */

/* The search holds its run's check, a method of the run that holds the search: the
 * collector must see it, or no solver that ever solved would be freed, table and all. */
static int Search_traverse(Search *self, visitproc visit, void *arg)
{
    Py_VISIT(self->check);
    return 0;
}

static int Search_clear(Search *self)
{
    Py_CLEAR(self->check);
    return 0;
}

static void Search_dealloc(Search *self)
{
    PyObject_GC_UnTrack(self);
    if (self->has_slots)
        PyBuffer_Release(&self->slots);
    if (self->has_book)
        PyBuffer_Release(&self->book);
    Search_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Search_init(Search *self, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"slots", "size", "stamp", "book", "book_discs", "check", "check_mask", NULL};
    PyObject *slots, *book, *check;
    unsigned long long size, stamp, check_mask;
    int book_discs;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OKKOiOK", names, &slots, &size, &stamp, &book, &book_discs,
                                     &check, &check_mask))
        return -1;
    if (!PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable");
        return -1;
    }
    if (PyObject_GetBuffer(slots, &self->slots, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    self->has_slots = 1;
    if (size < 1 || self->slots.len != (Py_ssize_t)(size * sizeof(u64))) {
        PyErr_SetString(PyExc_ValueError, "slots must hold size 8-byte slots");
        return -1;
    }
    if (book != Py_None) {
        if (PyObject_GetBuffer(book, &self->book, PyBUF_C_CONTIGUOUS) < 0)
            return -1;
        self->has_book = 1;
        self->book_count = self->book.len / RECORD;
        self->book_discs = book_discs;
    } else {
        self->book_discs = -1;
    }
    Py_INCREF(check);
    Py_XSETREF(self->check, check);
    self->size = size;
    self->stamp = stamp;
    self->check_mask = check_mask;
    return 0;
}

static PyObject *Search_negamax(Search *self, PyObject *args)
{
    unsigned long long cur, mask, own_w, opp_w;
    int n, alpha, beta;
    if (!PyArg_ParseTuple(args, "KKKKiii", &cur, &mask, &own_w, &opp_w, &n, &alpha, &beta))
        return NULL;
    (void)own_w; /* recomputed where needed: completing_cells of the mover's discs */
    if (!self->has_slots || self->check == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the search was not initialised");
        return NULL;
    }
    if (n < 0 || n > CELLS) {
        PyErr_SetString(PyExc_ValueError, "n must be 0-42");
        return NULL;
    }
    self->failed = 0;
    self->thread = PyEval_SaveThread();
    int score = negamax(self, cur, mask, opp_w, n, alpha, beta);
    PyEval_RestoreThread(self->thread);
    self->thread = NULL;
    if (self->failed)
        return NULL;
    return PyLong_FromLong(score);
}

static PyObject *Search_counters(Search *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *out = Py_BuildValue("(KKKKi)", (unsigned long long)self->nodes, (unsigned long long)self->cutoffs,
                                  (unsigned long long)self->hits, (unsigned long long)self->booked, self->deepest);
    self->nodes = self->cutoffs = self->hits = self->booked = 0;
    return out;
}

static PyObject *book_score_py(PyObject *Py_UNUSED(module), PyObject *args)
{
    /* For tests: the compiled book lookup on its own. */
    PyObject *book;
    unsigned long long cur, mask;
    int n, score;
    if (!PyArg_ParseTuple(args, "OKKi", &book, &cur, &mask, &n))
        return NULL;
    Search s;
    memset(&s, 0, sizeof s);
    if (PyObject_GetBuffer(book, &s.book, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    s.book_count = s.book.len / RECORD;
    int found = book_score(&s, cur, mask, n, &score);
    PyBuffer_Release(&s.book);
    if (!found)
        Py_RETURN_NONE;
    return PyLong_FromLong(score);
}

static PyMethodDef Search_methods[] = {
    {"negamax", (PyCFunction)Search_negamax, METH_VARARGS,
     "negamax(cur, mask, own_w, opp_w, n, alpha, beta): the node function of solver.py"},
    {"counters", (PyCFunction)Search_counters, METH_NOARGS,
     "(nodes, cutoffs, hits, booked, deepest) since the last call; the first four restart at 0"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tui_games.engine.connect4._c4solve.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Search_traverse,
    .tp_clear = (inquiry)Search_clear,
    .tp_doc = "One solver run's node function over a table, an optional book and a stop check.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};


/* -- random playouts for Monte Carlo tree search (twin: playout.py) ------------------------- */

/* splitmix64 (Steele, Lea & Flood): the Python twin draws the same numbers. */
static u64 splitmix_next(u64 *state)
{
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int playout_four(u64 x)
{
    static const int dirs[4] = {1, STRIDE, STRIDE - 1, STRIDE + 1};
    for (int i = 0; i < 4; i++) {
        u64 m = x & (x >> dirs[i]);
        if (m & (m >> (2 * dirs[i])))
            return 1;
    }
    return 0;
}

static PyObject *playout_py(PyObject *Py_UNUSED(module), PyObject *args)
{
    unsigned long long cur_in, mask_in, seed;
    int moves, max_plies;
    if (!PyArg_ParseTuple(args, "KKiKi", &cur_in, &mask_in, &moves, &seed, &max_plies))
        return NULL;
    u64 cur = cur_in, mask = mask_in, state = seed;
    for (int plies = 0;; plies++) {
        if (moves >= COLUMNS * ROWS || plies >= max_plies)
            return PyLong_FromLong(0);
        int legal[COLUMNS], n = 0;
        for (int c = 0; c < COLUMNS; c++)
            if (!(mask & ((u64)1 << (c * STRIDE + ROWS - 1))))
                legal[n++] = c;
        int col = legal[splitmix_next(&state) % (u64)n];
        u64 next = mask | (mask + ((u64)1 << (col * STRIDE)));
        u64 mover = cur | (next ^ mask);
        if (playout_four(mover))
            return PyLong_FromLong(plies % 2 == 0 ? 1 : -1);
        cur ^= mask;
        mask = next;
        moves++;
    }
}

static PyMethodDef module_methods[] = {
    {"book_score", book_score_py, METH_VARARGS, "book_score(book, cur, mask, n): the book's score or None"},
    {"playout", playout_py, METH_VARARGS,
     "playout(cur, mask, moves, seed, max_plies): +1/-1/0 for the side to move of a random game"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_c4solve", "The Connect-4 solver's node function in C (see solver.py).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__c4solve(void)
{
    for (int i = 0; i < COLUMNS; i++)
        ORDER_MASK[i] = (u64)63 << (CENTRE_ORDER[i] * STRIDE);
    for (int height = 0; height <= ROWS; height++) {
        int filled = (1 << height) - 1;
        for (int first = 0; first < (1 << height); first++) {
            uint32_t code = 0;
            for (int row = 0; row < height; row++)
                code = code << 2 | ((first >> row) & 1 ? 2u : 3u);
            CODE[first + filled] = code << 1;
            CODE_LENGTH[first + filled] = 2 * height + 1;
        }
    }
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
