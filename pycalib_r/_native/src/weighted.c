/* SPDX-License-Identifier: GPL-3.0-or-later
 * Not derived: the package's own weighted pool-adjacent-violators loop.
 *
 * cal_isotonic(weights = ) pools ordered points with weighted label sums and
 * positive weights. The loop performs the IEEE operations of its numpy twin,
 * calibrators/_weighted.py's weighted_pav (a Python loop), in the same order:
 * a block is merged into its predecessor while prev_sum * w >= s * prev_w,
 * the merged sums and weights each one double addition. So the blocks and
 * their sums are the same bits (tests/calibrators/test_weights_calibrators.py).
 */
#include "pcr.h"

/* Returns the number of blocks; ends[b] is block b's end (exclusive). */
PCR_API i64 pcr_weighted_pav(const double *restrict sums, const double *restrict weights, i64 n,
                             double *restrict bs, double *restrict bw, int64_t *restrict ends)
{
    i64 top = 0;
    for (i64 i = 0; i < n; i++) {
        double s = sums[i], c = weights[i];
        while (top > 0 && bs[top - 1] * c >= s * bw[top - 1]) {
            s += bs[top - 1];
            c += bw[top - 1];
            top--;
        }
        bs[top] = s;
        bw[top] = c;
        ends[top] = i + 1;
        top++;
    }
    return top;
}
