/*
 * Compiled sight kernel: the hot loops of engine/geometry (_march.py, los.py and
 * visibility.py) in C.
 *
 * The NumPy code stays the reference and the fallback (it runs wherever
 * this file could not be compiled); tests check that both give the same answers. The
 * touch test below is the same arithmetic as _march._hits, term for term, and setup.py
 * compiles this file with floating-point contraction off, so the two agree bit for bit.
 *
 * Arrays arrive through the buffer protocol (NumPy arrays, C-contiguous, float64 or
 * intp); the Python wrapper in _march.py checks their dtypes and allocates the outputs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct {
    const double *x1, *y1, *x2, *y2;  /* the walls' ends */
    const Py_ssize_t *cell_start;     /* CSR offsets per cell */
    const Py_ssize_t *cell_walls;
    Py_ssize_t columns, rows;
    double cell;
    double inverse;                   /* 1 / cell, as _march._cells multiplies by it */
} Grid;

#if defined(__GNUC__)
#define HOT inline __attribute__((always_inline))
#else
#define HOT inline
#endif

/* Whether segment p->q touches wall w (closed segments), and where along p->q (t). */
static HOT int touches(const Grid *g, double px, double py, double qx, double qy,
                          Py_ssize_t w, double *t_out)
{
    const double ax = g->x1[w], ay = g->y1[w], bx = g->x2[w], by = g->y2[w];
    const double rx = qx - px, ry = qy - py;
    const double sx = bx - ax, sy = by - ay;
    const double o1 = rx * (ay - py) - ry * (ax - px);
    const double o2 = rx * (by - py) - ry * (bx - px);
    int touching;
    if (o1 == 0 && o2 == 0) {
        /* On one line: they touch when their bounding boxes overlap, from where the
         * overlap starts along p->q. */
        touching = fmin(px, qx) <= fmax(ax, bx) && fmin(ax, bx) <= fmax(px, qx) &&
                   fmin(py, qy) <= fmax(ay, by) && fmin(ay, by) <= fmax(py, qy);
        if (touching && t_out) {
            const double length = rx * rx + ry * ry;
            const double first = fmin((ax - px) * rx + (ay - py) * ry, (bx - px) * rx + (by - py) * ry);
            *t_out = length > 0 ? fmin(fmax(first / length, 0.0), 1.0) : 0.0;
        }
        return touching;
    } else {
        if (o1 * o2 > 0) return 0;  /* the wall lies wholly on one side of the line */
        const double o3 = sx * (py - ay) - sy * (px - ax);
        const double o4 = sx * (qy - ay) - sy * (qx - ax);
        touching = o3 * o4 <= 0;
    }
    if (touching && t_out) {
        const double denominator = rx * sy - ry * sx;
        if (denominator == 0) {
            *t_out = 0.0;
        } else {
            const double t = ((ax - px) * sy - (ay - py) * sx) / denominator;
            *t_out = fmin(fmax(t, 0.0), 1.0);
        }
    }
    return touching;
}

static inline Py_ssize_t cell_of(double v, double inverse, Py_ssize_t count)
{
    /* As _march._cells: truncate, then clamp to the grid (edge cells reach to infinity). */
    const double scaled = v * inverse;
    if (!(scaled > 0)) return 0;  /* also NaN */
    if (scaled >= (double)count) return count - 1;
    Py_ssize_t c = (Py_ssize_t)scaled;
    return c < count ? c : count - 1;
}

/* Parameter t at which p->q leaves column/row `c` along one axis (inf if it never does);
 * `inverse` is 1 / (the segment's extent along that axis). */
static inline double leave_at(Py_ssize_t c, int step, Py_ssize_t count, double cell,
                              double p, double inverse)
{
    if (step > 0) return c + 1 < count ? (((double)(c + 1)) * cell - p) * inverse : INFINITY;
    if (step < 0) return c > 0 ? (((double)c) * cell - p) * inverse : INFINITY;
    return INFINITY;
}

/*
 * Walk the cells that p->q crosses, nearest first, testing the walls bucketed there.
 * Returns the touch parameter (any touch, reported as 0, or with `nearest` the nearest
 * one) and its wall through *wall_out; INFINITY and -1 when nothing touches.
 *
 * Walls are bucketed by their bounding boxes widened by a hair (see build_wall_grid), so
 * a touch point within that hair of a cell's edge finds its wall in either cell, and the
 * rounding of the walk cannot lose one. The walk takes exactly |dcx| + |dcy| steps from
 * the start cell to the end cell, so it always ends where the segment does.
 */
static double walk(const Grid *g, double px, double py, double qx, double qy, int nearest,
                   Py_ssize_t *wall_out)
{
    const double dx = qx - px, dy = qy - py;
    Py_ssize_t cx = cell_of(px, g->inverse, g->columns), cy = cell_of(py, g->inverse, g->rows);
    const Py_ssize_t ex = cell_of(qx, g->inverse, g->columns);
    const Py_ssize_t ey = cell_of(qy, g->inverse, g->rows);
    const int step_x = ex > cx ? 1 : (ex < cx ? -1 : 0);
    const int step_y = ey > cy ? 1 : (ey < cy ? -1 : 0);
    Py_ssize_t steps = (ex - cx) * step_x + (ey - cy) * step_y;
    const double inv_x = step_x ? 1.0 / dx : 0.0, inv_y = step_y ? 1.0 / dy : 0.0;
    double best = INFINITY;
    Py_ssize_t best_wall = -1;
    for (;;) {
        const Py_ssize_t c = cy * g->columns + cx;
        for (Py_ssize_t k = g->cell_start[c]; k < g->cell_start[c + 1]; k++) {
            const Py_ssize_t w = g->cell_walls[k];
            double t;
            if (touches(g, px, py, qx, qy, w, nearest ? &t : NULL)) {
                if (!nearest) {
                    *wall_out = w;
                    return 0.0;
                }
                if (t < best) {
                    best = t;
                    best_wall = w;
                }
            }
        }
        if (steps-- == 0) break;
        if (!nearest && (cx == ex || cy == ey)) {
            /* One axis is done: no choice to make and no distance to keep. */
            if (cx == ex) cy += step_y;
            else cx += step_x;
            continue;
        }
        const double tx = cx == ex ? INFINITY : leave_at(cx, step_x, g->columns, g->cell, px, inv_x);
        const double ty = cy == ey ? INFINITY : leave_at(cy, step_y, g->rows, g->cell, py, inv_y);
        /* Every touch still ahead lies beyond the edge of this cell. */
        if (nearest && best <= fmin(tx, ty)) break;
        if (cy == ey || (cx != ex && tx <= ty)) cx += step_x;
        else cy += step_y;
    }
    *wall_out = best_wall;
    return best;
}

/* ---------------------------------------------------------------- argument plumbing -- */

typedef struct {
    Py_buffer views[16];
    int count;
} Views;

static void release(Views *v)
{
    for (int i = 0; i < v->count; i++) PyBuffer_Release(&v->views[i]);
    v->count = 0;
}

/* A C-contiguous buffer of `itemsize`-byte items; writable when asked. NULL on error. */
static void *take(Views *v, PyObject *object, Py_ssize_t itemsize, int writable,
                  Py_ssize_t *length, const char *name)
{
    Py_buffer *view = &v->views[v->count];
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) != 0) return NULL;
    v->count++;
    if (view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: items of %zd bytes expected, not %zd", name,
                     itemsize, view->itemsize);
        return NULL;
    }
    *length = view->len / itemsize;
    return view->buf;
}

/* Parse (x1, y1, x2, y2, cell_start, cell_walls, columns, rows, cell) into a Grid. */
static int take_grid(Views *v, PyObject *const *args, Grid *g)
{
    Py_ssize_t walls, n, cells, listed;
    g->x1 = take(v, args[0], sizeof(double), 0, &walls, "x1");
    if (!g->x1) return -1;
    const double **ends[3] = {&g->y1, &g->x2, &g->y2};
    for (int i = 0; i < 3; i++) {
        *ends[i] = take(v, args[1 + i], sizeof(double), 0, &n, "wall ends");
        if (!*ends[i]) return -1;
        if (n != walls) {
            PyErr_SetString(PyExc_ValueError, "wall end arrays differ in length");
            return -1;
        }
    }
    g->cell_start = take(v, args[4], sizeof(Py_ssize_t), 0, &cells, "cell_start");
    if (!g->cell_start) return -1;
    g->cell_walls = take(v, args[5], sizeof(Py_ssize_t), 0, &listed, "cell_walls");
    if (!g->cell_walls) return -1;
    g->columns = PyLong_AsSsize_t(args[6]);
    g->rows = PyLong_AsSsize_t(args[7]);
    g->cell = PyFloat_AsDouble(args[8]);
    if (PyErr_Occurred()) return -1;
    if (g->columns < 1 || g->rows < 1 || g->columns > (PY_SSIZE_T_MAX - 1) / g->rows ||
        cells != g->columns * g->rows + 1 || !(g->cell > 0)) {
        PyErr_SetString(PyExc_ValueError, "inconsistent wall grid");
        return -1;
    }
    if (g->cell_start[0] != 0 || g->cell_start[cells - 1] != listed) {
        PyErr_SetString(PyExc_ValueError, "cell_start does not cover cell_walls");
        return -1;
    }
    for (Py_ssize_t c = 0; c + 1 < cells; c++) {
        if (g->cell_start[c] > g->cell_start[c + 1]) {
            PyErr_SetString(PyExc_ValueError, "cell_start must not decrease");
            return -1;
        }
    }
    for (Py_ssize_t k = 0; k < listed; k++) {
        if (g->cell_walls[k] < 0 || g->cell_walls[k] >= walls) {
            PyErr_SetString(PyExc_ValueError, "cell_walls names a wall that does not exist");
            return -1;
        }
    }
    g->inverse = 1.0 / g->cell;
    return 0;
}

#define GRID_ARGS 9

/* Four equally long float64 arrays (x and y of two ends per item) from args[0..3]. */
static int take_ends(Views *v, PyObject *const *args, const double *coords[4],
                     Py_ssize_t *count, const char *name)
{
    Py_ssize_t n;
    for (int i = 0; i < 4; i++) {
        coords[i] = take(v, args[i], sizeof(double), 0, i ? &n : count, name);
        if (!coords[i]) return -1;
        if (i && n != *count) {
            PyErr_Format(PyExc_ValueError, "%s: coordinate arrays differ in length", name);
            return -1;
        }
    }
    return 0;
}

/* first_hits(*grid, sx, sy, ex, ey, nearest, out_t, out_wall) */
static PyObject *first_hits(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != GRID_ARGS + 7) {
        PyErr_SetString(PyExc_TypeError, "first_hits takes 16 arguments");
        return NULL;
    }
    Views v = {.count = 0};
    Grid g;
    Py_ssize_t count, n;
    const double *coords[4];
    double *out_t;
    Py_ssize_t *out_wall;
    int nearest;
    if (take_grid(&v, args, &g) != 0) goto fail;
    if (take_ends(&v, args + GRID_ARGS, coords, &count, "segments") != 0) goto fail;
    nearest = PyObject_IsTrue(args[GRID_ARGS + 4]);
    if (nearest < 0) goto fail;
    out_t = take(&v, args[GRID_ARGS + 5], sizeof(double), 1, &n, "out_t");
    if (!out_t) goto fail;
    Py_ssize_t n_wall;
    out_wall = take(&v, args[GRID_ARGS + 6], sizeof(Py_ssize_t), 1, &n_wall, "out_wall");
    if (!out_wall) goto fail;
    if (n < count || n_wall < count) {
        PyErr_SetString(PyExc_ValueError, "output arrays too short");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        out_t[i] = walk(&g, coords[0][i], coords[1][i], coords[2][i], coords[3][i], nearest,
                        &out_wall[i]);
    }
    Py_END_ALLOW_THREADS
    release(&v);
    Py_RETURN_NONE;
fail:
    release(&v);
    return NULL;
}

/* Sight corners of a unit square, as _CORNER_OFFSETS in los.py (inset 2**-10). */
#define INSET (1.0 / 1024.0)
static const double CORNER[4][2] = {
    {INSET, INSET}, {1 - INSET, INSET}, {1 - INSET, 1 - INSET}, {INSET, 1 - INSET}};
/* Walls that blocked recent lines, tried before walking the next line: nearby lines are
 * mostly blocked by the same few walls, and one touch test is far cheaper than a walk.
 * The list is kept most recently useful first. */
#define REMEMBERED 6
typedef struct {
    Py_ssize_t walls[REMEMBERED];
    int known;
} Blockers;

static inline void to_front(Blockers *b, int from, Py_ssize_t wall)
{
    for (int r = from; r > 0; r--) b->walls[r] = b->walls[r - 1];
    b->walls[0] = wall;
}

/* Whether a remembered wall touches p->q (the one that does moves to the front). */
static inline int recalled(const Grid *g, Blockers *b, double px, double py, double qx,
                           double qy)
{
    for (int r = 0; r < b->known; r++) {
        const Py_ssize_t wall = b->walls[r];
        if (touches(g, px, py, qx, qy, wall, NULL)) {
            to_front(b, r, wall);
            return 1;
        }
    }
    return 0;
}

static inline void remember(Blockers *b, Py_ssize_t wall)
{
    if (b->known < REMEMBERED) b->known++;
    to_front(b, b->known - 1, wall);
}

/* The strip a unit square sweeps from the centre of square a to the centre of square b. */
typedef struct {
    double cx, cy;  /* the centre of a */
    double ux, uy;  /* unit direction from a to b */
    double width;   /* half the strip's width, with a little slack */
    double length;  /* from centre to centre */
} Strip;

static Strip strip_between(double ax, double ay, double bx, double by)
{
    Strip s;
    const double dx = bx - ax, dy = by - ay;
    s.length = hypot(dx, dy);
    s.cx = ax + 0.5;
    s.cy = ay + 0.5;
    s.ux = dx / s.length;
    s.uy = dy / s.length;
    s.width = 0.5 * (fabs(s.ux) + fabs(s.uy)) + 1e-6;
    return s;
}

/*
 * Whether wall w runs right across the strip between the squares, as _march.cuts_between:
 * from beyond one side to beyond the other, crossing it more than half a square's reach
 * from either centre. Such a wall meets all 16 corner lines, so none needs testing.
 */
static int cuts(const Grid *g, const Strip *s, Py_ssize_t w)
{
    const double x1 = g->x1[w] - s->cx, y1 = g->y1[w] - s->cy;
    const double x2 = g->x2[w] - s->cx, y2 = g->y2[w] - s->cy;
    const double side_1 = s->ux * y1 - s->uy * x1, side_2 = s->ux * y2 - s->uy * x2;
    const double width = s->width;
    if (!((side_1 > width && side_2 < -width) || (side_1 < -width && side_2 > width))) return 0;
    const double along_1 = s->ux * x1 + s->uy * y1, along_2 = s->ux * x2 + s->uy * y2;
    const double slope = (along_2 - along_1) / (side_2 - side_1);
    const double at_one = along_1 + slope * (width - side_1);
    const double at_other = along_1 + slope * (-width - side_1);
    return fmin(at_one, at_other) > width && fmax(at_one, at_other) < s->length - width;
}

/* Whether unit square a (top-left corner) sees unit square b: some corner line of the 16
 * is touched by no wall. */
static int pair_sees(const Grid *g, double ax, double ay, double bx, double by)
{
    if (ax == bx && ay == by) return 1;
    const Strip strip = strip_between(ax, ay, bx, by);
    Blockers recent = {.known = 0};
    for (int k = 0; k < 16; k++) {
        const double px = ax + CORNER[k / 4][0], py = ay + CORNER[k / 4][1];
        const double qx = bx + CORNER[k % 4][0], qy = by + CORNER[k % 4][1];
        if (recalled(g, &recent, px, py, qx, qy)) continue;
        Py_ssize_t wall;
        walk(g, px, py, qx, qy, 0, &wall);
        if (wall < 0) return 1;
        if (cuts(g, &strip, wall)) return 0;
        remember(&recent, wall);
    }
    return 0;
}

/* squares_see(*grid, ax, ay, bx, by, out) with out a uint8 array */
static PyObject *squares_see(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != GRID_ARGS + 5) {
        PyErr_SetString(PyExc_TypeError, "squares_see takes 14 arguments");
        return NULL;
    }
    Views v = {.count = 0};
    Grid g;
    Py_ssize_t count, n;
    const double *coords[4];
    unsigned char *out;
    if (take_grid(&v, args, &g) != 0) goto fail;
    if (take_ends(&v, args + GRID_ARGS, coords, &count, "squares") != 0) goto fail;
    out = take(&v, args[GRID_ARGS + 4], 1, 1, &n, "out");
    if (!out) goto fail;
    if (n < count) {
        PyErr_SetString(PyExc_ValueError, "output array too short");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = (unsigned char)pair_sees(&g, coords[0][i], coords[1][i], coords[2][i],
                                          coords[3][i]);
    }
    Py_END_ALLOW_THREADS
    release(&v);
    Py_RETURN_NONE;
fail:
    release(&v);
    return NULL;
}

/* ------------------------------------------------------------ visibility rings -- */

typedef struct {
    double angle;
    Py_ssize_t order;  /* ties in angle keep the order of _rings_numpy (a stable sort) */
    double x, y;
} RingPoint;

static int by_angle(const void *left, const void *right)
{
    const RingPoint *a = left, *b = right;
    if (a->angle != b->angle) return a->angle < b->angle ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

/* Where the ray from (cx, cy) at `angle` stops within `radius`: at the nearest wall. */
static void cast(const Grid *g, double cx, double cy, double angle, double radius,
                 RingPoint *point)
{
    const double fx = cx + radius * cos(angle), fy = cy + radius * sin(angle);
    Py_ssize_t wall;
    double t = walk(g, cx, cy, fx, fy, 1, &wall);
    if (!isfinite(t)) t = 1.0;
    point->angle = angle;
    point->x = cx + (fx - cx) * t;
    point->y = cy + (fy - cy) * t;
}

/*
 * One origin's ring, as visibility._rings_numpy builds it: the vertices within the radius
 * that the origin sees, two rays slipping past each, `arcs` rays around the circle, all
 * in angle order (ties in the order _rings_numpy's stable sort gives). Writes the points
 * to out_x/out_y and returns how many; `ring` is scratch room for 3 * vertices + arcs.
 * `hint[v]` is a wall that hid vertex v from an earlier origin, or -1.
 */
static Py_ssize_t visibility_ring(const Grid *g, const double *vx, const double *vy,
                                  Py_ssize_t vertices, double cx, double cy, double radius,
                                  Py_ssize_t arcs, double slip, RingPoint *ring,
                                  Py_ssize_t *seen, Py_ssize_t *hint, double *out_x,
                                  double *out_y)
{
    Py_ssize_t corners = 0;
    Blockers recent = {.known = 0};
    for (Py_ssize_t v = 0; v < vertices; v++) {
        const double dx = vx[v] - cx, dy = vy[v] - cy;
        if (dx * dx + dy * dy > radius * radius) continue;
        if (fabs(dx) <= 1e-12 && fabs(dy) <= 1e-12) continue;
        /* Stop a hair short of the vertex, so its own walls do not hide it. */
        const double qx = cx + dx * (1 - 1e-9), qy = cy + dy * (1 - 1e-9);
        /* Origins close together (a token's sight corners) mostly lose a vertex behind
         * the same wall: try the one that hid it from the last origin first. */
        if (hint[v] >= 0 && touches(g, cx, cy, qx, qy, hint[v], NULL)) continue;
        if (recalled(g, &recent, cx, cy, qx, qy)) {
            hint[v] = recent.walls[0];
            continue;
        }
        Py_ssize_t wall;
        walk(g, cx, cy, qx, qy, 0, &wall);
        if (wall < 0) {
            seen[corners++] = v;
        } else {
            remember(&recent, wall);
            hint[v] = wall;
        }
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t side = 0; side < 2; side++) {
        for (Py_ssize_t k = 0; k < corners; k++, n++) {
            const Py_ssize_t v = seen[k];
            const double angle = atan2(vy[v] - cy, vx[v] - cx);
            cast(g, cx, cy, side ? angle + slip : angle - slip, radius, &ring[n]);
            ring[n].order = n;
        }
    }
    /* The seen corners themselves (their order numbers come after the arcs'). */
    for (Py_ssize_t k = 0; k < corners; k++, n++) {
        const Py_ssize_t v = seen[k];
        ring[n].angle = atan2(vy[v] - cy, vx[v] - cx);
        ring[n].x = vx[v];
        ring[n].y = vy[v];
        ring[n].order = 2 * corners + arcs + k;
    }
    qsort(ring, (size_t)n, sizeof(RingPoint), by_angle);
    /* The arc rays come in angle order already: merge them in rather than sort them. */
    RingPoint *arc = ring + n;
    const double step = 2 * M_PI / (double)arcs;
    for (Py_ssize_t k = 0; k < arcs; k++) {
        cast(g, cx, cy, -M_PI + (double)k * step, radius, &arc[k]);
        arc[k].order = 2 * corners + k;
    }
    Py_ssize_t i = 0, j = 0, written = 0;
    while (i < n || j < arcs) {
        const RingPoint *next =
            (j == arcs || (i < n && by_angle(&ring[i], &arc[j]) < 0)) ? &ring[i++] : &arc[j++];
        out_x[written] = next->x;
        out_y[written] = next->y;
        written++;
    }
    return written;
}

/* visibility_rings(*grid, vx, vy, ox, oy, radius, arcs, slip, out_x, out_y, out_counts) */
static PyObject *visibility_rings(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != GRID_ARGS + 10) {
        PyErr_SetString(PyExc_TypeError, "visibility_rings takes 19 arguments");
        return NULL;
    }
    Views v = {.count = 0};
    Grid g;
    Py_ssize_t vertices, origins, n, room, counted;
    const double *vx, *vy, *ox, *oy;
    double *out_x, *out_y, radius, slip;
    Py_ssize_t *out_counts, arcs;
    RingPoint *ring = NULL;
    Py_ssize_t *seen = NULL, *hint = NULL;
    int failed = 0;
    if (take_grid(&v, args, &g) != 0) goto fail;
    vx = take(&v, args[GRID_ARGS], sizeof(double), 0, &vertices, "vertices");
    if (!vx) goto fail;
    vy = take(&v, args[GRID_ARGS + 1], sizeof(double), 0, &n, "vertices");
    if (!vy) goto fail;
    if (n != vertices) {
        PyErr_SetString(PyExc_ValueError, "vertex arrays differ in length");
        goto fail;
    }
    ox = take(&v, args[GRID_ARGS + 2], sizeof(double), 0, &origins, "origins");
    if (!ox) goto fail;
    oy = take(&v, args[GRID_ARGS + 3], sizeof(double), 0, &n, "origins");
    if (!oy) goto fail;
    if (n != origins) {
        PyErr_SetString(PyExc_ValueError, "origin arrays differ in length");
        goto fail;
    }
    radius = PyFloat_AsDouble(args[GRID_ARGS + 4]);
    arcs = PyLong_AsSsize_t(args[GRID_ARGS + 5]);
    slip = PyFloat_AsDouble(args[GRID_ARGS + 6]);
    if (PyErr_Occurred()) goto fail;
    if (!(radius > 0) || !isfinite(radius) || arcs < 3) {
        PyErr_SetString(PyExc_ValueError, "radius must be positive and arcs at least 3");
        goto fail;
    }
    out_x = take(&v, args[GRID_ARGS + 7], sizeof(double), 1, &room, "out_x");
    if (!out_x) goto fail;
    out_y = take(&v, args[GRID_ARGS + 8], sizeof(double), 1, &n, "out_y");
    if (!out_y) goto fail;
    out_counts = take(&v, args[GRID_ARGS + 9], sizeof(Py_ssize_t), 1, &counted, "out_counts");
    if (!out_counts) goto fail;
    if (vertices > PY_SSIZE_T_MAX / 8 || arcs > PY_SSIZE_T_MAX / 4 - 3 * vertices) {
        PyErr_SetString(PyExc_ValueError, "too many vertices or arc rays");
        goto fail;
    }
    const Py_ssize_t per_origin = 3 * vertices + arcs;
    if (n != room || counted < origins || (origins > 0 && per_origin > room / origins)) {
        PyErr_SetString(PyExc_ValueError, "output arrays too short");
        goto fail;
    }
    for (Py_ssize_t k = 0; k < vertices; k++) {
        if (!isfinite(vx[k]) || !isfinite(vy[k])) {
            PyErr_SetString(PyExc_ValueError, "vertices must be finite");
            goto fail;
        }
    }
    for (Py_ssize_t k = 0; k < origins; k++) {
        if (!isfinite(ox[k]) || !isfinite(oy[k])) {
            PyErr_SetString(PyExc_ValueError, "origins must be finite");
            goto fail;
        }
    }
    if (origins == 0) goto done;
    ring = PyMem_RawMalloc(sizeof(RingPoint) * (size_t)per_origin);
    seen = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(vertices + 1));
    hint = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(vertices + 1));
    if (!ring || !seen || !hint) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < vertices; k++) hint[k] = -1;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t written = 0;
    for (Py_ssize_t o = 0; o < origins; o++) {
        const Py_ssize_t count =
            visibility_ring(&g, vx, vy, vertices, ox[o], oy[o], radius, arcs, slip, ring, seen,
                            hint, out_x + written, out_y + written);
        out_counts[o] = count;
        written += count;
    }
    Py_END_ALLOW_THREADS
    goto done;
fail:
    failed = 1;
done:
    PyMem_RawFree(ring);
    PyMem_RawFree(seen);
    PyMem_RawFree(hint);
    release(&v);
    if (failed) return NULL;
    Py_RETURN_NONE;
}

/* -------------------------------------------------------------- squares seen -- */

/* Boxes of squares start within this of the origin (exact in a double; no overflow). */
#define LATTICE_LIMIT ((Py_ssize_t)1 << 52)

/* The lattice of sight corners: two points per square along an axis, a hair inside it. */
static inline double lattice(Py_ssize_t low, Py_ssize_t i, double inset)
{
    return (double)(low + i / 2) + ((i & 1) ? 1 - inset : inset);
}

/* First lattice index in [0, count] whose coordinate is >= v (or > v when `after`). */
static Py_ssize_t lattice_search(Py_ssize_t low, Py_ssize_t count, double inset, double v,
                                 int after)
{
    /* Start a little before the answer's square and step on: the comparisons are made
     * against lattice() itself, so rounding cannot put a point on the wrong side. */
    const double guess = floor(v - (double)low);
    if (isnan(guess)) return 0;
    Py_ssize_t i = guess < 1 ? 0 : (guess > (double)count ? count : 2 * ((Py_ssize_t)guess - 1));
    if (i > count) i = count;
    while (i > 0 && (after ? lattice(low, i - 1, inset) > v : lattice(low, i - 1, inset) >= v)) i--;
    while (i < count && (after ? lattice(low, i, inset) <= v : lattice(low, i, inset) < v)) i++;
    return i;
}

/*
 * Scanline fill of each ring over the sight-corner lattice of the box of squares
 * [low_x, low_x + width) x [low_y, low_y + height): marks mask[row * width + column] for
 * every square with a corner inside some ring. As _scanline.lattice_runs: each edge spans
 * the half-open rows [lower end, upper end), so crossings pair up per ring and row.
 * Crossings are bucketed by row (a counting sort), then each row's few are sorted by x.
 */
static int fill_squares(const double *xs, const double *ys, const Py_ssize_t *counts,
                        Py_ssize_t rings, Py_ssize_t low_x, Py_ssize_t low_y, Py_ssize_t width,
                        Py_ssize_t height, double inset, unsigned char *mask)
{
    if (width == 0 || height == 0) return 0;
    const Py_ssize_t rows = 2 * height, columns = 2 * width;
    Py_ssize_t most = 0;
    for (Py_ssize_t r = 0; r < rings; r++) most = counts[r] > most ? counts[r] : most;
    /* Per edge of a ring: its first row and how many rows it spans. */
    Py_ssize_t *span = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(2 * most + 1));
    Py_ssize_t *row_start = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(rows + 1));
    double *crossing = NULL;
    Py_ssize_t capacity = 0;
    if (!span || !row_start) goto fail;
    Py_ssize_t start = 0;
    for (Py_ssize_t r = 0; r < rings; start += counts[r], r++) {
        const Py_ssize_t n = counts[r];
        if (n < 3) continue;
        for (Py_ssize_t j = 0; j <= rows; j++) row_start[j] = 0;
        Py_ssize_t found = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            const Py_ssize_t a = start + k, b = start + (k + 1 == n ? 0 : k + 1);
            const Py_ssize_t first = lattice_search(low_y, rows, inset, fmin(ys[a], ys[b]), 0);
            const Py_ssize_t stop = lattice_search(low_y, rows, inset, fmax(ys[a], ys[b]), 0);
            span[2 * k] = first;
            span[2 * k + 1] = stop;
            for (Py_ssize_t j = first; j < stop; j++) row_start[j + 1]++;
            found += stop - first;
        }
        if (found > capacity) {
            capacity = 2 * found;
            double *grown = PyMem_RawRealloc(crossing, sizeof(double) * (size_t)capacity);
            if (!grown) goto fail;
            crossing = grown;
        }
        for (Py_ssize_t j = 0; j < rows; j++) row_start[j + 1] += row_start[j];
        for (Py_ssize_t k = 0; k < n; k++) {
            const Py_ssize_t a = start + k, b = start + (k + 1 == n ? 0 : k + 1);
            for (Py_ssize_t j = span[2 * k]; j < span[2 * k + 1]; j++) {
                const double y = lattice(low_y, j, inset);
                /* row_start[j] counts up as the row fills; it is reset below. */
                crossing[row_start[j]++] = xs[a] + (y - ys[a]) * (xs[b] - xs[a]) / (ys[b] - ys[a]);
            }
        }
        /* Now row_start[j] is where row j ends, and row j starts where row j - 1 ends. */
        for (Py_ssize_t j = 0; j < rows; j++) {
            const Py_ssize_t from = j ? row_start[j - 1] : 0, to = row_start[j];
            double *x = crossing + from;
            const Py_ssize_t m = to - from;
            for (Py_ssize_t i = 1; i < m; i++) {  /* a handful per row: insertion sort */
                const double value = x[i];
                Py_ssize_t at = i;
                for (; at > 0 && x[at - 1] > value; at--) x[at] = x[at - 1];
                x[at] = value;
            }
            unsigned char *line = mask + (j / 2) * width;
            for (Py_ssize_t i = 0; i + 1 < m; i += 2) {
                const Py_ssize_t enter = lattice_search(low_x, columns, inset, x[i], 0);
                const Py_ssize_t leave = lattice_search(low_x, columns, inset, x[i + 1], 1);
                if (enter < leave) memset(line + enter / 2, 1, (size_t)((leave - 1) / 2 - enter / 2 + 1));
            }
        }
    }
    PyMem_RawFree(span);
    PyMem_RawFree(row_start);
    PyMem_RawFree(crossing);
    return 0;
fail:
    PyMem_RawFree(span);
    PyMem_RawFree(row_start);
    PyMem_RawFree(crossing);
    return -1;
}

/* seen_squares(xs, ys, counts, low_x, low_y, width, height, inset, cx, cy, radius, mask):
 * the squares of the box with a sight corner inside a ring and their centre within
 * `radius` of (cx, cy). */
static PyObject *seen_squares(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "seen_squares takes 12 arguments");
        return NULL;
    }
    Views v = {.count = 0};
    Py_ssize_t points, n, rings, cells, total = 0;
    const double *xs, *ys;
    const Py_ssize_t *counts;
    unsigned char *mask;
    Py_ssize_t low_x, low_y, width, height;
    double inset, centre_x, centre_y, radius;
    int status = 0;
    xs = take(&v, args[0], sizeof(double), 0, &points, "xs");
    if (!xs) goto fail;
    ys = take(&v, args[1], sizeof(double), 0, &n, "ys");
    if (!ys) goto fail;
    counts = take(&v, args[2], sizeof(Py_ssize_t), 0, &rings, "counts");
    if (!counts) goto fail;
    low_x = PyLong_AsSsize_t(args[3]);
    low_y = PyLong_AsSsize_t(args[4]);
    width = PyLong_AsSsize_t(args[5]);
    height = PyLong_AsSsize_t(args[6]);
    inset = PyFloat_AsDouble(args[7]);
    centre_x = PyFloat_AsDouble(args[8]);
    centre_y = PyFloat_AsDouble(args[9]);
    radius = PyFloat_AsDouble(args[10]);
    if (PyErr_Occurred()) goto fail;
    if (n != points) {
        PyErr_SetString(PyExc_ValueError, "xs and ys differ in length");
        goto fail;
    }
    for (Py_ssize_t r = 0; r < rings; r++) {
        if (counts[r] < 0) {
            PyErr_SetString(PyExc_ValueError, "a ring cannot have a negative count of points");
            goto fail;
        }
        if (counts[r] > points - total) {
            PyErr_SetString(PyExc_ValueError, "the rings have more points than given");
            goto fail;
        }
        total += counts[r];
    }
    mask = take(&v, args[11], 1, 1, &cells, "mask");
    if (!mask) goto fail;
    if (width < 0 || height < 0 || width > PY_SSIZE_T_MAX / 4 || height > PY_SSIZE_T_MAX / 4 ||
        (height > 0 && width > cells / height) || !(inset > 0 && inset < 0.5) ||
        low_x > LATTICE_LIMIT || low_x < -LATTICE_LIMIT || low_y > LATTICE_LIMIT ||
        low_y < -LATTICE_LIMIT) {
        PyErr_SetString(PyExc_ValueError, "inconsistent rings, box or mask");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    status = fill_squares(xs, ys, counts, rings, low_x, low_y, width, height, inset, mask);
    if (status == 0) {
        /* As the NumPy path: a square counts when its centre lies within the radius. */
        for (Py_ssize_t row = 0; row < height; row++) {
            const double dy = (double)(low_y + row) + 0.5 - centre_y;
            for (Py_ssize_t column = 0; column < width; column++) {
                const double dx = (double)(low_x + column) + 0.5 - centre_x;
                if (!(dx * dx + dy * dy <= radius * radius)) mask[row * width + column] = 0;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (status != 0) {
        PyErr_NoMemory();
        goto fail;
    }
    release(&v);
    Py_RETURN_NONE;
fail:
    release(&v);
    return NULL;
}

static PyMethodDef methods[] = {
    {"first_hits", (PyCFunction)(void (*)(void))first_hits, METH_FASTCALL,
     "Walk segments through the wall grid; write each one's touch t and wall."},
    {"squares_see", (PyCFunction)(void (*)(void))squares_see, METH_FASTCALL,
     "Line of sight between pairs of unit squares (any corner to any corner)."},
    {"visibility_rings", (PyCFunction)(void (*)(void))visibility_rings, METH_FASTCALL,
     "The outline of what each origin sees within a radius, in angle order."},
    {"seen_squares", (PyCFunction)(void (*)(void))seen_squares, METH_FASTCALL,
     "Mark the squares of a box with a sight corner inside one of the rings."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.geometry._kernel",
    "Compiled sight kernel (see _kernel.c); _march.py holds the NumPy reference.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
