/*
 * Compiled route search for a one-square mover: the loop of search._a_star_flat in C,
 * and which squares the mover can reach at all.
 *
 * The Python A* (search._a_star_flat) stays the reference and the fallback (it runs
 * wherever this file could not be compiled); tests check that both give the same routes.
 * This is the same search step for step: the same states (square * 2 + diagonal parity),
 * the same steps in the same order (straight ones, then diagonals, each in
 * NEIGHBOUR_STEPS order), the same estimate, the same pruning and the same queue order
 * (estimated total, then deeper states, then the state number).
 *
 * Inputs arrive through the buffer protocol: per-square bytes (the open steps as a bit
 * set over NEIGHBOUR_STEPS, blocked, difficult), one byte per square, y * width + x.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* engine.grid.NEIGHBOUR_STEPS, in its order: four straight steps, then four diagonals. */
static const int STEP_DX[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int STEP_DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};
#define NEVER INT32_MAX
/* Costs stay far below this (a route never repeats a state and no step costs over 4). */
#define LIMIT_CAP (1 << 30)

typedef struct {
    int32_t total;  /* cost so far + estimate */
    int32_t cost;   /* cost so far: deeper (larger) first among equal totals */
    int32_t state;
} Entry;

static inline int before(const Entry *a, const Entry *b)
{
    if (a->total != b->total) return a->total < b->total;
    if (a->cost != b->cost) return a->cost > b->cost;
    return a->state < b->state;
}

typedef struct {
    Entry *items;
    Py_ssize_t size, capacity;
} Heap;

static int heap_push(Heap *h, Entry e)
{
    if (h->size == h->capacity) {
        Py_ssize_t grown = h->capacity ? h->capacity * 2 : 1024;
        Entry *items = realloc(h->items, (size_t)grown * sizeof(Entry));
        if (!items) return -1;
        h->items = items;
        h->capacity = grown;
    }
    Py_ssize_t i = h->size++;
    while (i > 0) {
        Py_ssize_t up = (i - 1) / 2;
        if (!before(&e, &h->items[up])) break;
        h->items[i] = h->items[up];
        i = up;
    }
    h->items[i] = e;
    return 0;
}

static Entry heap_pop(Heap *h)
{
    Entry top = h->items[0];
    Entry last = h->items[--h->size];
    Py_ssize_t i = 0, n = h->size;
    for (;;) {
        Py_ssize_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && before(&h->items[child + 1], &h->items[child])) child++;
        if (!before(&h->items[child], &last)) break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (n) h->items[i] = last;
    return top;
}

/* The open-ground cost from square v to the goal at this parity (search._estimate). */
static inline int32_t estimate(Py_ssize_t v, Py_ssize_t width, Py_ssize_t gx, Py_ssize_t gy,
                               int parity, int alternating)
{
    Py_ssize_t x = v % width, y = v / width;
    Py_ssize_t dx = x > gx ? x - gx : gx - x;
    Py_ssize_t dy = y > gy ? y - gy : gy - y;
    if (dx > dy) { Py_ssize_t t = dx; dx = dy; dy = t; }
    /* dx is now the diagonal count, dy - dx the straight steps. */
    return (int32_t)(alternating ? dy + (dx + parity) / 2 : dy);
}

static int check_bytes(Py_buffer *b, Py_ssize_t cells, const char *what)
{
    if (b->len != cells) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd bytes, not one per square (%zd)", what,
                     b->len, cells);
        return -1;
    }
    return 0;
}

/* route(open, blocked, difficult or None, width, height, alternating, start, goal, limit)
 * -> (square indices from start to goal, cost) or None when no route costs limit or less. */
static PyObject *route(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer open = {0}, blocked = {0}, difficult = {0};
    PyObject *result = NULL;
    int32_t *best = NULL, *parents = NULL;
    Heap heap = {0};
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "route takes 9 arguments");
        return NULL;
    }
    Py_ssize_t width = PyLong_AsSsize_t(args[3]), height = PyLong_AsSsize_t(args[4]);
    int alternating = PyObject_IsTrue(args[5]);
    Py_ssize_t start = PyLong_AsSsize_t(args[6]), goal = PyLong_AsSsize_t(args[7]);
    long long asked = PyLong_AsLongLong(args[8]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t cells = width * height;
    if (width <= 0 || height <= 0 || start < 0 || start >= cells || goal < 0 || goal >= cells) {
        PyErr_SetString(PyExc_ValueError, "start or goal off the map");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &open, PyBUF_SIMPLE) < 0) goto done;
    if (PyObject_GetBuffer(args[1], &blocked, PyBUF_SIMPLE) < 0) goto done;
    if (args[2] != Py_None && PyObject_GetBuffer(args[2], &difficult, PyBUF_SIMPLE) < 0) goto done;
    if (check_bytes(&open, cells, "open") < 0 || check_bytes(&blocked, cells, "blocked") < 0)
        goto done;
    if (difficult.buf && check_bytes(&difficult, cells, "difficult") < 0) goto done;
    {
        const uint8_t *mask = open.buf, *block = blocked.buf, *rough = difficult.buf;
        const int32_t limit = asked > LIMIT_CAP ? LIMIT_CAP : (int32_t)asked;
        const int prune = alternating && rough == NULL;
        const Py_ssize_t gx = goal % width, gy = goal / width;
        Py_ssize_t offset[8];
        for (int k = 0; k < 8; k++) offset[k] = STEP_DY[k] * width + STEP_DX[k];
        best = malloc((size_t)(2 * cells) * sizeof(int32_t));
        parents = malloc((size_t)(2 * cells) * sizeof(int32_t));
        if (!best || !parents) { PyErr_NoMemory(); goto done; }
        for (Py_ssize_t i = 0; i < 2 * cells; i++) best[i] = NEVER;
        best[start * 2] = 0;
        parents[start * 2] = -1;
        Entry first = {estimate(start, width, gx, gy, 0, alternating), 0, (int32_t)(start * 2)};
        if (heap_push(&heap, first) < 0) { PyErr_NoMemory(); goto done; }
        while (heap.size) {
            Entry e = heap_pop(&heap);
            const int32_t state = e.state, cost = e.cost;
            const Py_ssize_t index = state >> 1;
            const int parity = state & 1;
            if (best[state] != cost) continue;
            /* Dominated by the other parity since it was queued: nothing new to learn. */
            if (prune && best[state ^ 1] != NEVER && best[state ^ 1] <= cost - (1 - parity))
                continue;
            if (index == goal) {
                Py_ssize_t length = 1;
                for (int32_t s = state; parents[s] >= 0; s = parents[s]) length++;
                PyObject *squares = PyList_New(length);
                if (!squares) goto done;
                int32_t s = state;
                for (Py_ssize_t i = length - 1; i >= 0; i--) {
                    PyObject *square = PyLong_FromSsize_t(s >> 1);
                    if (!square) { Py_DECREF(squares); goto done; }
                    PyList_SET_ITEM(squares, i, square);
                    s = parents[s];
                }
                result = Py_BuildValue("(Ni)", squares, (int)cost);
                goto done;
            }
            const int bits = mask[index];
            for (int group = 0; group < 2; group++) {
                int step, next_parity;
                if (group == 0) {
                    step = 1, next_parity = parity;
                } else if (alternating) {
                    step = parity ? 2 : 1, next_parity = parity ? 0 : 1;
                } else {
                    step = 1, next_parity = parity;
                }
                const int32_t base = cost + step;
                if (base > limit) continue;
                const int slack = next_parity ? 0 : 1;
                for (int k = group * 4; k < group * 4 + 4; k++) {
                    if (!(bits >> k & 1)) continue;
                    const Py_ssize_t v = index + offset[k];
                    if (block[v]) continue;
                    int32_t cost_v = base;
                    if (rough && rough[v]) {
                        /* rough[v]: how many more times the step costs (difficult cost - 1) */
                        cost_v += step * rough[v];
                        if (cost_v > limit) continue;
                    }
                    const Py_ssize_t child = v * 2 + next_parity;
                    const int32_t rival = best[child ^ 1];
                    if (prune && rival != NEVER && rival <= cost_v - slack) continue;
                    if (cost_v < best[child]) {
                        best[child] = cost_v;
                        parents[child] = state;
                        Entry next = {cost_v + estimate(v, width, gx, gy, next_parity, alternating),
                                      cost_v, (int32_t)child};
                        if (heap_push(&heap, next) < 0) { PyErr_NoMemory(); goto done; }
                    }
                }
            }
        }
        result = Py_NewRef(Py_None);
    }
done:
    free(best);
    free(parents);
    free(heap.items);
    if (open.obj) PyBuffer_Release(&open);
    if (blocked.obj) PyBuffer_Release(&blocked);
    if (difficult.obj) PyBuffer_Release(&difficult);
    return result;
}

/* reachable(open, blocked, width, height, start) -> bytearray, 1 for each square the
 * mover can reach from start by open steps into squares it may enter (start included). */
static PyObject *reachable(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer open = {0}, blocked = {0};
    PyObject *result = NULL;
    Py_ssize_t *queue = NULL;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "reachable takes 5 arguments");
        return NULL;
    }
    Py_ssize_t width = PyLong_AsSsize_t(args[2]), height = PyLong_AsSsize_t(args[3]);
    Py_ssize_t start = PyLong_AsSsize_t(args[4]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t cells = width * height;
    if (width <= 0 || height <= 0 || start < 0 || start >= cells) {
        PyErr_SetString(PyExc_ValueError, "start off the map");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &open, PyBUF_SIMPLE) < 0) goto done;
    if (PyObject_GetBuffer(args[1], &blocked, PyBUF_SIMPLE) < 0) goto done;
    if (check_bytes(&open, cells, "open") < 0 || check_bytes(&blocked, cells, "blocked") < 0)
        goto done;
    {
        const uint8_t *mask = open.buf, *block = blocked.buf;
        Py_ssize_t offset[8];
        for (int k = 0; k < 8; k++) offset[k] = STEP_DY[k] * width + STEP_DX[k];
        result = PyByteArray_FromStringAndSize(NULL, cells);
        queue = malloc((size_t)cells * sizeof(Py_ssize_t));
        if (!result || !queue) { Py_CLEAR(result); if (!PyErr_Occurred()) PyErr_NoMemory(); goto done; }
        uint8_t *seen = (uint8_t *)PyByteArray_AS_STRING(result);
        memset(seen, 0, (size_t)cells);
        Py_ssize_t head = 0, tail = 0;
        seen[start] = 1;
        queue[tail++] = start;
        while (head < tail) {
            const Py_ssize_t index = queue[head++];
            const int bits = mask[index];
            for (int k = 0; k < 8; k++) {
                if (!(bits >> k & 1)) continue;
                const Py_ssize_t v = index + offset[k];
                if (seen[v] || block[v]) continue;
                seen[v] = 1;
                queue[tail++] = v;
            }
        }
    }
done:
    free(queue);
    if (open.obj) PyBuffer_Release(&open);
    if (blocked.obj) PyBuffer_Release(&blocked);
    return result;
}

static PyMethodDef methods[] = {
    {"route", (PyCFunction)(void (*)(void))route, METH_FASTCALL,
     "A* for a one-square mover (search._a_star_flat in C): (squares, cost) or None."},
    {"reachable", (PyCFunction)(void (*)(void))reachable, METH_FASTCALL,
     "Which squares a one-square mover can reach from start, as one byte per square."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.routes._astar",
    "Compiled route search (see _astar.c); search.py holds the Python reference.", -1,
    methods,
};

/* INTERFACE: bumped when the arguments' meaning changes; compiled.py ignores an older
 * build (2: the difficult bytes hold the extra multiple of the step, not a flag). */
PyMODINIT_FUNC PyInit__astar(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "INTERFACE", 2) < 0) Py_CLEAR(m);
    return m;
}
