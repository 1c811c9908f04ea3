/* The floor of obstructed: each segment p->q against placed outlines; touching counts, and
   within the tolerance of an outline is touching. An outline whose box (grown by the
   tolerance) the segment's box misses, or whose disk (centre, radius: boxes[4:7]) the
   segment passes 1e-3 mm beyond, is clear; edges whose box lies more than twice the
   tolerance from the segment's box can neither meet it nor come within the tolerance. */
#include "floors.h"

static inline double point_segment2(double x, double y, double ax, double ay, double bx, double by) {
    double ex = bx - ax, ey = by - ay, l2 = ex * ex + ey * ey;
    double t = l2 <= 0.0 ? 0.0 : ((x - ax) * ex + (y - ay) * ey) / l2;
    t = dmin(1.0, dmax(0.0, t));
    double dx = x - (ax + t * ex), dy = y - (ay + t * ey);
    return dx * dx + dy * dy;
}

static bool meets_ring(double px, double py, double qx, double qy, const double *w, int64_t lo,
                       int64_t hi, const double *box) {
    bool point = px == qx && py == qy;
    double m = 2.0 * EPS, lx = dmin(px, qx) - m, hx = dmax(px, qx) + m;
    double ly = dmin(py, qy) - m, hy = dmax(py, qy) + m, best = INFINITY;
    for (int64_t v = lo; v < hi; v++) {
        int64_t u = v + 1 < hi ? v + 1 : lo;
        double ax = w[2 * v], ay = w[2 * v + 1], bx = w[2 * u], by = w[2 * u + 1];
        if (dmax(ax, bx) < lx || dmin(ax, bx) > hx || dmax(ay, by) < ly || dmin(ay, by) > hy)
            continue;
        if (!point && segments_meet(px, py, qx, qy, ax, ay, bx, by)) return true;
        best = dmin(best, point_segment2(px, py, ax, ay, bx, by));
        best = dmin(best, point_segment2(qx, qy, ax, ay, bx, by));
        best = dmin(best, point_segment2(ax, ay, px, py, qx, qy));
    }
    if (best <= EPS * EPS) return true;
    if (px < box[0] || px > box[2] || py < box[1] || py > box[3]) return false;
    return point_in_ring(px, py, w, lo, hi) >= 0; /* wholly inside (on it: met above) */
}

void obstructed(int64_t n, const double *p, const double *q, const double *w,
                const int64_t *offsets, int64_t k_tokens, const double *boxes, bool *out) {
    for (int64_t i = 0; i < n; i++) {
        double px = p[2 * i], py = p[2 * i + 1], qx = q[2 * i], qy = q[2 * i + 1];
        double lx = dmin(px, qx) - EPS, hx = dmax(px, qx) + EPS;
        double ly = dmin(py, qy) - EPS, hy = dmax(py, qy) + EPS;
        bool hit = false;
        for (int64_t k = 0; k < k_tokens && !hit; k++) {
            const double *b = boxes + 7 * k;
            if (hx < b[0] || lx > b[2] || hy < b[1] || ly > b[3]) continue;
            double reach = b[6] + 1e-3;
            if (point_segment2(b[4], b[5], px, py, qx, qy) > reach * reach) continue;
            hit = meets_ring(px, py, qx, qy, w, offsets[k], offsets[k + 1], b);
        }
        out[i] = hit;
    }
}
