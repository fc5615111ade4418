/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loops of the canonical kernel h_ij = exp(-||p_i - p_j|| / h) <u_i, u_j>
 * (pycalib_r/kernel/_canonical.py). The twins are _canonical._kernel_tile_twin
 * and _canonical._block_quadratic_twin: every entry and every sum takes the
 * same operations in the same order (no BLAS, whose reduction order depends
 * on the CPU kernel it picks, and no fused multiply-add: -ffp-contract=off),
 * so both give the same bits on every machine. exp is the C library's, as
 * the twin's _rarith.r_exp (glibc's, bit for bit).
 *
 * Rows are cut into pieces that run on several threads
 * (pycalib_r._native.run_parts): each entry and each (row, replicate) sum is
 * computed alone, so the cut changes no bit.
 */
#include "pcr.h"
#include <math.h>
#include <stdlib.h>

/* out[i, j] = exp(-(sqrt(sum_k (pa_ik - pb_jk)^2) / h)) * sum_k ua_ik ub_jk
 * for the rows i in [i0, i1) (pa, ua: a x kk; pbt, ubt: kk x b; out: a x b;
 * all C-contiguous), the sums in column order; with upper only j > i, zeros
 * elsewhere (a diagonal tile). rowsum[i] is the sum of row i's entries in
 * ascending j from +0.0 (numpy's reduction over the rows of the transposed
 * tile, the twin's: it starts from add's identity). */
PCR_CLONES PCR_API int pcr_kernel_tile(const double *pa, const double *pbt, const double *ua, const double *ubt, i64 kk, i64 b,
                            double h, int upper, i64 i0, i64 i1, double *out, double *rowsum)
{
    double *dots = malloc((size_t)(b > 0 ? b : 1) * sizeof(double));
    if (!dots) return -1;
    const double nh = -h;
    for (i64 i = i0; i < i1; i++) {
        i64 j0 = upper ? i + 1 : 0;
        double *row = out + i * b;
        for (i64 j = 0; j < (j0 < b ? j0 : b); j++) row[j] = 0.0;
        if (j0 >= b) {
            rowsum[i] = 0.0;
            continue;
        }
        {
            const double x0 = pa[i * kk], v0 = ua[i * kk];
            const double *p0 = pbt, *q0 = ubt;
            for (i64 j = j0; j < b; j++) {
                const double d = x0 - p0[j];
                row[j] = d * d;
                dots[j] = v0 * q0[j];
            }
        }
        for (i64 k = 1; k < kk; k++) {
            const double xk = pa[i * kk + k], vk = ua[i * kk + k];
            const double *pk = pbt + k * b, *qk = ubt + k * b;
            for (i64 j = j0; j < b; j++) {
                const double d = xk - pk[j];
                row[j] += d * d;
                dots[j] += vk * qk[j];
            }
        }
        double s = 0.0; /* from +0.0, as numpy's add.reduce starts from its identity */
        for (i64 j = j0; j < b; j++) {
            const double v = exp(sqrt(row[j]) / nh) * dots[j];
            row[j] = v;
            s += v;
        }
        rowsum[i] = s;
    }
    free(dots);
    return 0;
}

/* Replicates per block of the weighted sums: a block's packed weights
 * (columns x RB doubles) are 480 KB for 1,500 columns, within a 512 KB L2
 * cache, and 199 or 999 replicates pad to 200 or 1,000. */
#define RB 40

PCR_API int pcr_canonical_rb(void) { return RB; }

/* One row's sums per replicate over the columns [j, b), ascending j. */
PCR_CLONES static void one_row(const double *hi, const double *wp, i64 j, i64 b, double *acc)
{
    for (i64 jj = j; jj < b; jj++) {
        const double *wj = wp + jj * RB;
        const double x = hi[jj];
        for (int r = 0; r < RB; r++) acc[r] = acc[r] + wj[r] * x;
    }
}

/* The sums per replicate of rows i..i+7 of hm (row length b) over the
 * columns [j, b), two columns per pass, added one at a time in ascending j
 * (acc: 8 x RB running sums; eight rows by two columns keep the most
 * multiply-adds per load). */
PCR_CLONES static void eight_rows(const double *hm, i64 b, i64 i, const double *wp, i64 j, double *restrict acc)
{
    const double *h0 = hm + i * b, *h1 = h0 + b, *h2 = h1 + b, *h3 = h2 + b, *h4 = h3 + b, *h5 = h4 + b,
                 *h6 = h5 + b, *h7 = h6 + b;
    for (; j + 2 <= b; j += 2) {
        const double *restrict w0 = wp + j * RB, *restrict w1 = w0 + RB;
        const double x00 = h0[j], x01 = h0[j + 1], x10 = h1[j], x11 = h1[j + 1], x20 = h2[j], x21 = h2[j + 1],
                     x30 = h3[j], x31 = h3[j + 1], x40 = h4[j], x41 = h4[j + 1], x50 = h5[j], x51 = h5[j + 1],
                     x60 = h6[j], x61 = h6[j + 1], x70 = h7[j], x71 = h7[j + 1];
        for (int r = 0; r < RB; r++) {
            const double v0 = w0[r], v1 = w1[r];
            acc[r] = (acc[r] + v0 * x00) + v1 * x01;
            acc[RB + r] = (acc[RB + r] + v0 * x10) + v1 * x11;
            acc[2 * RB + r] = (acc[2 * RB + r] + v0 * x20) + v1 * x21;
            acc[3 * RB + r] = (acc[3 * RB + r] + v0 * x30) + v1 * x31;
            acc[4 * RB + r] = (acc[4 * RB + r] + v0 * x40) + v1 * x41;
            acc[5 * RB + r] = (acc[5 * RB + r] + v0 * x50) + v1 * x51;
            acc[6 * RB + r] = (acc[6 * RB + r] + v0 * x60) + v1 * x61;
            acc[7 * RB + r] = (acc[7 * RB + r] + v0 * x70) + v1 * x71;
        }
    }
    if (j < b)
        for (int t = 0; t < 8; t++) one_row(hm + (i + t) * b, wp, j, b, acc + t * RB);
}

/* contrib[i, r] = wa_ir * (sum_j wb_jr H_ij) for the rows i in [i0, i1) of
 * hm (a x b) and every replicate r, j ascending (j > i on a diagonal
 * block); pcr_ordered_row_sum then adds the rows in ascending i. wpa (nblk x
 * a x RB) and wpk (nblk x b x RB) hold the row and the column weights of RB
 * replicates per block, zero-padded; contrib is a x (nblk RB). Each (i, r)
 * sum adds its terms one at a time in ascending j from 0.0, so the bits
 * depend neither on the vector width nor on how the rows are cut. */
PCR_API int pcr_block_quadratic(const double *hm, i64 a, i64 b, const double *wpa, const double *wpk, i64 nblk,
                                int diag, i64 i0, i64 i1, double *contrib)
{
    double *acc = malloc(8 * RB * sizeof(double));
    if (!acc) return -1;
    const i64 width = nblk * RB;
    for (i64 blk = 0; blk < nblk; blk++) {
        const double *wp = wpk + blk * b * RB;
        const i64 rb = blk * RB;
        for (i64 i = i0; i < i1; i += 8) {
            const i64 m = i1 - i < 8 ? i1 - i : 8;
            for (int t = 0; t < 8 * RB; t++) acc[t] = 0.0;
            if (m == 8) {
                i64 jc = 0;
                if (diag) {
                    /* Columns left of the eight rows' common start, row by row. */
                    jc = i + 8 < b ? i + 8 : b;
                    for (int t = 0; t < 7; t++) one_row(hm + (i + t) * b, wp, i + t + 1, jc, acc + t * RB);
                }
                eight_rows(hm, b, i, wp, jc, acc);
            } else {
                for (i64 t = 0; t < m; t++) one_row(hm + (i + t) * b, wp, diag ? i + t + 1 : 0, b, acc + t * RB);
            }
            for (i64 t = 0; t < m; t++) {
                const double *wi = wpa + (blk * a + i + t) * RB;
                double *ci = contrib + (i + t) * width + rb;
                for (int r = 0; r < RB; r++) ci[r] = wi[r] * acc[t * RB + r];
            }
        }
    }
    free(acc);
    (void)a;
    return 0;
}

/* q[r] = sum_i contrib[i, r] (rows x nr), from 0.0 in ascending i. */
PCR_API void pcr_ordered_row_sum(const double *contrib, i64 rows, i64 nr, double *q)
{
    for (i64 r = 0; r < nr; r++) q[r] = 0.0;
    for (i64 i = 0; i < rows; i++) {
        const double *ci = contrib + i * nr;
        for (i64 r = 0; r < nr; r++) q[r] += ci[r];
    }
}
