/* SPDX-License-Identifier: GPL-3.0-or-later
 * Written from: Vovk, Petej & Fedorova (2015), Large-scale probabilistic prediction with and without validity guarantees (NeurIPS 28, arXiv:1511.00213), section 2 (the method); no code from the venn-abers package
 *
 * The inductive Venn-ABERS predictor's F1 at every distinct calibration
 * score, in integer arithmetic, as the numpy/Python twin in
 * calibrators/_venn_abers.py (_bridge_twin) computes it (same integers;
 * tests/calibrators/test_venn_abers.py).
 *
 * P_j = (X[j], Y[j]), j = 0..k, is the cumulative sum diagram of the k
 * distinct sorted scores (X: rows, Y: ones). With a test point labelled 1
 * tied with score j (1-based), the isotonic fit there is the slope of the
 * lower common tangent (the bridge) of the left set {P_a - (1, 1): a < j}
 * and the right set {P_b: b >= j}. Pass 1 (right to left) keeps, for each b,
 * the next vertex nx[b] of the lower hull of {P_b, ..., P_k}: the hull of a
 * suffix is the chain b, nx[b], nx[nx[b]], ... Pass 2 (left to right) grows
 * the left hull on a stack, finds the tangent from P_r to it by binary
 * search, and moves r forward along the right chain while that lowers the
 * slope; the tangent point r never moves back (F1 is nondecreasing), so the
 * walk is O(k) in all and the searches O(k log k). The bridge's slope is the
 * integer ratio num / den (rows and ones of the pooled block, the test point
 * included); the caller divides once.
 */
#include "pcr.h"

PCR_API void pcr_venn_bridge(const i64 *X, const i64 *Y, i64 k, i64 *num, i64 *den,
                             i64 *nx, i64 *st)
{
    i64 top = -1;
    /* Pass 1: lower hulls of the suffixes; pop the top while it is on or
     * above the segment from P_b to the vertex after it. */
    for (i64 b = k; b >= 1; b--) {
        while (top >= 1) {
            i64 t1 = st[top], t2 = st[top - 1];
            i64 cross = (X[t1] - X[b]) * (Y[t2] - Y[b]) - (Y[t1] - Y[b]) * (X[t2] - X[b]);
            if (cross > 0) break;
            top--;
        }
        nx[b] = top >= 0 ? st[top] : -1;
        st[++top] = b;
    }
    /* Pass 2: the left hull on st (the shift by (1, 1) moves every left
     * point alike, so it is the hull of P_0..P_{i-1}). */
    top = -1;
    i64 r = 1;
    for (i64 i = 1; i <= k; i++) {
        i64 a = i - 1;
        while (top >= 1) {
            i64 t1 = st[top], t2 = st[top - 1];
            i64 cross = (X[t1] - X[t2]) * (Y[a] - Y[t2]) - (Y[t1] - Y[t2]) * (X[a] - X[t2]);
            if (cross > 0) break;
            top--;
        }
        st[++top] = a;
        if (r < i) r = i;
        i64 dy, dx;
        for (;;) {
            /* The first hull position j where moving to j + 1 no longer
             * raises the slope of the line from P_{st[j]} - (1, 1) to P_r. */
            i64 lo = 0, hi = top;
            while (lo < hi) {
                i64 mid = lo + (hi - lo) / 2;
                i64 l0 = st[mid], l1 = st[mid + 1];
                i64 ux = X[r] - X[l0] + 1, uy = Y[r] - Y[l0] + 1;
                i64 vx = X[l1] - X[l0], vy = Y[l1] - Y[l0];
                if (vy * ux < uy * vx) lo = mid + 1; else hi = mid;
            }
            i64 l = st[lo];
            dy = Y[r] - Y[l] + 1;
            dx = X[r] - X[l] + 1;
            i64 b = nx[r];
            if (b >= 0 && (Y[b] - Y[r]) * dx <= dy * (X[b] - X[r])) { r = b; continue; }
            break;
        }
        num[i - 1] = dy;
        den[i - 1] = dx;
    }
}
