/* Shared by the C floors of the kernels (benchmarks/kernels.py): the length tolerance
   and an exact orientation sign (a floating-point filter, then an exact sum). */
#ifndef FLOORS_H
#define FLOORS_H
#include <math.h>
#include <stdint.h>
#include <stdbool.h>

#define EPS 1e-6 /* tabletop.geom.tolerance.EPSILON_MM */
/* max and min of finite numbers (fmax and fmin keep the compiler from vectorising). */
static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double dmin(double a, double b) { return a < b ? a : b; }

#define CCW_BOUND ((3.0 + 16.0 * 0x1p-53) * 0x1p-53)

/* Sign of the exact sum of n terms (Shewchuk's partials). */
static int exact_sign(const double *terms, int n) {
    double partials[32];
    int count = 0;
    for (int k = 0; k < n; k++) {
        double x = terms[k];
        int kept = 0;
        for (int j = 0; j < count; j++) {
            double y = partials[j];
            if (fabs(x) < fabs(y)) { double t = x; x = y; y = t; }
            double hi = x + y, lo = y - (hi - x);
            if (lo != 0.0) partials[kept++] = lo;
            x = hi;
        }
        partials[kept] = x;
        count = kept + 1;
    }
    for (int j = count - 1; j >= 0; j--) {
        if (partials[j] > 0.0) return 1;
        if (partials[j] < 0.0) return -1;
    }
    return 0;
}

static void two_diff(double a, double b, double *x, double *e) {
    *x = a - b;
    double bv = a - *x, av = *x + bv;
    *e = (a - av) + (bv - b);
}

static int orient_exact(double ax, double ay, double bx, double by, double cx, double cy) {
    double p, pl, q, ql, r, rl, s, sl, t[16];
    two_diff(ax, cx, &p, &pl);
    two_diff(by, cy, &q, &ql);
    two_diff(ay, cy, &r, &rl);
    two_diff(bx, cx, &s, &sl);
    double u[8] = {p, p, pl, pl, r, r, rl, rl}, v[8] = {q, ql, q, ql, s, sl, s, sl};
    for (int k = 0; k < 8; k++) {
        double hi = u[k] * v[k], lo = fma(u[k], v[k], -hi); /* exact product */
        double sign = k < 4 ? 1.0 : -1.0;
        t[2 * k] = sign * hi;
        t[2 * k + 1] = sign * lo;
    }
    return exact_sign(t, 16);
}

/* Exact sign of the turn a -> b -> c: 1 left, -1 right, 0 on the line. */
static inline int orient(double ax, double ay, double bx, double by, double cx, double cy) {
    double left = (ax - cx) * (by - cy), right = (ay - cy) * (bx - cx), det = left - right;
    double bound = CCW_BOUND * (fabs(left) + fabs(right));
    if (det > bound) return 1;
    if (-det > bound) return -1;
    if ((left > 0.0 && right <= 0.0) || (left < 0.0 && right >= 0.0) || left == 0.0)
        return det > 0.0 ? 1 : (det < 0.0 ? -1 : 0);
    return orient_exact(ax, ay, bx, by, cx, cy);
}

static inline bool between(double a, double b, double x) {
    return dmin(a, b) <= x && x <= dmax(a, b);
}

/* Whether closed segments pq and ab share a point (exact signs). */
static bool segments_meet(double px, double py, double qx, double qy,
                          double ax, double ay, double bx, double by) {
    int o1 = orient(px, py, qx, qy, ax, ay), o2 = orient(px, py, qx, qy, bx, by);
    if (o1 * o2 > 0) return false;
    int o3 = orient(ax, ay, bx, by, px, py), o4 = orient(ax, ay, bx, by, qx, qy);
    if (o3 * o4 > 0) return false;
    if (o1 || o2 || o3 || o4)
        return (o1 * o2 < 0 && o3 * o4 < 0) || (!o1 && between(px, qx, ax) && between(py, qy, ay))
            || (!o2 && between(px, qx, bx) && between(py, qy, by))
            || (!o3 && between(ax, bx, px) && between(ay, by, py))
            || (!o4 && between(ax, bx, qx) && between(ay, by, qy));
    return dmax(dmin(px, qx), dmin(ax, bx)) <= dmin(dmax(px, qx), dmax(ax, bx))
        && dmax(dmin(py, qy), dmin(ay, by)) <= dmin(dmax(py, qy), dmax(ay, by));
}

/* 1 inside, 0 on the boundary, -1 outside of the ring xy[lo:hi] (exact). */
static int point_in_ring(double x, double y, const double *xy, int64_t lo, int64_t hi) {
    bool inside = false;
    for (int64_t v = lo; v < hi; v++) {
        int64_t w = v + 1 < hi ? v + 1 : lo;
        double ax = xy[2 * v], ay = xy[2 * v + 1], bx = xy[2 * w], by = xy[2 * w + 1];
        if ((y < ay && y < by) || (y > ay && y > by)) continue; /* cannot cross or touch */
        int o = orient(ax, ay, bx, by, x, y);
        if (o == 0 && between(ax, bx, x) && between(ay, by, y)) return 0;
        if ((ay <= y && y < by && o > 0) || (by <= y && y < ay && o < 0)) inside = !inside;
    }
    return inside ? 1 : -1;
}
static const double RAD = 3.14159265358979323846 / 180.0;

/* sin and cos of h degrees: reduced to +-45 degrees about a multiple of 90, two polynomials. */
static inline void sincos_deg(double h, double *sine, double *cosine) {
    double q = rint(h / 90.0), r = (h - 90.0 * q) * RAD, r2 = r * r;
    double s = r * (1.0 + r2 * (-1.0 / 6.0 + r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0
        + r2 * (1.0 / 362880.0 + r2 * (-1.0 / 39916800.0 + r2 * (1.0 / 6227020800.0
        + r2 * (-1.0 / 1307674368000.0))))))));
    double c = 1.0 + r2 * (-1.0 / 2.0 + r2 * (1.0 / 24.0 + r2 * (-1.0 / 720.0
        + r2 * (1.0 / 40320.0 + r2 * (-1.0 / 3628800.0 + r2 * (1.0 / 479001600.0
        + r2 * (-1.0 / 87178291200.0 + r2 * (1.0 / 20922789888000.0))))))));
    double m = q - 4.0 * rint(q * 0.25); /* q modulo 4 as -2 to 2: -1 is 3, -2 is 2 */
    bool odd = m == 1.0 || m == -1.0, half_turn = m == 2.0 || m == -2.0;
    double sn = odd ? c : s, cs = odd ? s : c;
    *sine = half_turn || m == -1.0 ? -sn : sn;
    *cosine = half_turn || m == 1.0 ? -cs : cs;
}

#endif
