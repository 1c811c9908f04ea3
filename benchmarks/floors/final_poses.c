/* The floor of final_poses: one ship-frame move applied to each pose. */
#define _GNU_SOURCE
#include "floors.h"

void final_poses(int64_t n, const double *poses, const double *move, double *out) {
    double dx = move[0], dy = move[1], dh = move[2];
    for (int64_t i = 0; i < n; i++) {
        double s, c;
        sincos(poses[3 * i + 2] * (3.14159265358979323846 / 180.0), &s, &c);
        out[3 * i] = poses[3 * i] + dx * s + dy * c;
        out[3 * i + 1] = poses[3 * i + 1] + dx * -c + dy * s;
        double h = fmod(poses[3 * i + 2] + dh, 360.0);
        h = h < 0.0 ? h + 360.0 : h + 0.0; /* Python's modulo; -0.0 becomes 0.0 */
        out[3 * i + 2] = h >= 360.0 ? 0.0 : h;
    }
}
