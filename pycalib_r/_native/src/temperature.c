/* SPDX-License-Identifier: GPL-3.0-or-later
 * Derived from: probcal 0.1.0 R/scaling.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
 * Derived from: R 4.2.2 src/main/summary.c (real_mean), src/main/array.c (rowSums) (GPL-2.0-or-later),
 *   (c) The R Core Team
 *
 * Temperature scaling's log loss, evaluated at each of Brent's steps as
 * probcal's R code evaluates it, operation for operation as the numpy twins
 * in calibrators/_temperature.py do (same bits; tests/native/test_native_temperature.py):
 *
 *   binary:     log(clip(plogis(z / T))) for label 1, log1p(-clip(plogis(z / T)))
 *               for label 0, plogis(x) = 1 / (1 + exp(-x));
 *   multiclass: softmax(mat / T): x / T, minus the row's maximum, exp, rowSums
 *               (a long-double sum over the columns, rounded once), the label's
 *               column over it; clip (pmin(pmax(p, eps), 1 - eps)); log.
 *
 * Each row is computed alone, so pieces of rows can run on different cores
 * and give the same terms; the sum or mean over rows stays one sequential
 * long-double pass afterwards, in R's order.
 */
#include "pcr.h"
#include <math.h>

double pcr_glibc_exp(double x);
double pcr_glibc_log(double x);
PCR_API void pcr_exp_block(const double *x, i64 n, double *out);

PCR_API void pcr_binary_temperature_terms(const double *z1, const i64 *i1, i64 m1,
                                          const double *z0, const i64 *i0, i64 m0,
                                          double temperature, double eps, double *out, double *buf)
{
    double hi = 1.0 - eps;
    for (int part = 0; part < 2; part++) {
        const double *zs = part == 0 ? z1 : z0;
        i64 m = part == 0 ? m1 : m0;
        /* One loop per libm function: nearly twice as fast as interleaved calls. */
        for (i64 j = 0; j < m; j++) buf[j] = pcr_glibc_exp(-(zs[j] / temperature));
        for (i64 j = 0; j < m; j++) {
            double p = 1.0 / (1.0 + buf[j]);
            p = p < eps ? eps : p;  /* p is never NaN here */
            buf[j] = p > hi ? hi : p;
        }
        if (part == 0)
            for (i64 j = 0; j < m; j++) out[i1[j]] = pcr_glibc_log(buf[j]);
        else
            for (i64 j = 0; j < m; j++) out[i0[j]] = log1p(-buf[j]);
    }
}

/* Rows per block: each libm function then runs in a loop of its own over the
 * block, and the block's scratch (K x BLOCK doubles) stays in cache. */
#define BLOCK 512

/* terms[i] = log(clip(softmax(mat / T)[i, codes[i]])) for first <= i < last
 * (mat C-contiguous n x k, codes 1-based; scratch: 2 * k * BLOCK doubles).
 * The row's maximum minus itself is an exact 0, for which glibc's exp takes a
 * branch of its own, mispredicted at random positions: each exact zero (of
 * either sign) goes through exp(-1)'s path instead and its result is then
 * replaced by 1.0, exp(+-0) = 1 exactly (C99 Annex F.9.3.1): the bits are
 * those of exp() on every element. With fast_exp the block's exponentials are
 * pcr_exp_block's, glibc's main path vectorised, the same bits. */
PCR_API void pcr_multiclass_temperature_terms(const double *mat, i64 k, const i64 *codes,
                                              double temperature, double eps, double *terms,
                                              double *scratch, i64 first, i64 last, int fast_exp)
{
    double hi = 1.0 - eps;
    double *blk = scratch, *ex = scratch + k * BLOCK;
    for (i64 lo = first; lo < last; lo += BLOCK) {
        i64 up = lo + BLOCK < last ? lo + BLOCK : last;
        i64 nr = up - lo, cnt = nr * k;
        const double *src = mat + lo * k;
        for (i64 q = 0; q < cnt; q++) blk[q] = src[q] / temperature;
        for (i64 i = 0; i < nr; i++) {
            double *r = blk + i * k, m = r[0];
            for (i64 j = 1; j < k; j++)
                if (r[j] > m) m = r[j];
            for (i64 j = 0; j < k; j++) r[j] = r[j] - m;
        }
        double *e;
        if (fast_exp) {
            e = ex;
            pcr_exp_block(blk, cnt, e);
        } else {
            e = blk;
            unsigned char *zero = (unsigned char *)ex;
            for (i64 q = 0; q < cnt; q++) {
                double v = blk[q];
                zero[q] = v == 0.0;
                blk[q] = v == 0.0 ? -1.0 : v;
            }
            for (i64 q = 0; q < cnt; q++) blk[q] = pcr_glibc_exp(blk[q]);
            for (i64 q = 0; q < cnt; q++)
                if (zero[q]) blk[q] = 1.0;
        }
        for (i64 i = 0; i < nr; i++) {
            long double s = 0.0L;
            const double *row = e + i * k;
            for (i64 j = 0; j < k; j++) s += row[j];
            double p = row[codes[lo + i] - 1] / (double)s;
            /* pmin(pmax(p, eps), 1 - eps), a NaN kept as numpy keeps it. */
            if (p < eps) p = eps;
            if (p > hi) p = hi;
            terms[lo + i] = p;
        }
        for (i64 i = lo; i < up; i++) terms[i] = pcr_glibc_log(terms[i]);
    }
}
