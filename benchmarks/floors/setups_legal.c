/* The floor of setups_legal: each setup's tokens placed, the edge limit, then each pair
   more than the spacing limit apart (a vertex near an edge, edges crossing, or nested). */
#include "floors.h"

static inline double point_segment2(double px, double py, double ax, double ay, double ex,
                                    double ey, double inv) {
    double wx = px - ax, wy = py - ay, t = dmin(dmax((wx * ex + wy * ey) * inv, 0.0), 1.0);
    double rx = wx - t * ex, ry = wy - t * ey;
    return rx * rx + ry * ry;
}

/* A vertex of A within reach of an edge of B (only vertices and edges that can be). */
static bool near_pass(const double *w, int64_t alo, int64_t ahi, int64_t blo, int64_t bhi,
                      const double *inv, const double *half, double ax, double ay, double ar,
                      double bx, double by, double br, double reach, int64_t *edges) {
    int count = 0;
    for (int64_t e = blo; e < bhi; e++) {
        int64_t f = e + 1 < bhi ? e + 1 : blo;
        double mx = 0.5 * (w[2 * e] + w[2 * f]) - ax, my = 0.5 * (w[2 * e + 1] + w[2 * f + 1]) - ay;
        double lim = ar + reach + half[e] + 1e-9;
        if (mx * mx + my * my <= lim * lim) edges[count++] = e;
    }
    double vlim = br + reach + 1e-9;
    vlim *= vlim;
    for (int64_t v = alo; v < ahi && count; v++) {
        double px = w[2 * v], py = w[2 * v + 1];
        if ((px - bx) * (px - bx) + (py - by) * (py - by) > vlim) continue;
        for (int k = 0; k < count; k++) {
            int64_t e = edges[k], f = e + 1 < bhi ? e + 1 : blo;
            if (point_segment2(px, py, w[2 * e], w[2 * e + 1], w[2 * f] - w[2 * e],
                               w[2 * f + 1] - w[2 * e + 1], inv[e]) <= reach * reach)
                return true;
        }
    }
    return false;
}

static bool within(const double *w, int64_t alo, int64_t ahi, int64_t blo, int64_t bhi,
                   const double *inv, const double *half, double ax, double ay, double ar,
                   double bx, double by, double br, double reach, int64_t *edges) {
    double dx = bx - ax, dy = by - ay, c2 = dx * dx + dy * dy, apart = ar + br + reach + 1e-9;
    if (c2 > apart * apart) return false;
    if (near_pass(w, alo, ahi, blo, bhi, inv, half, ax, ay, ar, bx, by, br, reach, edges)
        || near_pass(w, blo, bhi, alo, ahi, inv, half, bx, by, br, ax, ay, ar, reach, edges))
        return true;
    for (int64_t e = alo; e < ahi; e++) {
        if (half[e] <= reach) continue;
        int64_t f = e + 1 < ahi ? e + 1 : alo;
        for (int64_t g = blo; g < bhi; g++) {
            if (half[g] <= reach) continue;
            int64_t h = g + 1 < bhi ? g + 1 : blo;
            if (segments_meet(w[2 * e], w[2 * e + 1], w[2 * f], w[2 * f + 1], w[2 * g],
                              w[2 * g + 1], w[2 * h], w[2 * h + 1]))
                return true;
        }
    }
    return c2 <= (ar + br) * (ar + br) + 1e-9
        && (point_in_ring(w[2 * alo], w[2 * alo + 1], w, blo, bhi) >= 0
            || point_in_ring(w[2 * blo], w[2 * blo + 1], w, alo, ahi) >= 0);
}

void setups_legal(int64_t m_setups, int64_t k_tokens, const double *local, const double *mirrored,
                  const int64_t *offsets, const double *inv, const double *inv_m,
                  const double *half, const double *half_m, const double *radii,
                  const double *place, const double *limits, double *w, double *inv_used,
                  double *half_used, int64_t *edges, bool *out) {
    double edge = limits[0], reach = limits[1] + EPS, width = limits[2], height = limits[3];
    for (int64_t m = 0; m < m_setups; m++) {
        bool legal = true;
        for (int64_t k = 0; k < k_tokens && legal; k++) {
            const double *p = place + 4 * (m * k_tokens + k);
            double t = p[2] * (3.14159265358979323846 / 180.0), c = cos(t), s = sin(t);
            bool flip = p[3] != 0.0;
            double lx = INFINITY, ly = INFINITY, hx = -INFINITY, hy = -INFINITY;
            for (int64_t v = offsets[k]; v < offsets[k + 1]; v++) {
                const double *o = flip ? mirrored : local;
                inv_used[v] = flip ? inv_m[v] : inv[v];
                half_used[v] = flip ? half_m[v] : half[v];
                double x = o[2 * v] * c - o[2 * v + 1] * s + p[0];
                double y = o[2 * v] * s + o[2 * v + 1] * c + p[1];
                w[2 * v] = x;
                w[2 * v + 1] = y;
                lx = dmin(lx, x), hx = dmax(hx, x), ly = dmin(ly, y), hy = dmax(hy, y);
            }
            legal = ly - edge > EPS && (height - hy) - edge > EPS && lx - edge > EPS
                 && (width - hx) - edge > EPS;
            if (limits[8] != 0.0)
                legal = legal && limits[4] - lx <= EPS && hx - limits[6] <= EPS
                     && limits[5] - ly <= EPS && hy - limits[7] <= EPS;
        }
        for (int64_t i = 0; i < k_tokens && legal; i++)
            for (int64_t j = i + 1; j < k_tokens && legal; j++) {
                const double *pi = place + 4 * (m * k_tokens + i), *pj = place + 4 * (m * k_tokens + j);
                legal = !within(w, offsets[i], offsets[i + 1], offsets[j], offsets[j + 1],
                                inv_used, half_used, pi[0], pi[1], radii[i], pj[0], pj[1],
                                radii[j], reach, edges);
            }
        out[m] = legal;
    }
}
