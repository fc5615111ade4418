/* SPDX-License-Identifier: GPL-3.0-or-later
 * Derived from: R 4.2.2 src/main/summary.c (real_mean, rsum) (GPL-2-or-later),
 *   (c) 1995-2022 The R Core Team
 *
 * R's per-bin mean(): for every bin, mean(x[bin == b]) and mean(c[bin == b]).
 * R's mean() of doubles is a long-double (LDOUBLE) sum in the order of the
 * observations, divided by the count, plus the long-double mean of the
 * deviations from it (a second pass); of integers, the long-double sum
 * divided by the count, rounded once. gcc's long double on x86-64 is R's
 * LDOUBLE, so these are R's own operations; the numpy twins
 * (pycalib_r/binned/_rbins.py, numpy's longdouble) give the same bits.
 *
 * The observations are put in bin order by a stable counting sort (each
 * bin's run keeps their order), and each bin's two passes run over its
 * contiguous run. The x87 adder's latency is about five of its issue slots,
 * so several bins' chains are interleaved (6 sums, or 3 deviations whose
 * means also sit in registers): each chain still adds its own bin's values
 * in their order, so every bin's sum is R's sequential sum.
 *
 * Equal-width bins are found here (width_ids), or the bins of sorted edges
 * (edge_ids: findInterval(rightmost.closed, all.inside)); large inputs go a
 * chunk at a time, each bin's 80-bit sums carried from chunk to chunk (the
 * same additions in the same order).
 *
 * Every entry returns 0, or -1 when memory could not be had (the wrapper
 * raises MemoryError).
 */
#include "pcr.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef long double ld;

#define SUM_LANES 6
#define DEV_LANES 3
/* Observations put in bin order at a time when the input is large and the
 * bins few (a 512 KB buffer that stays in the core's cache). */
#define CHUNK ((i64)1 << 16)
#define CHUNK_BINS (CHUNK / 16)
/* Up to this many observations the whole input is put in bin order once. */
#define WHOLE ((i64)1 << 21)
/* Matrix chunks: about this many entries, at least COLS_MIN_ROWS rows. */
#define COLS_CHUNK ((i64)1 << 17)
#define COLS_MIN_ROWS ((i64)4096)

#define ONE_BITS 0x3FF0000000000000ULL

static inline i64 imin(i64 a, i64 b) { return a < b ? a : b; }

/* --- the long-double passes over the bins' runs ---------------------------- */

/* acc[k] += each of the n doubles at p[k] (6 chains interleaved). */
static void lanes_sum(ld *acc, const double *const *p, i64 n)
{
    ld s0 = acc[0], s1 = acc[1], s2 = acc[2], s3 = acc[3], s4 = acc[4], s5 = acc[5];
    const double *p0 = p[0], *p1 = p[1], *p2 = p[2], *p3 = p[3], *p4 = p[4], *p5 = p[5];
    for (i64 i = 0; i < n; i++) {
        s0 += p0[i];
        s1 += p1[i];
        s2 += p2[i];
        s3 += p3[i];
        s4 += p4[i];
        s5 += p5[i];
    }
    acc[0] = s0; acc[1] = s1; acc[2] = s2; acc[3] = s3; acc[4] = s4; acc[5] = s5;
}

/* acc[k] += x - s[k] for each of the n doubles x at p[k] (3 chains). */
static void lanes_dev(ld *acc, const ld *s, const double *const *p, i64 n)
{
    ld t0 = acc[0], t1 = acc[1], t2 = acc[2];
    const ld m0 = s[0], m1 = s[1], m2 = s[2];
    const double *p0 = p[0], *p1 = p[1], *p2 = p[2];
    for (i64 i = 0; i < n; i++) {
        t0 += (ld)p0[i] - m0;
        t1 += (ld)p1[i] - m1;
        t2 += (ld)p2[i] - m2;
    }
    acc[0] = t0; acc[1] = t1; acc[2] = t2;
}

/* Over the bins' contiguous runs of buf (the bins in order, counts[b]
 * values each): sweep 0 adds each run to S[b], sweep 1 each deviation from
 * S[b] (then the bin's mean) to T[b]. Up to SUM_LANES (DEV_LANES) bins run
 * at once over the shortest one's rest; a lane that finishes takes the next
 * bin; a lane without a bin re-reads a live lane's values into a sum that
 * is never kept. */
static void runs_pass(const double *buf, const i64 *counts, i64 n_ids, ld *S, ld *T, int sweep)
{
    const int L = sweep ? DEV_LANES : SUM_LANES;
    i64 bin[SUM_LANES], rem[SUM_LANES];
    const double *p[SUM_LANES];
    ld acc[SUM_LANES], mean[SUM_LANES];
    ld *dst = sweep ? T : S;
    for (int k = 0; k < L; k++) {
        bin[k] = -1;
        rem[k] = 0;
    }
    i64 nxt = 0, pos = 0;
    for (;;) {
        int live = 0, first = -1;
        i64 common = 0;
        for (int k = 0; k < L; k++) {
            if (rem[k] == 0) {
                if (bin[k] >= 0) {
                    dst[bin[k]] = acc[k];
                    bin[k] = -1;
                }
                while (nxt < n_ids && counts[nxt] == 0) nxt++;
                if (nxt < n_ids) {
                    bin[k] = nxt;
                    p[k] = buf + pos;
                    rem[k] = counts[nxt];
                    acc[k] = dst[nxt];
                    if (sweep) mean[k] = S[nxt];
                    pos += counts[nxt];
                    nxt++;
                }
            }
            if (bin[k] >= 0) {
                common = live ? imin(common, rem[k]) : rem[k];
                if (first < 0) first = k;
                live++;
            }
        }
        if (!live) return;
        for (int k = 0; k < L; k++) {
            if (bin[k] < 0) {
                p[k] = p[first];
                acc[k] = 0.0L;
                mean[k] = 0.0L;
            }
        }
        if (sweep)
            lanes_dev(acc, mean, p, common);
        else
            lanes_sum(acc, p, common);
        for (int k = 0; k < L; k++) {
            if (bin[k] >= 0) {
                p[k] += common;
                rem[k] -= common;
            }
        }
    }
}

/* Each non-empty bin's mean, (double) (S + T / n), and its label ratio,
 * (double) (k / n) in long double; an empty bin is NaN in both. */
static void finish_bins(const ld *S, const ld *T, const i64 *csum, const i64 *counts, i64 n_ids, double *conf,
                        double *acc)
{
    for (i64 b = 0; b < n_ids; b++) {
        if (counts[b] > 0) {
            const ld n = (ld)counts[b];
            conf[b] = (double)(S[b] + T[b] / n);
            acc[b] = (double)((ld)csum[b] / n);
        } else {
            conf[b] = NAN;
            acc[b] = NAN;
        }
    }
}

static void divide_sums(ld *S, const i64 *counts, i64 n_ids)
{
    for (i64 b = 0; b < n_ids; b++)
        if (counts[b] > 0) S[b] /= (ld)counts[b];
}

/* --- given bins (bin_means, bin_means_rows) ------------------------------ */

/* One resample (rows idx[j] - base, or all rows in order when idx is NULL)
 * of the observations' keys (2 bin + label) and values. */
static int one_sample(const i64 *key, const double *x, i64 n, const void *idx, int idx32, i64 base, i64 m, i64 n_ids,
                       i64 *counts, double *conf, double *acc, i64 *kb, double *xb, double *buf, i64 *start,
                       i64 *csum, ld *S, ld *T, i64 *hist)
{
    const i64 w = 2 * n_ids;
    /* The resample gathered once, in its order. */
    if (idx == NULL) {
        memcpy(kb, key, (size_t)m * sizeof(i64));
        memcpy(xb, x, (size_t)m * sizeof(double));
    } else if (idx32) {
        const int32_t *ix = (const int32_t *)idx;
        for (i64 j = 0; j < m; j++) {
            const i64 i = (i64)ix[j] - base;
            if ((uint64_t)i >= (uint64_t)n) return -2;
            kb[j] = key[i];
            xb[j] = x[i];
        }
    } else {
        const i64 *ix = (const i64 *)idx;
        for (i64 j = 0; j < m; j++) {
            const i64 i = ix[j] - base;
            if ((uint64_t)i >= (uint64_t)n) return -2;
            kb[j] = key[i];
            xb[j] = x[i];
        }
    }
    if (hist != NULL) {
        /* Few bins: (bin, label) counted in four interleaved copies, so that
         * consecutive rows of a bin do not wait on each other's increment. */
        memset(hist, 0, (size_t)(4 * w) * sizeof(i64));
        for (i64 j = 0; j < m; j++) hist[(j & 3) * w + kb[j]]++;
        for (i64 b = 0; b < n_ids; b++) {
            const i64 c1 = hist[2 * b + 1] + hist[w + 2 * b + 1] + hist[2 * w + 2 * b + 1] + hist[3 * w + 2 * b + 1];
            counts[b] = hist[2 * b] + hist[w + 2 * b] + hist[2 * w + 2 * b] + hist[3 * w + 2 * b] + c1;
            csum[b] = c1;
        }
    } else {
        memset(counts, 0, (size_t)n_ids * sizeof(i64));
        memset(csum, 0, (size_t)n_ids * sizeof(i64));
        for (i64 j = 0; j < m; j++) {
            counts[kb[j] >> 1]++;
            csum[kb[j] >> 1] += kb[j] & 1;
        }
    }
    start[0] = 0;
    for (i64 b = 0; b < n_ids; b++) start[b + 1] = start[b] + counts[b];
    for (i64 j = 0; j < m; j++) buf[start[kb[j] >> 1]++] = xb[j];
    if (4 * n_ids > m) {
        /* Sparse bins (one per distinct value, ...): bin by bin. A single
         * value's mean is R's 0 + x, then x / 1, plus (x - s) / 1 = 0: the
         * value itself (+0.0 for -0.0, as R's sum from 0). */
        i64 lo = 0;
        for (i64 b = 0; b < n_ids; b++) {
            const i64 k = counts[b];
            if (k == 1) {
                conf[b] = 0.0 + buf[lo];
                acc[b] = (double)csum[b];
            } else if (k > 1) {
                ld s = 0.0L, t = 0.0L;
                for (i64 i = lo; i < lo + k; i++) s += buf[i];
                s /= (ld)k;
                for (i64 i = lo; i < lo + k; i++) t += (ld)buf[i] - s;
                conf[b] = (double)(s + t / (ld)k);
                acc[b] = (double)((ld)csum[b] / (ld)k);
            } else {
                conf[b] = NAN;
                acc[b] = NAN;
            }
            lo += k;
        }
        return 0;
    }
    for (i64 b = 0; b < n_ids; b++) S[b] = T[b] = 0.0L;
    runs_pass(buf, counts, n_ids, S, T, 0);
    divide_sums(S, counts, n_ids);
    runs_pass(buf, counts, n_ids, S, T, 1);
    finish_bins(S, T, csum, counts, n_ids, conf, acc);
    return 0;
}

/* R's per-bin means of every resample: row r of idx (rows x m, base-based,
 * int32 when idx32, else int64; NULL: one sample of all n rows in order)
 * into row r of counts, conf and acc (rows x n_ids). ids holds one bin per
 * observation (0-based), one row for all resamples (ids_rows 1) or one row
 * per resample; c the 0/1 labels. Returns -2 (nothing kept) when a bin, a
 * label or a draw is out of range. */
PCR_API int pcr_bin_means_rows(const i64 *ids, i64 ids_rows, const double *x, const i64 *c, i64 n,
                               const void *idx, int idx32, i64 rows, i64 m, i64 base, i64 n_ids, i64 *counts,
                               double *conf, double *acc)
{
    if (idx == NULL) {
        rows = 1;
        m = n;
    }
    const i64 mm = m > 0 ? m : 1;
    const int with_hist = 8 * n_ids <= m;
    i64 *key = malloc((size_t)(n > 0 ? n : 1) * sizeof(i64));
    i64 *kb = malloc((size_t)mm * sizeof(i64));
    double *xb = malloc((size_t)mm * sizeof(double));
    double *buf = malloc((size_t)mm * sizeof(double));
    i64 *start = malloc((size_t)(n_ids + 1) * sizeof(i64));
    i64 *csum = malloc((size_t)(n_ids + 1) * sizeof(i64));
    ld *S = malloc((size_t)(n_ids + 1) * sizeof(ld));
    ld *T = malloc((size_t)(n_ids + 1) * sizeof(ld));
    i64 *hist = with_hist ? malloc((size_t)(8 * n_ids) * sizeof(i64)) : NULL;
    int rc = 0;
    if (!key || !kb || !xb || !buf || !start || !csum || !S || !T || (with_hist && !hist)) {
        rc = -1;
        goto done;
    }
    for (i64 r = 0; r < rows; r++) {
        if (r == 0 || ids_rows > 1) {
            /* A bin and a label in one integer: one random read per row. A
             * bin outside [0, n_ids) or a label not 0/1 is refused (-2). */
            const i64 *row = ids + (ids_rows > 1 ? r * n : 0);
            uint64_t bad = 0;
            for (i64 i = 0; i < n; i++) {
                key[i] = 2 * row[i] + c[i];
                bad |= ((uint64_t)row[i] >= (uint64_t)n_ids) | ((uint64_t)c[i] > 1);
            }
            if (bad) {
                rc = -2;
                goto done;
            }
        }
        const void *ix = idx == NULL ? NULL
                                     : (idx32 ? (const void *)((const int32_t *)idx + r * m)
                                              : (const void *)((const i64 *)idx + r * m));
        rc = one_sample(key, x, n, ix, idx32, base, m, n_ids, counts + r * n_ids, conf + r * n_ids, acc + r * n_ids,
                        kb, xb, buf, start, csum, S, T, hist);
        if (rc) goto done;
    }
done:
    free(key); free(kb); free(xb); free(buf); free(start); free(csum); free(S); free(T); free(hist);
    return rc;
}

/* --- bins found here (width_means, edge_means) ----------------------------- */

static inline uint64_t bits_of(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* R's equal-width bin of each x: the last k with k * (1 / bins) <= x
 * (seq(0, 1, length.out = bins + 1), findInterval(rightmost.closed,
 * all.inside)): floor(x bins) clipped, then one step up or down against its
 * neighbouring edges (_binning._uniform_bins). One step is enough for bins
 * <= 2^16. Returns, when scan, the count of entries outside [+0, 1] by
 * their bits (NaN, negative, -0.0, above 1); those stay in the bins (the
 * clip), for a caller that checks them afterwards. No branch: the loop
 * vectorises (the bin in int32). */
PCR_CLONES static i64 width_ids(const double *x, i64 n, i64 bins, uint16_t *bid, int scan)
{
    const double by = 1.0 / (double)bins;
    const double fb = (double)bins, ftop = (double)(bins - 1);
    const int32_t top = (int32_t)(bins - 1);
    i64 outside = 0;
    if (scan) {
        for (i64 i = 0; i < n; i++) outside += bits_of(x[i]) > ONE_BITS;
    }
    for (i64 i = 0; i < n; i++) {
        const double v = x[i];
        double t = v * fb;
        t = t > 0.0 ? t : 0.0; /* NaN and negatives: bin 0 */
        t = t < ftop ? t : ftop;
        int32_t g = (int32_t)t;
        g += (g < top) & ((double)(g + 1) * by <= v);
        g -= (g > 0) & ((double)g * by > v);
        bid[i] = (uint16_t)g;
    }
    return outside;
}

/* findInterval(rightmost.closed, all.inside), 0-based: the count of edges
 * <= v, clipped. Few edges: counted one by one; more: a branch-free binary
 * search over the edges padded with +inf to a power of two (pad). */
PCR_CLONES static void edge_ids(const double *x, i64 n, const double *edges, i64 ne, const double *pad, i64 size,
                     uint16_t *bid)
{
    const i64 top = ne - 2;
    if (ne <= 32) {
        /* By blocks of values, one edge at a time over the block: the
         * comparisons vectorise across the values. */
        int32_t pos[256];
        for (i64 s = 0; s < n; s += 256) {
            const i64 len = n - s < 256 ? n - s : 256;
            const double *xs = x + s;
            for (i64 i = 0; i < len; i++) pos[i] = -1;
            for (i64 k = 0; k < ne; k++) {
                const double e = edges[k];
                for (i64 i = 0; i < len; i++) pos[i] += e <= xs[i];
            }
            for (i64 i = 0; i < len; i++) {
                const int32_t q = pos[i];
                bid[s + i] = (uint16_t)(q < 0 ? 0 : (q > top ? top : q));
            }
        }
        return;
    }
    for (i64 i = 0; i < n; i++) {
        const double v = x[i];
        i64 pos = 0;
        for (i64 step = size / 2; step > 0; step >>= 1) pos += step * (pad[pos + step - 1] <= v);
        pos += pad[pos] <= v;
        pos -= 1;
        bid[i] = (uint16_t)(pos < 0 ? 0 : (pos > top ? top : pos));
    }
}

struct binner {
    i64 bins;
    const double *edges; /* NULL: equal widths */
    i64 ne, size;
    double *pad;
};

/* The chunk x (n values, labels c == label) into buf in bin order (stable);
 * local[b]: each bin's count in it. counted: known holds those counts
 * already (the first sweep's), so the histogram is skipped; otherwise hist
 * gets (bin, label) counts in four interleaved copies. */
static void chunk_order(const double *x, const i64 *c, i64 n, i64 label, const struct binner *bn, uint16_t *bid,
                        i64 *hist, i64 *local, double *buf, const i64 *known, int counted)
{
    const i64 bins = bn->bins, w = 2 * bins;
    if (bn->edges)
        edge_ids(x, n, bn->edges, bn->ne, bn->pad, bn->size, bid);
    else
        width_ids(x, n, bins, bid, 0);
    i64 lo = 0;
    if (counted) {
        for (i64 b = 0; b < bins; b++) {
            local[b] = lo; /* the run's start, for the scatter */
            lo += known[b];
        }
    } else {
        memset(hist, 0, (size_t)(4 * w) * sizeof(i64));
        for (i64 i = 0; i < n; i++) hist[(i & 3) * w + 2 * (i64)bid[i] + (c[i] == label)]++;
        for (i64 b = 0; b < bins; b++) {
            i64 k = 0;
            for (int q = 0; q < 8; q++) k += hist[(q >> 1) * w + 2 * b + (q & 1)];
            local[b] = lo;
            lo += k;
        }
    }
    for (i64 i = 0; i < n; i++) buf[local[bid[i]]++] = x[i];
    /* local[b] is now the end of bin b's run: back to the counts. */
    i64 prev = 0;
    for (i64 b = 0; b < bins; b++) {
        const i64 end = local[b];
        local[b] = end - prev;
        prev = end;
    }
}

/* The means of x (m values, contiguous) in the bins of bn, with the labels
 * c == label. buf_in and bid_in: the caller's buffers of at least m
 * entries, or NULL (then allocated here: a chunk's or the whole input's). */
static int means_core(const double *x, const i64 *c, i64 m, i64 label, const struct binner *bn, i64 *counts,
                      double *conf, double *acc, i64 keep_max, double *buf_in, uint16_t *bid_in)
{
    const i64 bins = bn->bins, w = 2 * bins;
    const i64 chunk = (m > WHOLE && bins <= CHUNK_BINS) ? CHUNK : (m > 0 ? m : 1);
    const i64 n_chunks = (m + chunk - 1) / chunk;
    const int keep = n_chunks > 1 && n_chunks * bins <= keep_max;
    uint16_t *bid = bid_in ? bid_in : malloc((size_t)chunk * sizeof(uint16_t));
    double *buf = buf_in ? buf_in : malloc((size_t)chunk * sizeof(double));
    i64 *hist = malloc((size_t)(4 * w) * sizeof(i64));
    i64 *local = malloc((size_t)bins * sizeof(i64));
    i64 *csum = calloc((size_t)bins, sizeof(i64));
    ld *S = malloc((size_t)bins * sizeof(ld));
    ld *T = malloc((size_t)bins * sizeof(ld));
    i64 *kept = malloc((size_t)((keep ? n_chunks : 1) * bins) * sizeof(i64));
    int rc = 0;
    if (!bid || !buf || !hist || !local || !csum || !S || !T || !kept) {
        rc = -1;
        goto done;
    }
    for (i64 b = 0; b < bins; b++) {
        counts[b] = 0;
        S[b] = T[b] = 0.0L;
    }
    for (int sweep = 0; sweep < 2; sweep++) {
        if (sweep == 1) divide_sums(S, counts, bins);
        for (i64 s = 0; s < m; s += chunk) {
            const i64 e = imin(s + chunk, m);
            i64 *row = kept + (keep ? (s / chunk) * bins : 0);
            if (sweep == 0 || chunk < m) /* one chunk: already in order */
                chunk_order(x + s, c + s, e - s, label, bn, bid, hist, local, buf, row, sweep == 1 && keep);
            if (sweep == 0) {
                if (keep) memcpy(row, local, (size_t)bins * sizeof(i64));
                for (i64 b = 0; b < bins; b++) {
                    counts[b] += local[b];
                    csum[b] += hist[2 * b + 1] + hist[w + 2 * b + 1] + hist[2 * w + 2 * b + 1] + hist[3 * w + 2 * b + 1];
                }
            }
            runs_pass(buf, local, bins, S, T, sweep);
        }
    }
    finish_bins(S, T, csum, counts, bins, conf, acc);
done:
    if (!bid_in) free(bid);
    if (!buf_in) free(buf);
    free(hist); free(local); free(csum); free(S); free(T); free(kept);
    return rc;
}

/* R's per-bin means over the equal-width bins of x (m values in [0, 1],
 * contiguous), the labels c == label (0/1 labels, or class codes with a
 * class's label), bins <= 65,536. buf (doubles) and bid: NULL, or the
 * caller's buffers of at least the chunk's size (m up to WHOLE). */
PCR_API int pcr_width_means(const double *x, const i64 *c, i64 m, i64 label, i64 bins, i64 *counts, double *conf,
                            double *acc, i64 keep_max, double *buf, uint16_t *bid)
{
    struct binner bn = {bins, NULL, 0, 0, NULL};
    return means_core(x, c, m, label, &bn, counts, conf, acc, keep_max, buf, bid);
}

/* pcr_width_means with the bins of the ne sorted edges (at most 65,537):
 * findInterval(x, edges, rightmost.closed = TRUE, all.inside = TRUE). */
PCR_API int pcr_edge_means(const double *x, const i64 *c, i64 m, i64 label, const double *edges, i64 ne,
                           i64 *counts, double *conf, double *acc, i64 keep_max, double *buf, uint16_t *bid)
{
    struct binner bn = {ne - 1, edges, ne, 0, NULL};
    if (ne > 32) {
        i64 size = 1;
        while (size < ne) size *= 2;
        bn.pad = malloc((size_t)size * sizeof(double));
        if (!bn.pad) return -1;
        for (i64 k = 0; k < size; k++) bn.pad[k] = k < ne ? edges[k] : INFINITY;
        bn.size = size;
    }
    const int rc = means_core(x, c, m, label, &bn, counts, conf, acc, keep_max, buf, bid);
    free(bn.pad);
    return rc;
}

/* --- every column of a matrix against its class (width_means_cols) --------- */

/* The row-sum band decision of check_prob_matrix's scans (inputs.c's
 * pcr_row_band): far when |s - 1| > hi_t, near when >= lo_t. */
static inline void row_band(double s, double hi_t, double lo_t, i64 *far, i64 *near)
{
    const double d = fabs(s - 1.0);
    *far += d > hi_t;
    *near += d >= lo_t;
}

/* inputs.c: check_prob_matrix's one-pass scan of a matrix. */
void pcr_unit_rows_impl(const double *p, i64 m, i64 k, i64 rs, i64 cs, double hi_t, double lo_t, i64 *found);

/* The chunk blk (n rows of k entries) into out[base:], class by class
 * (class j's n entries from base + j n), each class's in bin order
 * (stable); hist[j bins + b]: class j's count in bin b. With bands, the
 * scan of inputs.c's unit_rows into found, in the same loops. */
static void cols_order(const double *blk, i64 n, i64 k, i64 bins, uint16_t *ids, i64 *hist, i64 *pos, double *out,
                       i64 base, const double *bands, i64 *found)
{
    const i64 size = n * k;
    if (bands) {
        if (width_ids(blk, size, bins, ids, 1) > 0) found[0] |= 1;
    } else {
        width_ids(blk, size, bins, ids, 0);
    }
    memset(hist, 0, (size_t)(k * bins) * sizeof(i64));
    for (i64 i = 0; i < n; i++)
        for (i64 j = 0; j < k; j++) hist[j * bins + ids[i * k + j]]++;
    for (i64 j = 0; j < k; j++) {
        i64 lo = base + j * n;
        for (i64 b = 0; b < bins; b++) {
            pos[j * bins + b] = lo;
            lo += hist[j * bins + b];
        }
    }
    i64 far = 0, near = 0;
    for (i64 i = 0; i < n; i++) {
        double s = 0.0; /* the row sum in column order, as unit_rows */
        for (i64 j = 0; j < k; j++) {
            const double v = blk[i * k + j];
            out[pos[j * bins + ids[i * k + j]]++] = v;
            s += v;
        }
        if (bands) row_band(s, bands[0], bands[1], &far, &near);
    }
    if (bands) {
        found[1] += far;
        found[2] += near;
    }
}

/* pcr_width_means of every column j of the C-contiguous m x k matrix p
 * against the labels codes == j + 1, into row j of counts, conf and acc
 * (k x bins). Rows go a chunk at a time, all classes together (no column
 * gathered); each class's runs get the 80-bit sums, carried from chunk to
 * chunk. store (NULL, or room for the whole matrix) keeps every chunk in
 * bin order from the first sweep for the second. With more bins than a
 * chunk amortises, each column is gathered whole and binned alone. bands
 * (hi, lo; or NULL): the first sweep also scans each chunk as
 * check_prob_matrix does, into found (3 counts). */
PCR_API int pcr_width_means_cols(const double *p, i64 m, i64 k, const i64 *codes, i64 bins, i64 *counts,
                                 double *conf, double *acc, i64 keep_max, double *store_in, const double *bands,
                                 i64 *found)
{
    i64 rows = COLS_CHUNK / k;
    if (rows < COLS_MIN_ROWS) rows = COLS_MIN_ROWS;
    if (rows > m) rows = m;
    if (bands) found[0] = found[1] = found[2] = 0;
    if (rows <= 0) rows = 1;
    if (bins * 16 > rows) {
        if (bands) pcr_unit_rows_impl(p, m, k, k, 1, bands[0], bands[1], found);
        double *col = malloc((size_t)(m > 0 ? m : 1) * sizeof(double));
        if (!col) return -1;
        int rc = 0;
        for (i64 j = 0; j < k && rc == 0; j++) {
            for (i64 i = 0; i < m; i++) col[i] = p[i * k + j];
            rc = pcr_width_means(col, codes, m, j + 1, bins, counts + j * bins, conf + j * bins, acc + j * bins,
                                 keep_max, NULL, NULL);
        }
        free(col);
        return rc;
    }
    const i64 n_chunks = (m + rows - 1) / rows;
    const int keep = n_chunks * k * bins <= keep_max;
    const int saved = keep && store_in != NULL;
    uint16_t *ids = malloc((size_t)(rows * k) * sizeof(uint16_t));
    i64 *hist = malloc((size_t)(k * bins) * sizeof(i64));
    i64 *pos = malloc((size_t)(k * bins) * sizeof(i64));
    i64 *csum = calloc((size_t)(k * bins), sizeof(i64));
    ld *S = malloc((size_t)(k * bins) * sizeof(ld));
    ld *T = malloc((size_t)(k * bins) * sizeof(ld));
    i64 *kept = malloc((size_t)((keep ? n_chunks * k : k) * bins) * sizeof(i64));
    double *store = saved ? store_in : malloc((size_t)(rows * k) * sizeof(double));
    int rc = 0;
    if (!ids || !hist || !pos || !csum || !S || !T || !kept || !store) {
        rc = -1;
        goto done;
    }
    for (i64 q = 0; q < k * bins; q++) {
        counts[q] = 0;
        S[q] = T[q] = 0.0L;
    }
    for (int sweep = 0; sweep < 2; sweep++) {
        if (sweep == 1)
            for (i64 j = 0; j < k; j++) divide_sums(S + j * bins, counts + j * bins, bins);
        for (i64 s = 0; s < m; s += rows) {
            const i64 e = imin(s + rows, m), n = e - s;
            const i64 first = keep ? (s / rows) * k : 0;
            const i64 base = saved ? s * k : 0;
            if (sweep == 0 || !saved) {
                cols_order(p + s * k, n, k, bins, ids, hist, pos, store, base, sweep == 0 ? bands : NULL, found);
                if (sweep == 0) {
                    const i64 *cb = codes + s;
                    for (i64 i = 0; i < n; i++) {
                        const i64 cl = cb[i] - 1;
                        if (cl >= 0 && cl < k) csum[cl * bins + ids[i * k + cl]]++;
                    }
                    for (i64 q = 0; q < k * bins; q++) counts[q] += hist[q];
                }
                if (sweep == 0 || !keep)
                    for (i64 j = 0; j < k; j++)
                        memcpy(kept + (first + j) * bins, hist + j * bins, (size_t)bins * sizeof(i64));
            }
            for (i64 j = 0; j < k; j++)
                runs_pass(store + base + j * n, kept + (first + j) * bins, bins, S + j * bins, T + j * bins, sweep);
        }
    }
    for (i64 j = 0; j < k; j++)
        finish_bins(S + j * bins, T + j * bins, csum + j * bins, counts + j * bins, bins, conf + j * bins,
                    acc + j * bins);
done:
    free(ids); free(hist); free(pos); free(csum); free(S); free(T); free(kept);
    if (!saved) free(store);
    return rc;
}
