/* The floor of in_arc (the wedge arcs, codes 0-5): a target rectangle meets the arc region
   of the attacker (the wedge less the attacker's base), lines grown by the tolerance. */
#include "floors.h"

static inline bool outside_base(double x, double y, double hw, double hl) {
    return fabs(x) >= hw || fabs(y) >= hl;
}

void in_arc(int64_t n, const double *a, const double *b, double hw, double hl, double thw,
            double thl, double half_deg, int64_t arc, bool *out) {
    double sin_half, cos_half;
    sincos_deg(half_deg, &sin_half, &cos_half);
    double s1 = arc == 4 ? 1.0 : (arc == 5 ? -1.0 : ((arc == 0 || arc == 2) ? 1.0 : -1.0));
    double s2 = (arc == 0 || arc == 3) ? 1.0 : -1.0;
    double n1x = arc >= 4 ? 0.0 : -s1 * cos_half, n1y = arc >= 4 ? s1 : s1 * sin_half;
    double n2x = arc >= 4 ? 0.0 : s2 * cos_half, n2y = arc >= 4 ? 0.0 : s2 * sin_half;
    for (int64_t i = 0; i < n; i++) {
        double as, ac, bs, bc;
        sincos_deg(a[3 * i + 2], &as, &ac);
        sincos_deg(b[3 * i + 2], &bs, &bc);
        double dx = b[3 * i] - a[3 * i], dy = b[3 * i + 1] - a[3 * i + 1];
        double u = dx * as - dy * ac, v = dx * ac + dy * as;
        double cc = ac * bc + as * bs, sn = as * bc - ac * bs;
        double xs[4] = {u - thw * cc - thl * sn, u + thw * cc - thl * sn,
                        u + thw * cc + thl * sn, u - thw * cc + thl * sn};
        double ys[4] = {v + thw * sn - thl * cc, v - thw * sn - thl * cc,
                        v - thw * sn + thl * cc, v + thw * sn + thl * cc};
        double g1[4], g2[4], m1 = -INFINITY, m2 = -INFINITY;
        for (int k = 0; k < 4; k++) {
            g1[k] = n1x * xs[k] + n1y * ys[k] + EPS;
            g2[k] = n2x * xs[k] + n2y * ys[k] + EPS;
            m1 = dmax(m1, g1[k]);
            m2 = dmax(m2, g2[k]);
        }
        bool hit = false;
        if (m1 >= 0.0 && m2 >= 0.0) {
            for (int k = 0; k < 4 && !hit; k++)
                hit = g1[k] >= 0.0 && g2[k] >= 0.0 && outside_base(xs[k], ys[k], hw, hl);
            for (int k = 0; k < 4 && !hit; k++) {
                int j = (k + 1) % 4;
                for (int line = 0; line < 2 && !hit; line++) {
                    double gk = line ? g2[k] : g1[k], gj = line ? g2[j] : g1[j];
                    if ((gk < 0.0 && 0.0 < gj) || (gj < 0.0 && 0.0 < gk)) {
                        double t = gk / (gk - gj);
                        double x = xs[k] + t * (xs[j] - xs[k]), y = ys[k] + t * (ys[j] - ys[k]);
                        double other = line ? n1x * x + n1y * y : n2x * x + n2y * y;
                        hit = other >= -EPS && outside_base(x, y, hw, hl);
                    }
                }
            }
        }
        out[i] = hit;
    }
}
