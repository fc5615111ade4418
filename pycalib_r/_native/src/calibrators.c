/* SPDX-License-Identifier: GPL-3.0-or-later
 * Derived from: R 4.2.2 src/library/stats/src/family.c (logit_linkinv, logit_mu_eta,
 *   binomial_dev_resids) (GPL-2-or-later), (c) The R Core Team
 * Derived from: R 4.2.2 src/appl/optim.c (vmmin) (GPL-2-or-later), (c) The R Core Team
 * Derived from: reference BLAS 3.10 as R 4.2.2 ships it in src/extra/blas (ddot, daxpy,
 *   dscal, dnrm2 with Blue's thresholds) (modified BSD), (c) Univ. of Tennessee,
 *   Univ. of California Berkeley, Univ. of Colorado Denver and NAG Ltd.
 * isoreg's pooling and outputs are the package's own integer algorithm, which
 * gives the values of R's stats/src/isoreg.c for 0/1 labels (no code of it).
 *
 * The calibrators' inner loops: glm.fit's binomial IRLS (the family's C
 * code and the reference BLAS loops of LINPACK's QR), isoreg's pooling for
 * 0/1 labels and its outputs, cal_isotonic's tie runs, and vmmin's BFGS
 * direction and update.
 *
 * Each loop performs, element by element and in the same order, the IEEE
 * operations of the numpy expression it stands for (the twins in
 * calibrators/_glm.py, _linpack.py, _isotonic.py, _optim.py); exp, log and
 * sqrt are the C library's, as R's. No sum here is R's long-double sum():
 * those stay with their callers. tests/native/test_native_calibrators.py compares
 * every kernel with its twin.
 */
#include "pcr.h"
#include <math.h>

/* Elementwise loops of divisions and square roots are cloned for AVX-512 and
 * AVX2 and picked at load time (glibc's ifunc): IEEE division and sqrt are
 * correctly rounded at every vector width, and -ffp-contract=off keeps
 * every product and sum apart, so each clone gives the same bits
 * (tests/native/test_native_calibrators.py runs whichever this CPU picks). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define PCR_VEC_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PCR_VEC_CLONES
#endif

/* --- reference BLAS (strided, as the Fortran loops with incx) --------------- */

PCR_API double pcr_ddot(const double *a, i64 sa, const double *b, i64 sb, i64 n)
{
    double s = 0.0;
    for (i64 i = 0; i < n; i++) s += a[i * sa] * b[i * sb];
    return s;
}

/* y <- y + t * x in place. */
PCR_API void pcr_axpy(double t, const double *x, i64 sx, double *y, i64 sy, i64 n)
{
    if (sx == 1 && sy == 1) {
        for (i64 i = 0; i < n; i++) y[i] = y[i] + t * x[i];
        return;
    }
    for (i64 i = 0; i < n; i++) y[i * sy] = y[i * sy] + t * x[i * sx];
}

/* x <- c * x in place. */
PCR_API void pcr_scal(double c, double *x, i64 sx, i64 n)
{
    if (sx == 1) {
        for (i64 i = 0; i < n; i++) x[i] = c * x[i];
        return;
    }
    for (i64 i = 0; i < n; i++) x[i * sx] = c * x[i * sx];
}

/* Blue's thresholds of reference BLAS 3.10+ dnrm2. */
#define TSML 0x1p-511
#define TBIG 0x1p486

/* sqrt(sum(|v|^2)) added in order: dnrm2 when no element is above Blue's big
 * threshold nor below the small one; *odd says the scaled pass is needed. */
PCR_API double pcr_nrm2_unscaled(const double *v, i64 sv, i64 n, int *odd)
{
    double s = 0.0;
    int o = 0;
    for (i64 i = 0; i < n; i++) {
        double a = fabs(v[i * sv]);
        if (a > TBIG || a < TSML) o = 1;
        s += a * a;
    }
    *odd = o;
    return sqrt(s);
}

/* --- binomial family, logit link -------------------------------------------- */

/* exp(pmin(pmax(eta, -700), 700)); NaN stays NaN, as with np.clip. */
PCR_API void pcr_exp_eta(const double *eta, double *out, i64 n)
{
    for (i64 i = 0; i < n; i++) {
        double v = eta[i];
        if (v < -700.0)
            v = -700.0;
        else if (v > 700.0)
            v = 700.0;
        out[i] = exp(v);
    }
}

/* The branches are selects (every e[i] is read), so that the loop vectorises. */
PCR_API PCR_VEC_CLONES void pcr_linkinv(const double *restrict eta, const double *restrict e, double *restrict out,
                         i64 n, double mthresh, double thresh, double dbl_eps, double inveps)
{
    for (i64 i = 0; i < n; i++) {
        double v = eta[i], ei = e[i];
        double tmp = v < mthresh ? dbl_eps : (v > thresh ? inveps : ei);
        out[i] = tmp / (1.0 + tmp);
    }
}

PCR_API PCR_VEC_CLONES void pcr_mu_eta(const double *restrict eta, const double *restrict e, double *restrict out,
                        i64 n, double mthresh, double thresh, double dbl_eps)
{
    for (i64 i = 0; i < n; i++) {
        double v = eta[i], ei = e[i];
        double opexp = 1.0 + ei;
        double val = ei / (opexp * opexp);
        out[i] = (v > thresh || v < mthresh) ? dbl_eps : val;
    }
}

/* 2 * wt * (y_log_y(y, mu) + y_log_y(1 - y, 1 - mu)), y_log_y(a, m) =
 * a * log(a / m) where a != 0, else 0. The twin takes every logarithm and
 * then drops those where a == 0; here they are not taken (the same values,
 * half the log calls for 0/1 responses). buf is unused (kept for the
 * twin's signature). */
PCR_API void pcr_dev_resids(const double *y, const double *mu, const double *wt, double *out,
                            double *buf, i64 n)
{
    (void)buf;
    for (i64 i = 0; i < n; i++) {
        double yi = y[i];
        double a = yi != 0.0 ? yi * log(yi / mu[i]) : 0.0;
        double yc = 1.0 - yi;
        double b = yc != 0.0 ? yc * log(yc / (1.0 - mu[i])) : 0.0;
        out[i] = (2.0 * wt[i]) * (a + b);
    }
}

/* IRLS's working response and weights: z = eta + (y - mu) / mu.eta,
 * w = sqrt(weights * mu.eta^2 / (mu * (1 - mu))). */
PCR_API PCR_VEC_CLONES void pcr_working(const double *restrict eta, const double *restrict y, const double *restrict mu,
                         const double *restrict d, const double *restrict weights, double *restrict z,
                         double *restrict w, i64 n)
{
    for (i64 i = 0; i < n; i++) {
        double m = mu[i], di = d[i];
        z[i] = eta[i] + (y[i] - m) / di;
        w[i] = sqrt((weights[i] * (di * di)) / (m * (1.0 - m)));
    }
}

/* dev.resids for 0/1 responses and unit weights: 2 * log(1 / mu) on the rows
 * i1 (y = 1), 2 * log(1 / (1 - mu)) on i0 (the term R adds to an exact 0 is
 * left out). */
PCR_API void pcr_dev_resids01(const double *mu, const int64_t *i1, i64 n1, const int64_t *i0, i64 n0,
                              double *out, i64 n)
{
    for (i64 j = 0; j < n1; j++) {
        i64 k = i1[j];
        out[k] = log(1.0 / mu[k]);
    }
    for (i64 j = 0; j < n0; j++) {
        i64 k = i0[j];
        out[k] = log(1.0 / (1.0 - mu[k]));
    }
    for (i64 k = 0; k < n; k++) out[k] = 2.0 * out[k];
}

/* --- isoreg for 0/1 labels ------------------------------------------------------ */

/* One run (label v, length c) onto the stack of blocks; returns the new top.
 * Pool while the previous block's mean is >= this block's (integers:
 * sums * counts stays below n^2). */
static inline i64 pool(int64_t v, int64_t c, int64_t *sums, int64_t *counts, i64 top)
{
    int64_t s = v * c;
    while (top > 0 && sums[top - 1] * c >= s * counts[top - 1]) {
        top--;
        s += sums[top];
        c += counts[top];
    }
    sums[top] = s;
    counts[top] = c;
    return top + 1;
}

/* Pool runs (label values[r] repeated lengths[r] times) into blocks of
 * strictly increasing means; returns the number of blocks. */
PCR_API i64 pcr_pava_runs(const int64_t *values, const int64_t *lengths, i64 nruns, int64_t *sums,
                          int64_t *counts)
{
    i64 top = 0;
    for (i64 r = 0; r < nruns; r++) top = pool(values[r], lengths[r], sums, counts, top);
    return top;
}

/* pava_runs on the runs of the labels y, found in the same pass. */
PCR_API i64 pcr_pava_labels(const int64_t *restrict y, i64 n, int64_t *restrict sums,
                            int64_t *restrict counts)
{
    if (n == 0) return 0;
    i64 top = 0;
    int64_t v = y[0], c = 1;
    for (i64 i = 1; i < n; i++) {
        if (y[i] == v) {
            c++;
        } else {
            top = pool(v, c, sums, counts, top);
            v = y[i];
            c = 1;
        }
    }
    return pool(v, c, sums, counts, top);
}

/* isoreg's yf, yc and iKnots from the pooled blocks in one pass: yf the
 * block's sums / counts, yc the running sum of the labels, position i
 * (1-based) a knot when the block's prefix sum lies on its line. Returns the
 * number of knots. */
PCR_API i64 pcr_isoreg_fill(const int64_t *restrict y, const int64_t *restrict sums,
                            const int64_t *restrict counts, i64 nblocks, double *restrict yf,
                            double *restrict yc, int64_t *restrict knots)
{
    i64 pos = 0, m = 0;
    int64_t cy = 0;
    yc[0] = 0.0;
    for (i64 b = 0; b < nblocks; b++) {
        int64_t c = counts[b], s = sums[b];
        double v = (double)s / (double)c;
        /* (cy - base) * c == s * (pos - known), both sides kept as running
         * integer sums (exact: below n^2), without the two products. */
        int64_t lhs = 0, rhs = 0;
        for (int64_t t = 0; t < c; t++) {
            int64_t yi = y[pos];
            cy += yi;
            lhs += yi * c;
            rhs += s;
            yf[pos] = v;
            pos++;
            yc[pos] = (double)cy;
            if (lhs == rhs) knots[m++] = pos;
        }
    }
    return m;
}

/* The runs of equal x (sorted): each run's last x, its first fitted value,
 * and the indices of runs whose fitted values are not all equal.
 * io = {runs, varying runs} out. */
PCR_API void pcr_tie_runs(const double *restrict x, const double *restrict fitted, i64 n,
                          double *restrict thresholds, double *restrict values, int64_t *restrict varying,
                          i64 *restrict io)
{
    i64 r = 0, nv = 0, start = 0;
    for (i64 i = 0; i < n; i++) {
        if (i == n - 1 || x[i + 1] != x[i]) {
            thresholds[r] = x[i];
            double v0 = fitted[start];
            values[r] = v0;
            for (i64 j = start + 1; j <= i; j++) {
                if (fitted[j] != v0) {
                    varying[nv++] = r;
                    break;
                }
            }
            r++;
            start = i + 1;
        }
    }
    io[0] = r;
    io[1] = nv;
}

/* --- vmmin (BFGS) on the lower triangle of B (n x n, row-major) --------------------- */

/* t = -B g; returns gradproj = sum(t * g), as R's loop. */
PCR_API double pcr_bfgs_direction(const double *B, const double *g, double *t, i64 n)
{
    double gradproj = 0.0;
    for (i64 i = 0; i < n; i++) {
        double s = 0.0;
        for (i64 j = 0; j <= i; j++) s -= B[i * n + j] * g[j];
        for (i64 j = i + 1; j < n; j++) s -= B[j * n + i] * g[j];
        t[i] = s;
        gradproj += s * g[i];
    }
    return gradproj;
}

/* R's rank-two update of the lower triangle of B (D1 > 0). */
PCR_API void pcr_bfgs_update(double *B, const double *t, const double *c, double *X, double D1, i64 n)
{
    double D2 = 0.0;
    for (i64 i = 0; i < n; i++) {
        double s = 0.0;
        for (i64 j = 0; j <= i; j++) s += B[i * n + j] * c[j];
        for (i64 j = i + 1; j < n; j++) s += B[j * n + i] * c[j];
        X[i] = s;
        D2 += s * c[i];
    }
    D2 = 1.0 + D2 / D1;
    for (i64 i = 0; i < n; i++)
        for (i64 j = 0; j <= i; j++) B[i * n + j] += (D2 * t[i] * t[j] - X[i] * t[j] - t[i] * X[j]) / D1;
}

/* B to the identity (R's restart). */
PCR_API void pcr_bfgs_reset(double *B, i64 n)
{
    for (i64 i = 0; i < n; i++) {
        for (i64 j = 0; j < n; j++) B[i * n + j] = 0.0;
        B[i * n + i] = 1.0;
    }
}
