/* The floor of distance_band: two rectangles' distance and band per pair of poses. */
#include "floors.h"

/* Squared distance from a corner (x, y) to the rectangle of half sizes hw, hl. */
static inline double corner2(double x, double y, double hw, double hl) {
    double ex = dmax(fabs(x) - hw, 0.0), ey = dmax(fabs(y) - hl, 0.0);
    return ex * ex + ey * ey;
}

void distance_band(int64_t n, const double *restrict a, const double *restrict b, double ahw,
                   double ahl, double bhw, double bhl, const double *restrict edges, int64_t last,
                   bool zero_band, double *restrict out, int64_t *restrict bands) {
    for (int64_t i = 0; i < n; i++) {
        double as, ac, bs, bc;
        sincos_deg(a[3 * i + 2], &as, &ac);
        sincos_deg(b[3 * i + 2], &bs, &bc);
        double dx = b[3 * i] - a[3 * i], dy = b[3 * i + 1] - a[3 * i + 1];
        double cc = ac * bc + as * bs, sn = as * bc - ac * bs;
        double u = dx * as - dy * ac, v = dx * ac + dy * as;
        double ub = dx * bs - dy * bc, vb = dx * bc + dy * bs;
        double acc = fabs(cc), asn = fabs(sn);
        double gap = dmax(dmax(fabs(u) - (ahw + bhw * acc + bhl * asn),
                               fabs(v) - (ahl + bhw * asn + bhl * acc)),
                          dmax(fabs(ub) - (bhw + ahw * acc + ahl * asn),
                               fabs(vb) - (bhl + ahw * asn + ahl * acc)));
        double best = INFINITY;
        for (int c = 0; c < 4; c++) {
            double sx = c & 1 ? 1.0 : -1.0, sy = c & 2 ? 1.0 : -1.0;
            best = dmin(best, corner2(u + sx * bhw * cc + sy * bhl * sn,
                                      v - sx * bhw * sn + sy * bhl * cc, ahw, ahl));
            best = dmin(best, corner2(-ub + sx * ahw * cc - sy * ahl * sn,
                                      -vb + sx * ahw * sn + sy * ahl * cc, bhw, bhl));
        }
        double d = gap > 0.0 ? sqrt(best) : 0.0;
        int64_t k = 1 + (d > edges[0]) + (d > edges[1]) + (d > edges[2]) + (d > edges[3])
                  + (d > edges[4]) + (d > edges[5]);
        out[i] = d;
        bands[i] = zero_band && d <= EPS ? 0 : (k > last ? -1 : k);
    }
}
