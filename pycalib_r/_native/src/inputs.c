/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One pass over a probability matrix: its checks and its top-label form.
 *
 * pcr_prob_matrix_scan serves check_prob_matrix(): the numpy twin in
 * pycalib_r/inputs/_checks.py makes three passes (min, max, a double row sum
 * by einsum); this reads each row once and returns what those passes find.
 * The decisions are taken in _checks in R's order (finite, range, row sums),
 * and rows near the row-sum tolerance get R's long-double sum there, as on
 * the twin's path: the same decisions.
 *
 * pcr_top_label is R's multiclass_confidence() (_forms.confidence_pair,
 * whose twin takes argmax by blocks of rows): the first maximal column of
 * each row, its value and whether it is the label.
 *
 * The matrix is m x k with strides rs (rows) and cs (columns) in elements:
 * any layout numpy hands over, read in place.
 */
#include "pcr.h"
#include <math.h>
#include <string.h>

#define ONE_BITS 0x3FF0000000000000ULL

static inline uint64_t bits_of(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* (far, near) of a row sum s: 1 where |s - 1| > hi_t, 1 where >= lo_t. Every
 * scan of check_prob_matrix (here and in binned.c) decides by this rule. */
static inline void row_band(double s, double hi_t, double lo_t, i64 *far, i64 *near)
{
    const double d = fabs(s - 1.0);
    *far += d > hi_t;
    *near += d >= lo_t;
}

/* Adds to found: 1 at [0] if some entry is outside [+0, 1] (by its bits: a
 * NaN, a negative number, -0.0 included, or one above 1), and at [1] and [2]
 * the rows whose double row sum (in column order) is farther than hi_t from
 * 1, or at least lo_t. Four rows at a time: four chains of additions. */
static inline __attribute__((always_inline)) void unit_rows(const double *p, i64 m, i64 k, i64 rs, i64 cs,
                                                            double hi_t, double lo_t, i64 *found)
{
    int out = 0;
    i64 far = 0, near = 0;
    i64 i = 0;
    for (; i + 3 < m; i += 4) {
        const double *r0 = p + i * rs, *r1 = r0 + rs, *r2 = r1 + rs, *r3 = r2 + rs;
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        for (i64 j = 0; j < k; j++) {
            const double v0 = r0[j * cs], v1 = r1[j * cs], v2 = r2[j * cs], v3 = r3[j * cs];
            s0 += v0;
            s1 += v1;
            s2 += v2;
            s3 += v3;
            out |= (bits_of(v0) > ONE_BITS) | (bits_of(v1) > ONE_BITS) | (bits_of(v2) > ONE_BITS) |
                   (bits_of(v3) > ONE_BITS);
        }
        row_band(s0, hi_t, lo_t, &far, &near);
        row_band(s1, hi_t, lo_t, &far, &near);
        row_band(s2, hi_t, lo_t, &far, &near);
        row_band(s3, hi_t, lo_t, &far, &near);
    }
    for (; i < m; i++) {
        const double *r0 = p + i * rs;
        double s0 = 0.0;
        for (i64 j = 0; j < k; j++) {
            s0 += r0[j * cs];
            out |= bits_of(r0[j * cs]) > ONE_BITS;
        }
        row_band(s0, hi_t, lo_t, &far, &near);
    }
    found[0] |= out;
    found[1] += far;
    found[2] += near;
}

void pcr_unit_rows_impl(const double *p, i64 m, i64 k, i64 rs, i64 cs, double hi_t, double lo_t, i64 *found)
{
    /* Contiguous rows (the common case) compiled with the column stride known. */
    if (cs == 1)
        unit_rows(p, m, k, rs, 1, hi_t, lo_t, found);
    else
        unit_rows(p, m, k, rs, cs, hi_t, lo_t, found);
}

PCR_API void pcr_unit_rows(const double *p, i64 m, i64 k, i64 rs, i64 cs, double hi_t, double lo_t, i64 *found)
{
    pcr_unit_rows_impl(p, m, k, rs, cs, hi_t, lo_t, found);
}

/* Python's min(a, b) and max(a, b) of two floats: the first unless the
 * second is strictly beyond it. */
static inline double pmin(double a, double b) { return b < a ? b : a; }
static inline double pmax(double a, double b) { return b > a ? b : a; }

/* The scan with the range itself (when some entry is outside [+0, 1]): two
 * rows at a time, each with its own running minimum and maximum. out:
 * (nan, lo, hi) as doubles, counts: (far, near). */
static void range_scan(const double *p, i64 m, i64 k, i64 rs, i64 cs, double tolerance, double margin, double *out,
                       i64 *counts)
{
    const double hi_t = tolerance + margin, lo_t = tolerance - margin;
    double lo0 = INFINITY, lo1 = INFINITY, hi0 = -INFINITY, hi1 = -INFINITY;
    int nan = 0;
    i64 far = 0, near = 0;
    for (i64 i = 0; i + 1 < m; i += 2) {
        const double *r0 = p + i * rs, *r1 = r0 + rs;
        double s0 = 0.0, s1 = 0.0;
        for (i64 j = 0; j < k; j++) {
            const double v0 = r0[j * cs], v1 = r1[j * cs];
            lo0 = v0 < lo0 ? v0 : lo0;
            hi0 = v0 > hi0 ? v0 : hi0;
            lo1 = v1 < lo1 ? v1 : lo1;
            hi1 = v1 > hi1 ? v1 : hi1;
            s0 += v0;
            s1 += v1;
        }
        nan |= (s0 != s0) | (s1 != s1);
        row_band(s0, hi_t, lo_t, &far, &near);
        row_band(s1, hi_t, lo_t, &far, &near);
    }
    if (m % 2) {
        const double *r0 = p + (m - 1) * rs;
        double s0 = 0.0;
        for (i64 j = 0; j < k; j++) {
            const double v0 = r0[j * cs];
            lo0 = v0 < lo0 ? v0 : lo0;
            hi0 = v0 > hi0 ? v0 : hi0;
            s0 += v0;
        }
        nan |= s0 != s0;
        row_band(s0, hi_t, lo_t, &far, &near);
    }
    out[0] = nan;
    out[1] = pmin(lo0, lo1);
    out[2] = pmax(hi0, hi1);
    counts[0] = far;
    counts[1] = near;
}

/* check_prob_matrix's values in one pass: out = (nan, lo, hi) with nan 1
 * when a row sum is NaN (a NaN entry, or infinities of both signs), lo and
 * hi the smallest and largest entry (0 and 1 when every entry is in
 * [+0, 1]: all the checks need); counts = (far, near), the rows whose double
 * row sum (column order) is farther than tolerance + margin from 1, or at
 * least tolerance - margin. */
PCR_API void pcr_prob_matrix_scan(const double *p, i64 m, i64 k, i64 rs, i64 cs, double tolerance, double margin,
                                  double *out, i64 *counts)
{
    i64 found[3] = {0, 0, 0};
    pcr_unit_rows_impl(p, m, k, rs, cs, tolerance + margin, tolerance - margin, found);
    if (!found[0]) {
        out[0] = 0.0;
        out[1] = 0.0;
        out[2] = 1.0;
        counts[0] = found[1];
        counts[1] = found[2];
        return;
    }
    range_scan(p, m, k, rs, cs, tolerance, margin, out, counts);
}

/* Each row's largest entry (the first maximal column on ties, as which.max
 * and numpy's argmax) into confidence, and 1 where that column is the row's
 * class code (1-based) into correct. */
static inline __attribute__((always_inline)) void top_label(const double *p, i64 m, i64 k, i64 rs, i64 cs,
                                                            const i64 *codes, double *confidence, i64 *correct)
{
    /* Two rows at a time: two independent chains of comparisons. Selects,
     * not branches: which column wins is data, not a pattern the branch
     * predictor could learn. */
    i64 i = 0;
    for (; i + 1 < m; i += 2) {
        const double *r0 = p + i * rs, *r1 = r0 + rs;
        double b0 = r0[0], b1 = r1[0];
        i64 a0 = 0, a1 = 0;
        for (i64 j = 1; j < k; j++) {
            const double v0 = r0[j * cs], v1 = r1[j * cs];
            const int g0 = v0 > b0, g1 = v1 > b1;
            b0 = g0 ? v0 : b0;
            a0 = g0 ? j : a0;
            b1 = g1 ? v1 : b1;
            a1 = g1 ? j : a1;
        }
        confidence[i] = b0;
        confidence[i + 1] = b1;
        correct[i] = a0 + 1 == codes[i];
        correct[i + 1] = a1 + 1 == codes[i + 1];
    }
    for (; i < m; i++) {
        const double *r = p + i * rs;
        double best = r[0];
        i64 arg = 0;
        for (i64 j = 1; j < k; j++) {
            const double v = r[j * cs];
            const int gt = v > best;
            best = gt ? v : best;
            arg = gt ? j : arg;
        }
        confidence[i] = best;
        correct[i] = arg + 1 == codes[i];
    }
}

PCR_API void pcr_top_label(const double *p, i64 m, i64 k, i64 rs, i64 cs, const i64 *codes, double *confidence,
                           i64 *correct)
{
    /* Contiguous rows (the common case) compiled with the column stride known. */
    if (cs == 1)
        top_label(p, m, k, rs, 1, codes, confidence, correct);
    else
        top_label(p, m, k, rs, cs, codes, confidence, correct);
}
