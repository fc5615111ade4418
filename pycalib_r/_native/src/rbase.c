/* SPDX-License-Identifier: GPL-3.0-or-later
 * Derived from: R 4.2.2 src/main/summary.c (rsum, real_mean) (GPL-2-or-later),
 *   (c) 1995-2022 The R Core Team
 *
 * R's long-double sum() and mean() of doubles. R accumulates in LDOUBLE, on
 * x86-64 the x87 80-bit type: every partial sum is rounded to a 64-bit
 * significand and the total once to double. gcc's long double is that type,
 * so these loops are R's own; the numpy twins (rbase/_rarith.py, numpy's
 * longdouble) give the same bits.
 */
#include "pcr.h"
#include <math.h>

PCR_API double pcr_ld_seq_sum(const double *x, i64 n)
{
    long double s = 0.0L;
    for (i64 i = 0; i < n; i++) s += x[i];
    return (double)s;
}

/* real_mean: s = sum / n in long double; where (double) s is finite, the
 * long-double mean of the deviations is added. */
PCR_API double pcr_ld_mean(const double *x, i64 n)
{
    long double s = 0.0L;
    for (i64 i = 0; i < n; i++) s += x[i];
    s /= (long double)n;
    if (isfinite((double)s)) {
        long double t = 0.0L;
        for (i64 i = 0; i < n; i++) t += (x[i] - s);
        s += t / (long double)n;
    }
    return (double)s;
}
