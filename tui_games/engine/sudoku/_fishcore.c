/* The Franken and mutant fish search of one digit, compiled (complex_fish.py has the twin,
 * _search_digit, and says what a fish is; both meet the same fish in the same order).
 *
 * Cell sets are 256-bit (grids up to 16x16), unit sets 64-bit (a 16x16 grid with its
 * diagonals has 50 units).
 *
 * search(size, max_fins, max_endo, mutant, every_finned, where, places, usable, cover_ok,
 *        units_of, peers, kinds) -> [(bases, covers, fins, endo, body, targets, eliminations, kind)]
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define WORDS 4
typedef struct {
    uint64_t w[WORDS];
} cells_t;

#define MAX_CELLS (64 * WORDS)
#define MAX_UNITS 64
#define MAX_UNITS_OF 5

static const cells_t NONE = {{0, 0, 0, 0}};
static const cells_t ALL = {{~0ULL, ~0ULL, ~0ULL, ~0ULL}};

static inline cells_t c_and(cells_t a, cells_t b) {
    for (int i = 0; i < WORDS; i++) a.w[i] &= b.w[i];
    return a;
}
static inline cells_t c_or(cells_t a, cells_t b) {
    for (int i = 0; i < WORDS; i++) a.w[i] |= b.w[i];
    return a;
}
static inline cells_t c_andnot(cells_t a, cells_t b) {
    for (int i = 0; i < WORDS; i++) a.w[i] &= ~b.w[i];
    return a;
}
static inline int c_any(cells_t a) { return (a.w[0] | a.w[1] | a.w[2] | a.w[3]) != 0; }
static inline int c_has(cells_t a, int c) { return (int)(a.w[c >> 6] >> (c & 63) & 1); }
static inline cells_t c_bit(int c) {
    cells_t x = NONE;
    x.w[c >> 6] = 1ULL << (c & 63);
    return x;
}
static inline int popcount(cells_t x) {
    int n = 0;
    for (int i = 0; i < WORDS; i++) n += __builtin_popcountll(x.w[i]);
    return n;
}
/* the lowest cell of a non-empty set */
static inline int lowest(cells_t x) {
    for (int i = 0; i < WORDS; i++)
        if (x.w[i]) return 64 * i + __builtin_ctzll(x.w[i]);
    return -1;
}
#define MAX_SIZE 8

enum { ROW = 0, COLUMN = 1, BOX = 2, DIAGONAL = 3 };
enum { BASIC = 0, FRANKEN = 1, MUTANT = 2 };

typedef struct {
    int size, max_fins, max_endo, mutant, every_finned;
    int n_units, n_cells, n_usable;
    cells_t where;
    cells_t places[MAX_UNITS];
    int usable[MAX_UNITS];
    int cover_ok[MAX_UNITS];
    int kinds[MAX_UNITS];
    int units_of[MAX_CELLS][MAX_UNITS_OF];
    int n_units_of[MAX_CELLS];
    uint64_t cover_units[MAX_CELLS];
    cells_t peers[MAX_CELLS];
    int bases[MAX_SIZE];
    int covers[MAX_SIZE];
    PyObject *out;
    int failed;
} Search;

/* a non-negative Python int of at most MAX_CELLS bits */
static int get_cells(PyObject *obj, cells_t *out) {
    unsigned char bytes[8 * WORDS];
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a cell set is an int");
        return -1;
    }
    /* unsigned: a negative or too wide int raises OverflowError */
#if PY_VERSION_HEX >= 0x030D0000
    if (_PyLong_AsByteArray((PyLongObject *)obj, bytes, sizeof bytes, 1, 0, 1) < 0) return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)obj, bytes, sizeof bytes, 1, 0) < 0) return -1;
#endif
    for (int i = 0; i < WORDS; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--) w = w << 8 | bytes[8 * i + b];
        out->w[i] = w;
    }
    return 0;
}

static PyObject *cells_to_py(cells_t x) {
    unsigned char bytes[8 * WORDS];
    for (int i = 0; i < WORDS; i++)
        for (int b = 0; b < 8; b++) bytes[8 * i + b] = (unsigned char)(x.w[i] >> (8 * b));
    return _PyLong_FromByteArray(bytes, sizeof bytes, 1, 0);
}

static cells_t peers_of(const Search *s, cells_t cells, cells_t common) {
    for (int c = lowest(cells); c >= 0; c = lowest(cells)) {
        common = c_and(common, s->peers[c]);
        cells.w[c >> 6] &= cells.w[c >> 6] - 1;
    }
    return common;
}

static int kind_of(const Search *s, int nb, int nc) {
    unsigned b = 0, c = 0;
    for (int i = 0; i < nb; i++) b |= 1u << s->kinds[s->bases[i]];
    for (int i = 0; i < nc; i++) c |= 1u << s->kinds[s->covers[i]];
    const unsigned row = 1u << ROW, col = 1u << COLUMN, box = 1u << BOX;
    if ((b == row && c == col) || (b == col && c == row)) return BASIC;
    if (((b & ~(row | box)) == 0 && (c & ~(col | box)) == 0) || ((b & ~(col | box)) == 0 && (c & ~(row | box)) == 0))
        return FRANKEN;
    return MUTANT;
}

static void leaf(Search *s, int nb, int nc, cells_t body, cells_t endo, cells_t fins, cells_t common) {
    cells_t cover_cells = NONE, twice = NONE;
    for (int i = 0; i < nc; i++) {
        cells_t p = s->places[s->covers[i]];
        twice = c_or(twice, c_and(cover_cells, p));
        cover_cells = c_or(cover_cells, p);
    }
    cells_t targets = c_or(c_andnot(cover_cells, body), c_andnot(c_and(twice, body), fins));
    if (!c_any(targets)) return;
    cells_t elims = c_and(targets, common);
    if (!c_any(elims) && !(c_any(fins) && s->every_finned)) return;
    int kind = kind_of(s, nb, nc);
    if ((kind == MUTANT) != (s->mutant != 0)) return;
    PyObject *bases = PyTuple_New(nb), *covers = PyTuple_New(nc);
    if (bases == NULL || covers == NULL) goto fail;
    for (int i = 0; i < nb; i++) PyTuple_SET_ITEM(bases, i, PyLong_FromLong(s->bases[i]));
    for (int i = 0; i < nc; i++) PyTuple_SET_ITEM(covers, i, PyLong_FromLong(s->covers[i]));
    PyObject *item = Py_BuildValue("(NNNNNNNi)", bases, covers, cells_to_py(fins), cells_to_py(endo),
                                   cells_to_py(body), cells_to_py(targets), cells_to_py(elims), kind);
    bases = covers = NULL;
    if (item == NULL) goto fail;
    if (PyList_Append(s->out, item) < 0) {
        Py_DECREF(item);
        goto fail;
    }
    Py_DECREF(item);
    return;
fail:
    Py_XDECREF(bases);
    Py_XDECREF(covers);
    s->failed = 1;
}

static void cover(Search *s, int nb, uint64_t bases_bits, int nc, uint64_t covers_bits, cells_t covered,
                  cells_t body, cells_t endo, cells_t fins, cells_t common) {
    if (s->failed) return;
    cells_t rest = c_andnot(c_andnot(body, covered), fins);
    if (nc == s->size) {
        cells_t all_fins = c_or(fins, rest);
        if (popcount(all_fins) <= s->max_fins) {
            common = peers_of(s, rest, common);
            if (!c_any(all_fins) || c_any(c_and(common, s->where))) leaf(s, nb, nc, body, endo, all_fins, common);
        }
        return;
    }
    if (!c_any(rest)) return;
    int cell = lowest(rest);
    cells_t low = c_bit(cell);
    for (int k = 0; k < s->n_units_of[cell]; k++) {
        int u = s->units_of[cell][k];
        if (s->cover_ok[u] && !(bases_bits >> u & 1) && !(covers_bits >> u & 1)) {
            s->covers[nc] = u;
            cover(s, nb, bases_bits, nc + 1, covers_bits | 1ULL << u, c_or(covered, s->places[u]), body, endo, fins,
                  common);
        }
    }
    if (popcount(c_or(fins, low)) <= s->max_fins) {
        common = c_and(common, s->peers[cell]);
        if (c_any(c_andnot(c_and(common, s->where), body)))
            cover(s, nb, bases_bits, nc, covers_bits, covered, body, endo, c_or(fins, low), common);
    }
}

static int too_wide(const Search *s, uint64_t bases_bits, cells_t body, cells_t endo) {
    int room = s->size + s->max_fins - popcount(endo);
    uint64_t used = 0, later[MAX_CELLS];
    int count = 0, n_later = 0;
    cells_t cells = c_andnot(body, endo);
    for (int c = lowest(cells); c >= 0; c = lowest(cells)) {
        cells.w[c >> 6] &= cells.w[c >> 6] - 1;
        uint64_t units = s->cover_units[c] & ~bases_bits;
        if (units & (units - 1)) {
            later[n_later++] = units;
        } else if (!(units & used)) {
            used |= units;
            count++;
        }
    }
    if (count > room) return 1;
    for (int i = 0; i < n_later; i++) {
        if (!(later[i] & used)) {
            used |= later[i];
            if (++count > room) return 1;
        }
    }
    return 0;
}

static void base(Search *s, int start, int nb, uint64_t bases_bits, cells_t body, cells_t endo) {
    if (s->failed) return;
    if (nb == s->size) {
        cover(s, nb, bases_bits, 0, 0, NONE, body, endo, endo, peers_of(s, endo, ALL));
        return;
    }
    for (int i = start; i < s->n_usable - (s->size - nb) + 1; i++) {
        int u = s->usable[i];
        cells_t p = s->places[u];
        cells_t e = c_or(endo, c_and(body, p));
        if (popcount(e) > s->max_endo) continue;
        if (too_wide(s, bases_bits | 1ULL << u, c_or(body, p), e)) continue;
        s->bases[nb] = u;
        base(s, i + 1, nb + 1, bases_bits | 1ULL << u, c_or(body, p), e);
    }
}

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (s == NULL) return PyErr_NoMemory();
    PyObject *where, *places, *usable, *cover_ok, *units_of, *peers, *kinds;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "iiiiiOO!O!O!O!O!O!", &s->size, &s->max_fins, &s->max_endo, &s->mutant,
                          &s->every_finned, &where, &PyList_Type, &places, &PyList_Type, &usable, &PyList_Type,
                          &cover_ok, &PyList_Type, &units_of, &PyList_Type, &peers, &PyList_Type, &kinds))
        goto done;
    s->n_units = (int)PyList_GET_SIZE(places);
    s->n_cells = (int)PyList_GET_SIZE(units_of);
    s->n_usable = (int)PyList_GET_SIZE(usable);
    if (s->n_units > MAX_UNITS || s->n_cells > MAX_CELLS || s->size < 1 || s->size > MAX_SIZE
        || PyList_GET_SIZE(cover_ok) != s->n_units || PyList_GET_SIZE(kinds) != s->n_units
        || PyList_GET_SIZE(peers) != s->n_cells || s->n_usable > s->n_units) {
        PyErr_SetString(PyExc_ValueError, "grid too large or tables inconsistent");
        goto done;
    }
    if (get_cells(where, &s->where) < 0) goto done;
    for (int u = 0; u < s->n_units; u++) {
        if (get_cells(PyList_GET_ITEM(places, u), &s->places[u]) < 0) goto done;
        s->cover_ok[u] = PyObject_IsTrue(PyList_GET_ITEM(cover_ok, u));
        s->kinds[u] = (int)PyLong_AsLong(PyList_GET_ITEM(kinds, u));
        if (s->cover_ok[u] < 0 || PyErr_Occurred()) goto done;
        if (s->kinds[u] < ROW || s->kinds[u] > DIAGONAL) {
            PyErr_SetString(PyExc_ValueError, "unit kind out of range");
            goto done;
        }
    }
    for (int i = 0; i < s->n_usable; i++) {
        long u = PyLong_AsLong(PyList_GET_ITEM(usable, i));
        if (PyErr_Occurred()) goto done;
        if (u < 0 || u >= s->n_units) {
            PyErr_SetString(PyExc_ValueError, "unit out of range");
            goto done;
        }
        s->usable[i] = (int)u;
    }
    for (int c = 0; c < s->n_cells; c++) {
        PyObject *units = PyList_GET_ITEM(units_of, c);
        if (!PyTuple_Check(units) || PyTuple_GET_SIZE(units) > MAX_UNITS_OF) {
            PyErr_SetString(PyExc_ValueError, "units_of: a tuple of at most 5 units per cell");
            goto done;
        }
        s->n_units_of[c] = (int)PyTuple_GET_SIZE(units);
        for (int k = 0; k < s->n_units_of[c]; k++) {
            long u = PyLong_AsLong(PyTuple_GET_ITEM(units, k));
            if (PyErr_Occurred()) goto done;
            if (u < 0 || u >= s->n_units) {
                PyErr_SetString(PyExc_ValueError, "unit out of range");
                goto done;
            }
            s->units_of[c][k] = (int)u;
            if (s->cover_ok[u] && c_has(s->where, c)) s->cover_units[c] |= 1ULL << u;
        }
        if (get_cells(PyList_GET_ITEM(peers, c), &s->peers[c]) < 0) goto done;
    }
    s->out = PyList_New(0);
    if (s->out == NULL) goto done;
    base(s, 0, 0, 0, NONE, NONE);
    if (s->failed) {
        Py_CLEAR(s->out);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    result = s->out;
done:
    PyMem_Free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS, "The fish of one digit and one choice of base and cover units."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fishcore", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fishcore(void) { return PyModule_Create(&module); }
