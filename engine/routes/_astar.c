/*
 * Compiled route search for a one-square mover: the loop of search._a_star_flat in C,
 * which squares the mover can reach at all, and reach within a budget (the loops of
 * search._reach_halves and _reach_flat; a big token's footprint arrives as per-anchor bytes).
 *
 * The Python A* (search._a_star_flat) stays the reference and the fallback (it runs
 * wherever this file could not be compiled); tests check that both give the same routes.
 * This is the same search step for step: the same states (square * 2 + diagonal parity),
 * the same steps in the same order (straight ones, then diagonals, each in
 * NEIGHBOUR_STEPS order), the same estimate, the same pruning and the same queue order
 * (estimated total, then estimated straying, then deeper states, then the state number).
 *
 * Among routes of equal cost the straightest wins: each square a route enters strays from
 * the straight line start-goal by |cross product| (its distance from the line times the
 * line's length), and a state's label is (cost, straying so far), compared in that order.
 * The straying still to come is bounded below by the return to the line (stray_estimate),
 * so the queue order is lexicographic A* and the route returned is, of those of least
 * cost, one of least straying: a route the eye reads as straight, the same on every run.
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
    int32_t cost;   /* cost so far: deeper (larger) first among equal totals and strays */
    int32_t state;
    int64_t stray;  /* straying so far + the least still to come */
    int64_t strayed; /* straying so far (the label's second part) */
} Entry;

static inline int before(const Entry *a, const Entry *b)
{
    if (a->total != b->total) return a->total < b->total;
    if (a->stray != b->stray) return a->stray < b->stray;
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

/* How far square v strays from the line start-goal: |cross product| (search._stray). */
static inline int64_t stray_of(Py_ssize_t v, Py_ssize_t width, Py_ssize_t sx, Py_ssize_t sy,
                               int64_t ax, int64_t ay)
{
    int64_t cross = ax * (int64_t)(v / width - sy) - ay * (int64_t)(v % width - sx);
    return cross < 0 ? -cross : cross;
}

/* The least straying still to come from a square that strays c: a step changes the cross
 * product by at most reach = |ax| + |ay|, so the squares back to the line stray at least
 * c - reach, c - 2 reach, ... (search._stray_estimate). */
static inline int64_t stray_estimate(int64_t c, int64_t reach)
{
    if (reach == 0) return 0;
    int64_t m = c / reach;
    return m * c - reach * m * (m + 1) / 2;
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
    int64_t *strays = NULL;
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
        const Py_ssize_t sx = start % width, sy = start / width;
        const int64_t ax = gx - sx, ay = gy - sy;
        const int64_t reach = (ax < 0 ? -ax : ax) + (ay < 0 ? -ay : ay);
        Py_ssize_t offset[8];
        for (int k = 0; k < 8; k++) offset[k] = STEP_DY[k] * width + STEP_DX[k];
        best = malloc((size_t)(2 * cells) * sizeof(int32_t));
        parents = malloc((size_t)(2 * cells) * sizeof(int32_t));
        strays = malloc((size_t)(2 * cells) * sizeof(int64_t));
        if (!best || !parents || !strays) { PyErr_NoMemory(); goto done; }
        for (Py_ssize_t i = 0; i < 2 * cells; i++) best[i] = NEVER;
        best[start * 2] = 0;
        strays[start * 2] = 0;
        parents[start * 2] = -1;
        Entry first = {estimate(start, width, gx, gy, 0, alternating), 0, (int32_t)(start * 2),
                       0, 0};
        if (heap_push(&heap, first) < 0) { PyErr_NoMemory(); goto done; }
        while (heap.size) {
            Entry e = heap_pop(&heap);
            const int32_t state = e.state, cost = e.cost;
            const int64_t strayed = e.strayed;
            const Py_ssize_t index = state >> 1;
            const int parity = state & 1;
            if (best[state] != cost || strays[state] != strayed) continue;
            /* Dominated by the other parity since it was queued (no dearer, and if as dear
             * no more strayed): nothing new to learn. */
            if (prune && best[state ^ 1] != NEVER) {
                const int32_t bound = cost - (1 - parity);
                if (best[state ^ 1] < bound || (best[state ^ 1] == bound
                                                && strays[state ^ 1] <= strayed))
                    continue;
            }
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
                    const int64_t here = stray_of(v, width, sx, sy, ax, ay);
                    const int64_t strayed_v = strayed + here;
                    const int32_t rival = best[child ^ 1];
                    if (prune && rival != NEVER && (rival < cost_v - slack || (
                            rival == cost_v - slack && strays[child ^ 1] <= strayed_v)))
                        continue;
                    if (cost_v < best[child]
                        || (cost_v == best[child] && strayed_v < strays[child])) {
                        best[child] = cost_v;
                        strays[child] = strayed_v;
                        parents[child] = state;
                        Entry next = {cost_v + estimate(v, width, gx, gy, next_parity, alternating),
                                      cost_v, (int32_t)child,
                                      strayed_v + stray_estimate(here, reach), strayed_v};
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
    free(strays);
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

/* A growable list of states: one bucket of the reach search's ring. */
typedef struct {
    int32_t *items;
    Py_ssize_t size, capacity;
} Bucket;

static int bucket_push(Bucket *b, int32_t state)
{
    if (b->size == b->capacity) {
        Py_ssize_t grown = b->capacity ? b->capacity * 2 : 256;
        int32_t *items = realloc(b->items, (size_t)grown * sizeof(int32_t));
        if (!items) return -1;
        b->items = items;
        b->capacity = grown;
    }
    b->items[b->size++] = state;
    return 0;
}

static int writable_ints(PyObject *obj, Py_buffer *b, Py_ssize_t count, const char *what)
{
    if (PyObject_GetBuffer(obj, b, PyBUF_WRITABLE) < 0) return -1;
    if (b->len != count * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd bytes, not %zd int32", what, b->len, count);
        return -1;
    }
    return 0;
}

/* reach(open, blocked, extra or None, width, height, alternating, halves, top, starts,
 *       best, parents) -> None
 *
 * Dial's algorithm (a bucket per cost) from every square to all within ``top``: the loop
 * of search._reach_halves (halves true: one state per square, costs in half squares, a
 * straight step 2, a diagonal 3 under the alternating rule, else 2) or of
 * search._reach_flat (halves false: states square * 2 + diagonal parity, costs in squares),
 * step for step and in the same order, so the parents (and routes) are theirs too.
 * ``starts``: (state, cost) pairs, taken in order where cheaper than a start before.
 * ``best`` and ``parents`` (writable int32, one per state) receive each state's cost
 * (INT32_MAX: not reached) and the state it was reached from (-1: a start or none).
 * Buckets live in a ring as long as the dearest step, so a whole-map budget costs no
 * memory per unit of budget. */
static PyObject *reach(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer open = {0}, blocked = {0}, extra = {0}, best_buf = {0}, parents_buf = {0};
    PyObject *result = NULL, *starts = NULL;
    Bucket *ring = NULL;
    Entry *first = NULL;
    Py_ssize_t ring_size = 0;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "reach takes 11 arguments");
        return NULL;
    }
    Py_ssize_t width = PyLong_AsSsize_t(args[3]), height = PyLong_AsSsize_t(args[4]);
    int alternating = PyObject_IsTrue(args[5]), halves = PyObject_IsTrue(args[6]);
    long long asked = PyLong_AsLongLong(args[7]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t cells = width * height;
    if (width <= 0 || height <= 0 || asked < 0) {
        PyErr_SetString(PyExc_ValueError, "an empty map or a negative budget");
        return NULL;
    }
    const Py_ssize_t states = halves ? cells : 2 * cells;
    if (states > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "map too big for the compiled reach");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &open, PyBUF_SIMPLE) < 0) goto done;
    if (PyObject_GetBuffer(args[1], &blocked, PyBUF_SIMPLE) < 0) goto done;
    if (args[2] != Py_None && PyObject_GetBuffer(args[2], &extra, PyBUF_SIMPLE) < 0) goto done;
    if (check_bytes(&open, cells, "open") < 0 || check_bytes(&blocked, cells, "blocked") < 0)
        goto done;
    if (extra.buf && check_bytes(&extra, cells, "extra") < 0) goto done;
    if (writable_ints(args[9], &best_buf, states, "best") < 0) goto done;
    if (writable_ints(args[10], &parents_buf, states, "parents") < 0) goto done;
    starts = PySequence_Fast(args[8], "starts must be a sequence of (state, cost)");
    if (!starts) goto done;
    {
        const uint8_t *mask = open.buf, *block = blocked.buf, *rough = extra.buf;
        int32_t *best = best_buf.buf, *parents = parents_buf.buf;
        const int32_t top = asked > LIMIT_CAP ? LIMIT_CAP : (int32_t)asked;
        const int prune = !halves && alternating && rough == NULL;
        int max_extra = 0;
        if (rough)
            for (Py_ssize_t i = 0; i < cells; i++)
                if (rough[i] > max_extra) max_extra = rough[i];
        /* The dearest step: a diagonal (3 halves, or 2 squares) times the difficult cost. */
        ring_size = (Py_ssize_t)(halves ? 3 : 2) * (1 + max_extra) + 1;
        ring = calloc((size_t)ring_size, sizeof(Bucket));
        if (!ring) { PyErr_NoMemory(); goto done; }
        Py_ssize_t offset[8];
        for (int k = 0; k < 8; k++) offset[k] = STEP_DY[k] * width + STEP_DX[k];
        for (Py_ssize_t i = 0; i < states; i++) best[i] = NEVER, parents[i] = -1;
        /* Starts are taken in order where cheaper than one before (as the Python loops
         * fill their buckets), then queued by cost: they lead their bucket, since the
         * Python loops queue them before the search adds to any bucket. */
        const Py_ssize_t count = PySequence_Fast_GET_SIZE(starts);
        first = malloc((size_t)(count ? count : 1) * sizeof(Entry));
        if (!first) { PyErr_NoMemory(); goto done; }
        Py_ssize_t taken = 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            long long state, cost;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(starts, i), "LL", &state, &cost))
                goto done;
            if (state < 0 || state >= states || cost < 0) {
                PyErr_SetString(PyExc_ValueError, "a start off the map or below cost 0");
                goto done;
            }
            if (cost > top || cost >= best[state]) continue;
            best[state] = (int32_t)cost;
            first[taken].cost = (int32_t)cost;
            first[taken++].state = (int32_t)state;
        }
        /* A stable insertion sort by cost (a few starts at most): equal costs keep order. */
        for (Py_ssize_t i = 1; i < taken; i++) {
            Entry e = first[i];
            Py_ssize_t j = i;
            for (; j > 0 && first[j - 1].cost > e.cost; j--) first[j] = first[j - 1];
            first[j] = e;
        }
        Py_ssize_t pending = taken, next_start = 0;
        const int straight_step = halves ? 2 : 1;
        for (int32_t cost = 0; cost <= top && pending; cost++) {
            Bucket *bucket = &ring[cost % ring_size];
            Py_ssize_t starting = next_start;
            while (next_start < taken && first[next_start].cost == cost) next_start++;
            const Py_ssize_t leading = next_start - starting;
            /* Every step costs at least 1, so nothing lands in this bucket while it runs. */
            for (Py_ssize_t i = 0; i < leading + bucket->size; i++) {
                const int32_t state =
                    i < leading ? first[starting + i].state : bucket->items[i - leading];
                pending--;
                if (best[state] != cost) continue;
                const Py_ssize_t index = halves ? state : state >> 1;
                const int parity = halves ? 0 : state & 1;
                const int bits = mask[index];
                for (int group = 0; group < 2; group++) {
                    int step, next_parity = parity;
                    if (group == 0) step = straight_step;
                    else if (halves) step = alternating ? 3 : 2;
                    else if (alternating) step = parity ? 2 : 1, next_parity = !parity;
                    else step = 1;
                    const int32_t base = cost + step;
                    if (base > top) continue;
                    const int slack = next_parity ? 0 : 1;
                    for (int k = group * 4; k < group * 4 + 4; k++) {
                        if (!(bits >> k & 1)) continue;
                        const Py_ssize_t v = index + offset[k];
                        if (block[v]) continue;
                        int32_t new_cost = base;
                        if (rough && rough[v]) {
                            new_cost += step * rough[v];
                            if (new_cost > top) continue;
                        }
                        const Py_ssize_t child = halves ? v : v * 2 + next_parity;
                        if (prune && best[child ^ 1] != NEVER && best[child ^ 1] <= new_cost - slack)
                            continue;
                        if (new_cost < best[child]) {
                            best[child] = new_cost;
                            parents[child] = state;
                            if (bucket_push(&ring[new_cost % ring_size], (int32_t)child) < 0) {
                                PyErr_NoMemory(); goto done;
                            }
                            pending++;
                        }
                    }
                }
            }
            bucket->size = 0;
        }
        result = Py_NewRef(Py_None);
    }
done:
    if (ring)
        for (Py_ssize_t i = 0; i < ring_size; i++) free(ring[i].items);
    free(ring);
    free(first);
    Py_XDECREF(starts);
    if (open.obj) PyBuffer_Release(&open);
    if (blocked.obj) PyBuffer_Release(&blocked);
    if (extra.obj) PyBuffer_Release(&extra);
    if (best_buf.obj) PyBuffer_Release(&best_buf);
    if (parents_buf.obj) PyBuffer_Release(&parents_buf);
    return result;
}

static PyMethodDef methods[] = {
    {"route", (PyCFunction)(void (*)(void))route, METH_FASTCALL,
     "A* for a one-square mover (search._a_star_flat in C): (squares, cost) or None."},
    {"reachable", (PyCFunction)(void (*)(void))reachable, METH_FASTCALL,
     "Which squares a one-square mover can reach from start, as one byte per square."},
    {"reach", (PyCFunction)(void (*)(void))reach, METH_FASTCALL,
     "Every state's cheapest cost within a budget (search._reach_halves / _reach_flat in C)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.routes._astar",
    "Compiled route search (see _astar.c); search.py holds the Python reference.", -1,
    methods,
};

/* INTERFACE: bumped when the arguments' meaning changes; compiled.py ignores an older
 * build (2: the difficult bytes hold the extra multiple of the step, not a flag; 3: reach;
 * 4: route breaks cost ties by straying from the straight line, as search._a_star_flat). */
PyMODINIT_FUNC PyInit__astar(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "INTERFACE", 4) < 0) Py_CLEAR(m);
    return m;
}
