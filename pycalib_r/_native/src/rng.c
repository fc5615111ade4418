/* SPDX-License-Identifier: GPL-3.0-or-later
 * Derived from: R 4.2.2 src/main/RNG.c (MT_genrand, R_unif_index, rbits) (GPL-2-or-later),
 *   (c) The R Core Team; its Mersenne-Twister code (c) Makoto Matsumoto and Takuji Nishimura
 * Derived from: R 4.2.2 src/main/random.c (do_sample, walker_ProbSampleReplace,
 *   ProbSampleNoReplace) (GPL-2-or-later), (c) The R Core Team
 * Derived from: R 4.2.2 src/main/unique.c (do_sample2) (GPL-2-or-later), (c) The R Core Team
 * Derived from: R 4.2.2 src/main/sort.c (revsort) (GPL-2-or-later), (c) The R Core Team
 * Derived from: R 4.2.2 src/nmath/sexp.c (exp_rand) (GPL-2-or-later), (c) Ross Ihaka, The R Core Team
 * Derived from: R 4.2.2 src/nmath/snorm.c (norm_rand) (GPL-2-or-later), (c) Ross Ihaka, The R Core Team
 * Derived from: R 4.2.2 src/nmath/qnorm.c (AS 241) (GPL-2-or-later), (c) Ross Ihaka, The R Core Team
 * Derived from: R 4.2.2 src/nmath/rgamma.c (GS, GD) (GPL-2-or-later), (c) Ross Ihaka, The R Core Team
 * Derived from: R 4.2.2 src/nmath/rbeta.c (BB, BC) (GPL-2-or-later), (c) The R Core Team
 * Derived from: R 4.2.2 src/nmath/rpois.c (PTRD) (GPL-2-or-later), (c) Ross Ihaka, The R Core Team
 *
 * R's random streams on the Mersenne-Twister words.
 *
 * numpy's MT19937 holds the state; the Python side (_rng/bitgen/_mt.py,
 * kernel_words) hands a copy of the 624-word key ``mt``, the tempered words
 * ``w`` of the current block and the position ``pos`` (0..624), and writes
 * the key and the new position back afterwards, so that the stream stands
 * exactly where R's would. R's ``unif_rand()`` is ``fixup(word * 2^-32)``.
 *
 * Each sampler performs R's C operations in R's order (integer and IEEE
 * double arithmetic, glibc's exp/log/expm1/pow/sqrt where R calls them; no
 * fast-math, no contraction), so each draw reads exactly R's words and
 * returns R's double. The numpy/Python twins (_rng/do_sample/_sample.py,
 * _rng/nmath/_dists.py, _rng/stream/_stream_dists.py) give the same bits;
 * tests/native/test_native_rng.py compares them.
 *
 * nmath's statics (rgamma's aa/aaa, rbeta's olda/oldb, rpois' muprev and
 * its table) are caches of values that depend on the parameters alone; here
 * they are recomputed when the parameter changes along the vector.
 */
#include "pcr.h"
#include <math.h>
#include <string.h>

#define MT_N 624
#define MT_M 397

static const double TWO_M32 = 2.3283064365386963e-10;   /* 2^-32 */
static const double FIX_LOW = 0.5 * 2.328306437080797e-10; /* fixup's 0.5 / (2^32 - 1) */

/* --- Mersenne-Twister (Matsumoto and Nishimura 1998) ------------------------ */

static inline uint32_t mt_twist(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t y = (a & 0x80000000u) | (b & 0x7fffffffu);
    return c ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
}

static inline uint32_t mt_temper(uint32_t y)
{
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* w[i] = temper(mt[i]): the words of the current block. */
PCR_API void pcr_mt_temper_block(const uint32_t *mt, uint32_t *w)
{
    for (int i = 0; i < MT_N; i++) w[i] = mt_temper(mt[i]);
}

/* Advance mt by one block (numpy's mt19937_gen, R's MT_genrand) and temper it. */
PCR_API void pcr_mt_next_block(uint32_t *mt, uint32_t *w)
{
    int i;
    for (i = 0; i < MT_N - MT_M; i++) mt[i] = mt_twist(mt[i], mt[i + 1], mt[i + MT_M]);
    for (; i < MT_N - 1; i++) mt[i] = mt_twist(mt[i], mt[i + 1], mt[i - (MT_N - MT_M)]);
    mt[MT_N - 1] = mt_twist(mt[MT_N - 1], mt[0], mt[MT_M - 1]);
    for (i = 0; i < MT_N; i++) w[i] = mt_temper(mt[i]);
}

typedef struct {
    uint32_t *mt;
    uint32_t *w;
    i64 pos;
} mts;

static inline uint32_t next_word(mts *s)
{
    if (s->pos == MT_N) {
        pcr_mt_next_block(s->mt, s->w);
        s->pos = 0;
    }
    return s->w[s->pos++];
}

/* R's unif_rand(): fixup(MT_genrand()); a word below 2^32 never gives 1. */
static inline double unif(mts *s)
{
    uint32_t x = next_word(s);
    return x == 0 ? FIX_LOW : (double)x * TWO_M32;
}

/* --- R_unif_index (sample.kind = "Rejection") ------------------------------- */

/* One try of R's rbits(bits): the high 16 bits of nchunk words, high to low,
 * masked. R's chunk (int) floor(unif_rand() * 65536) is exactly word >> 16. */
static inline uint64_t index_try(mts *s, int nchunk, uint64_t mask)
{
    uint64_t v = 0;
    for (int c = 0; c < nchunk; c++) v = (v << 16) | (uint64_t)(next_word(s) >> 16);
    return v & mask;
}

/* R_unif_index(dn) for bits = ceil(log2(dn)): tries until one is below dn.
 * A try inside the block reads its words directly; v < 2^52, so the signed
 * conversion to double is exact (and one instruction). */
static inline uint64_t unif_index(mts *s, double dn, int bits)
{
    const int nchunk = bits / 16 + 1;
    const uint64_t mask = (((uint64_t)1) << bits) - 1;
    for (;;) {
        uint64_t v;
        if (s->pos + nchunk <= MT_N) {
            const uint32_t *wp = s->w + s->pos;
            v = wp[0] >> 16;
            for (int c = 1; c < nchunk; c++) v = (v << 16) | (uint64_t)(wp[c] >> 16);
            s->pos += nchunk;
            v &= mask;
        } else {
            v = index_try(s, nchunk, mask);
        }
        if ((double)(int64_t)v < dn) return v;
    }
}

/* out[k] = R_unif_index(dn) + offset for k < n; returns the new position.
 * Within a block, while at least a block's tries are still needed, every
 * try is consumed: the accept decision is an increment, not a branch (a
 * rejected value is overwritten by the next try). */
#define INDEX_FILL(NAME, T)                                                                   \
    PCR_API i64 NAME(uint32_t *mt, uint32_t *w, i64 pos, double dn, int bits, T *out, i64 n, \
                     i64 offset)                                                              \
    {                                                                                         \
        mts s = {mt, w, pos};                                                                 \
        const int nchunk = bits / 16 + 1;                                                     \
        const uint64_t mask = (((uint64_t)1) << bits) - 1;                                    \
        i64 k = 0;                                                                            \
        while (k < n) {                                                                       \
            if (s.pos == MT_N) {                                                              \
                pcr_mt_next_block(s.mt, s.w);                                                 \
                s.pos = 0;                                                                    \
            }                                                                                 \
            i64 ntry = (MT_N - s.pos) / nchunk;                                               \
            if (ntry == 0) { /* a try that straddles two blocks */                            \
                uint64_t v = index_try(&s, nchunk, mask);                                     \
                if ((double)v < dn) out[k++] = (T)((i64)v + offset);                          \
                continue;                                                                     \
            }                                                                                 \
            const uint32_t *wp = s.w + s.pos;                                                 \
            if (n - k >= ntry) {                                                              \
                if (nchunk == 1) {                                                            \
                    for (i64 t = 0; t < ntry; t++) {                                          \
                        uint64_t v = (uint64_t)(wp[t] >> 16) & mask;                          \
                        out[k] = (T)((i64)v + offset);                                        \
                        k += (double)v < dn;                                                  \
                    }                                                                         \
                } else if (nchunk == 2) {                                                     \
                    for (i64 t = 0; t < ntry; t++) {                                          \
                        uint64_t v = (((uint64_t)(wp[2 * t] >> 16) << 16)                     \
                                      | (uint64_t)(wp[2 * t + 1] >> 16)) & mask;              \
                        out[k] = (T)((i64)v + offset);                                        \
                        k += (double)v < dn;                                                  \
                    }                                                                         \
                } else {                                                                      \
                    for (i64 t = 0; t < ntry; t++) {                                          \
                        uint64_t v = 0;                                                       \
                        for (int c = 0; c < nchunk; c++)                                      \
                            v = (v << 16) | (uint64_t)(wp[nchunk * t + c] >> 16);             \
                        v &= mask;                                                            \
                        out[k] = (T)((i64)v + offset);                                        \
                        k += (double)v < dn;                                                  \
                    }                                                                         \
                }                                                                             \
                s.pos += ntry * nchunk;                                                       \
            } else { /* the last acceptances: stop at the n-th, later words unread */        \
                while (k < n && s.pos + nchunk <= MT_N) {                                     \
                    uint64_t v = 0;                                                           \
                    for (int c = 0; c < nchunk; c++)                                          \
                        v = (v << 16) | (uint64_t)(s.w[s.pos + c] >> 16);                     \
                    v &= mask;                                                                \
                    s.pos += nchunk;                                                          \
                    if ((double)v < dn) out[k++] = (T)((i64)v + offset);                      \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
        return s.pos;                                                                         \
    }

INDEX_FILL(pcr_index_fill_i64, int64_t)
INDEX_FILL(pcr_index_fill_i32, int32_t)

/* R's partial Fisher-Yates (do_sample without replacement), draws
 * start..stop-1: j = R_unif_index(n); out[i] = x[j] + 1; x[j] = x[--n].
 * io = {pos, n, bits} in and out. bits = ceil(log2(n)) is carried: it drops
 * by one exactly when n falls to a power of two, as glibc's log2 gives for
 * every n < 2^48 (the kernel runs for n < 2^31). */
PCR_API void pcr_noreplace_fill(uint32_t *mt, uint32_t *w, i64 *io, int32_t *x, int64_t *out,
                                i64 start, i64 stop)
{
    mts s = {mt, w, io[0]};
    i64 n = io[1];
    int bits = (int)io[2];
    for (i64 i = start; i < stop; i++) {
        i64 j = (i64)unif_index(&s, (double)n, bits);
        out[i] = (int64_t)x[j] + 1;
        n -= 1;
        x[j] = x[n];
        if (bits > 0 && n <= ((i64)1 << (bits - 1))) bits -= 1;
    }
    io[0] = s.pos;
    io[1] = n;
    io[2] = bits;
}

/* R's sample2 (do_sample2) for draws start..stop-1: R_unif_index(dn) + 1,
 * drawn again while seen before, at most 100 times (R then keeps the
 * repeat). ``table``: an open-addressing set of the values so far (0 =
 * empty, tsize = 2^tbits slots). Returns the new position. */
PCR_API i64 pcr_hash_fill(uint32_t *mt, uint32_t *w, i64 pos, double dn, int bits,
                          uint64_t *table, i64 tsize, int tbits, int64_t *out, i64 start, i64 stop)
{
    mts s = {mt, w, pos};
    const uint64_t tmask = (uint64_t)tsize - 1;
    const int shift = 64 - tbits;
    for (i64 i = start; i < stop; i++) {
        uint64_t v = 0;
        for (int t = 0; t < 100; t++) {
            v = unif_index(&s, dn, bits);
            uint64_t key = v + 1;
            /* Fibonacci hashing (the product's top bits), linear probing. */
            uint64_t h = (key * UINT64_C(0x9E3779B97F4A7C15)) >> shift;
            while (table[h] != 0 && table[h] != key) h = (h + 1) & tmask;
            if (table[h] == 0) {
                table[h] = key;
                break;
            }
        }
        out[i] = (int64_t)v + 1;
    }
    return s.pos;
}

/* The draws of walker_ProbSampleReplace (sample.kind "Rejection"), draws
 * start..stop-1: k = R_unif_index(n), rU = k + unif_rand(), then k + 1 if
 * rU < qa[k] else alias[k] + 1. Returns the new position. */
PCR_API i64 pcr_walker_fill(uint32_t *mt, uint32_t *w, i64 pos, i64 n, int bits, const double *qa,
                            const int64_t *alias, int64_t *out, i64 start, i64 stop)
{
    mts s = {mt, w, pos};
    const double dn = (double)n;
    for (i64 i = start; i < stop; i++) {
        i64 k = (i64)unif_index(&s, dn, bits);
        double u = unif(&s);
        out[i] = ((double)k + u < qa[k]) ? k + 1 : alias[k] + 1;
    }
    return s.pos;
}

/* --- weighted samplers that read no words ------------------------------------ */

/* R's revsort in place on 1-based av[1..n], ib[1..n]: heapsort into
 * descending order, ties as R leaves them. */
PCR_API void pcr_revsort(double *av, int64_t *ib, i64 n)
{
    if (n <= 1) return;
    i64 l = (n >> 1) + 1, ir = n, i, j;
    double ra;
    int64_t ii;
    for (;;) {
        if (l > 1) {
            l -= 1;
            ra = av[l];
            ii = ib[l];
        } else {
            ra = av[ir];
            ii = ib[ir];
            av[ir] = av[1];
            ib[ir] = ib[1];
            if (--ir == 1) {
                av[1] = ra;
                ib[1] = ii;
                return;
            }
        }
        i = l;
        j = l << 1;
        while (j <= ir) {
            if (j < ir && av[j] > av[j + 1]) ++j;
            if (ra > av[j]) {
                av[i] = av[j];
                ib[i] = ib[j];
                j += (i = j);
            } else
                j = ir + 1;
        }
        av[i] = ra;
        ib[i] = ii;
    }
}

/* walker_ProbSampleReplace's alias table in place: q = p * n becomes the
 * cut-offs, a the aliases (hl: R's HL work array). */
PCR_API void pcr_walker_alias(double *q, int64_t *hl, int64_t *a, i64 n)
{
    i64 h = -1, lo = n;
    for (i64 i = 0; i < n; i++) {
        if (q[i] < 1.)
            hl[++h] = i;
        else
            hl[--lo] = i;
    }
    if (h >= 0 && lo < n) {
        for (i64 kk = 0; kk < n - 1; kk++) {
            i64 i = hl[kk], j = hl[lo];
            a[i] = j;
            q[j] += q[i] - 1;
            if (q[j] < 1.) lo++;
            if (lo >= n) break;
        }
    }
}

/* ProbSampleNoReplace after revsort, draws start..stop-1: rT = total * u[i],
 * the first running sum >= rT among the first n1 items (else item n1), the
 * chosen item removed by shifting the rest down. io = {n1} and tot = {total}
 * in and out. */
PCR_API void pcr_prob_noreplace(double *ps, int64_t *perm, const double *u, int64_t *out,
                                i64 start, i64 stop, i64 *io, double *tot)
{
    i64 n1 = io[0];
    double total = tot[0];
    for (i64 i = start; i < stop; i++) {
        double rt = total * u[i], mass = 0.;
        i64 j;
        for (j = 0; j < n1; j++) {
            mass += ps[j];
            if (rt <= mass) break;
        }
        out[i] = perm[j];
        total -= ps[j];
        memmove(ps + j, ps + j + 1, (size_t)(n1 - j) * sizeof(double));
        memmove(perm + j, perm + j + 1, (size_t)(n1 - j) * sizeof(int64_t));
        n1--;
    }
    io[0] = n1;
    tot[0] = total;
}

/* --- nmath samplers -------------------------------------------------------------- */

/* exp_rand's q[k-1] = sum_{i=1}^k (log 2)^i / i!, as sexp.c holds them. */
static const double EXP_Q[] = {
    0.6931471805599453, 0.9333736875190459, 0.9888777961838675, 0.9984959252914960,
    0.9998292811061389, 0.9999833164100727, 0.9999985691438767, 0.9999998906925558,
    0.9999999924734159, 0.9999999995283275, 0.9999999999728814, 0.9999999999985598,
    0.9999999999999289, 0.9999999999999968, 0.9999999999999999, 1.0000000000000000};

static double exp_rand(mts *s)
{
    double a = 0.;
    double u = unif(s);
    while (u <= 0. || u >= 1.) u = unif(s);
    for (;;) {
        u += u;
        if (u > 1.) break;
        a += EXP_Q[0];
    }
    u -= 1.;
    if (u <= EXP_Q[0]) return a + u;
    int i = 0;
    double ustar = unif(s), umin = ustar;
    do {
        ustar = unif(s);
        if (umin > ustar) umin = ustar;
        i++;
    } while (u > EXP_Q[i]);
    return a + umin * EXP_Q[0];
}

PCR_API void pcr_exp_fill(uint32_t *mt, uint32_t *w, i64 *st, double *out, i64 n)
{
    mts s = {mt, w, st[0]};
    for (i64 i = 0; i < n; i++) out[i] = exp_rand(&s);
    st[0] = s.pos;
}

/* AS 241's coefficients, highest power first. */
static const double A_NUM[8] = {2509.0809287301226727, 33430.575583588128105, 67265.770927008700853,
                                45921.953931549871457, 13731.693765509461125, 1971.5909503065514427,
                                133.14166789178437745, 3.387132872796366608};
static const double A_DEN[8] = {5226.495278852854561, 28729.085735721942674, 39307.89580009271061,
                                21213.794301586595867, 5394.1960214247511077, 687.1870074920579083,
                                42.313330701600911252, 1.};
static const double B_NUM[8] = {7.7454501427834140764e-4, .0227238449892691845833, .24178072517745061177,
                                1.27045825245236838258, 3.64784832476320460504, 5.7694972214606914055,
                                4.6303378461565452959, 1.42343711074968357734};
static const double B_DEN[8] = {1.05075007164441684324e-9, 5.475938084995344946e-4, .0151986665636164571966,
                                .14810397642748007459, .68976733498510000455, 1.6763848301838038494,
                                2.05319162663775882187, 1.};
static const double C_NUM[8] = {2.01033439929228813265e-7, 2.71155556874348757815e-5, .0012426609473880784386,
                                .026532189526576123093, .29656057182850489123, 1.7848265399172913358,
                                5.4637849111641143699, 6.6579046435011037772};
static const double C_DEN[8] = {2.04426310338993978564e-15, 1.4215117583164458887e-7, 1.8463183175100546818e-5,
                                7.868691311456132591e-4, .0148753612908506148525, .13692988092273580531,
                                .59983220655588793769, 1.};

/* (((r * c0 + c1) * r + c2) ...) * r + c7, one rounding per step as qnorm.c. */
static inline double horner(double r, const double *c)
{
    double acc = r * c[0];
    for (int i = 1; i < 7; i++) {
        acc += c[i];
        acc *= r;
    }
    return acc + c[7];
}

/* qnorm5(p, 0, 1, TRUE, FALSE) for 0 < p < 1. */
static double qnorm_open(double p)
{
    double q = p - 0.5, r, val;
    if (fabs(q) <= .425) {
        r = .180625 - q * q;
        val = q * horner(r, A_NUM) / horner(r, A_DEN);
        return 0.0 + 1.0 * val;
    }
    r = (q > 0) ? 0.5 - p + 0.5 : p;
    r = sqrt(-log(r));
    if (r <= 5.) {
        r += -1.6;
        val = horner(r, B_NUM) / horner(r, B_DEN);
    } else if (r >= 816) {
        val = r * 1.41421356237309504880;
    } else {
        r += -5.;
        val = horner(r, C_NUM) / horner(r, C_DEN);
    }
    if (q < 0.0) val = -val;
    return 0.0 + 1.0 * val;
}

#define BIG 134217728.0 /* 2^27 */

/* norm_rand, INVERSION: u = (int)(BIG * u) + unif_rand(); qnorm5(u / BIG). */
static inline double norm_rand(mts *s)
{
    double u = unif(s);
    u = floor(BIG * u) + unif(s);
    return qnorm_open(u / BIG);
}

/* rgamma.c's constants. */
static const double SQRT32 = 5.656854, EXP_M1 = 0.36787944117144232159;
static const double Q1 = 0.04166669, Q2 = 0.02083148, Q3 = 0.00801191, Q4 = 0.00144121,
                    Q5 = -7.388e-5, Q6 = 2.4511e-4, Q7 = 2.424e-4;
static const double A1 = 0.3333333, A2 = -0.250003, A3 = 0.2000062, A4 = -0.1662921,
                    A5 = 0.1423657, A6 = -0.1367177, A7 = 0.1233795;

typedef struct {
    double s2, s, d, q0, b, si, c;
} gd_t;

/* GD's steps 1 and 4 for one shape a >= 1. */
static void gd_setup(double a, gd_t *g)
{
    g->s2 = a - 0.5;
    g->s = sqrt(g->s2);
    g->d = SQRT32 - g->s * 12.;
    double r = 1. / a;
    g->q0 = ((((((Q7 * r + Q6) * r + Q5) * r + Q4) * r + Q3) * r + Q2) * r + Q1) * r;
    if (a <= 3.686) {
        g->b = 0.463 + g->s + 0.178 * g->s2;
        g->si = 1.235;
        g->c = 0.195 / g->s - 0.079 + 0.16 * g->s;
    } else if (a <= 13.022) {
        g->b = 1.654 + 0.0076 * g->s2;
        g->si = 1.68 / g->s + 0.275;
        g->c = 0.062 / g->s + 0.024;
    } else {
        g->b = 1.77;
        g->si = 0.75;
        g->c = 0.1515 / g->s;
    }
}

static inline double gd_q(const gd_t *g, double t, double v)
{
    if (fabs(v) <= 0.25)
        return g->q0 + 0.5 * t * t * ((((((A7 * v + A6) * v + A5) * v + A4) * v + A3) * v + A2) * v + A1) * v;
    return g->q0 - g->s * t + 0.25 * t * t + (g->s2 + g->s2) * log(1.0 + v);
}

/* GS algorithm for 0 < a < 1. */
static double rgamma_gs(mts *s, double a)
{
    const double e = 1.0 + EXP_M1 * a;
    for (;;) {
        double p = e * unif(s), x;
        if (p >= 1.0) {
            x = -log((e - p) / a);
            if (exp_rand(s) >= (1.0 - a) * log(x)) return x;
        } else {
            x = exp(log(p) / a);
            if (exp_rand(s) >= x) return x;
        }
    }
}

/* GD for one draw: scale * ret_val, or scale * x * x after step 8. */
static double rgamma_gd(mts *s, double scale, const gd_t *g)
{
    double t = norm_rand(s), x = g->s + 0.5 * t, ret_val = x * x, u, v, q, e, ww;
    if (t >= 0.0) return scale * ret_val;
    u = unif(s);
    if (g->d * u <= t * t * t) return scale * ret_val;
    if (x > 0.0) {
        v = t / (g->s + g->s);
        q = gd_q(g, t, v);
        if (log(1.0 - u) <= q) return scale * ret_val;
    }
    for (;;) {
        e = exp_rand(s);
        u = unif(s);
        u = u + u - 1.0;
        if (u < 0.0)
            t = g->b - g->si * e;
        else
            t = g->b + g->si * e;
        if (t >= -0.71874483771719) {
            v = t / (g->s + g->s);
            q = gd_q(g, t, v);
            if (q > 0.0) {
                ww = expm1(q);
                if (g->c * fabs(u) <= ww * exp(e - 0.5 * t * t)) break;
            }
        }
    }
    x = g->s + 0.5 * t;
    return scale * x * x;
}

/* out[i] = rgamma(a[i], scale[i]) for finite a > 0, scale > 0; a parameter
 * of length 1 is recycled (na, ns: 1 or n). */
PCR_API void pcr_gamma_fill(uint32_t *mt, uint32_t *w, i64 *st, const double *a, i64 na,
                            const double *scale, i64 ns, double *out, i64 n)
{
    mts s = {mt, w, st[0]};
    double aa = NAN; /* the shape GD's constants were computed for */
    gd_t g = {0};
    for (i64 i = 0; i < n; i++) {
        double ai = na > 1 ? a[i] : a[0], sc = ns > 1 ? scale[i] : scale[0];
        if (ai < 1.0) {
            out[i] = sc * rgamma_gs(&s, ai);
            continue;
        }
        if (ai != aa) {
            aa = ai;
            gd_setup(ai, &g);
        }
        out[i] = rgamma_gd(&s, sc, &g);
    }
    st[0] = s.pos;
}

/* rbeta.c */
static const double EXPMAX = 1024 * 0.693147180559945309417232121458; /* DBL_MAX_EXP * M_LN2 */

typedef struct {
    double a, b, alpha, beta, gamma, delta, k1, k2;
} beta_t;

static inline double beta_vw(double beta, double u1, double aa_, double *v)
{
    *v = beta * log(u1 / (1.0 - u1));
    if (*v <= EXPMAX) {
        double ww = aa_ * exp(*v);
        return isfinite(ww) ? ww : DBL_MAX;
    }
    return DBL_MAX;
}

static void beta_setup(double aa, double bb, beta_t *p)
{
    p->a = aa < bb ? aa : bb; /* fmin2, fmax2 */
    p->b = aa < bb ? bb : aa;
    p->alpha = p->a + p->b;
    p->gamma = p->delta = p->k1 = p->k2 = 0.0;
    if (p->a <= 1.0) {
        p->beta = 1.0 / p->a;
        p->delta = 1.0 + p->b - p->a;
        p->k1 = p->delta * (0.0138889 + 0.0416667 * p->a) / (p->b * p->beta - 0.777778);
        p->k2 = 0.25 + (0.5 + 0.25 / p->delta) * p->a;
    } else {
        p->beta = sqrt((p->alpha - 2.0) / (2.0 * p->a * p->b - p->alpha));
        p->gamma = p->a + 1.0 / p->beta;
    }
}

static double rbeta_bc(mts *s, double aa, const beta_t *p)
{
    double u1, u2, y, z, v = 0.0, ww = 0.0;
    for (;;) {
        u1 = unif(s);
        u2 = unif(s);
        if (u1 < 0.5) {
            y = u1 * u2;
            z = u1 * y;
            if (0.25 * u2 + z - y >= p->k1) continue;
        } else {
            z = u1 * u1 * u2;
            if (z <= 0.25) {
                ww = beta_vw(p->beta, u1, p->b, &v);
                break;
            }
            if (z >= p->k2) continue;
        }
        ww = beta_vw(p->beta, u1, p->b, &v);
        if (p->alpha * (log(p->alpha / (p->a + ww)) + v) - 1.3862944 >= log(z)) break;
    }
    return aa == p->a ? p->a / (p->a + ww) : ww / (p->a + ww);
}

static double rbeta_bb(mts *s, double aa, const beta_t *p)
{
    double u1, u2, v, ww, z, r, sx, t;
    for (;;) {
        u1 = unif(s);
        u2 = unif(s);
        ww = beta_vw(p->beta, u1, p->a, &v);
        z = u1 * u1 * u2;
        r = p->gamma * v - 1.3862944;
        sx = p->a + r - ww;
        if (sx + 2.609438 >= 5.0 * z) break;
        t = log(z);
        if (sx > t) break;
        if (!(r + p->alpha * log(p->alpha / (p->b + ww)) < t)) break;
    }
    return aa != p->a ? p->b / (p->b + ww) : ww / (p->b + ww);
}

/* out[i] = rbeta(aa[i], bb[i]) for finite shapes, not one 0 and the other
 * not (a length-1 parameter is recycled); aa = bb = 0 draws the coin. */
PCR_API void pcr_beta_fill(uint32_t *mt, uint32_t *w, i64 *st, const double *aa, i64 na,
                           const double *bb, i64 nb, double *out, i64 n)
{
    mts s = {mt, w, st[0]};
    double olda = NAN, oldb = NAN;
    beta_t p = {0};
    for (i64 i = 0; i < n; i++) {
        double ai = na > 1 ? aa[i] : aa[0], bi = nb > 1 ? bb[i] : bb[0];
        if (ai == 0.0 && bi == 0.0) {
            out[i] = unif(&s) < 0.5 ? 0.0 : 1.0;
            continue;
        }
        if (!(ai == olda && bi == oldb)) {
            olda = ai;
            oldb = bi;
            beta_setup(ai, bi, &p);
        }
        out[i] = p.a <= 1.0 ? rbeta_bc(&s, ai, &p) : rbeta_bb(&s, ai, &p);
    }
    st[0] = s.pos;
}

/* rpois.c */
static const double M_1_SQRT_2PI_ = 0.398942280401432677939946059934;
static const double ONE_7 = 0.1428571428571428571, ONE_12 = 0.0833333333333333333,
                    ONE_24 = 0.0416666666666666667;
static const double PA[8] = {-0.5, 0.3333333, -0.2500068, 0.2000118,
                             -0.1661269, 0.1421878, -0.1384794, 0.1250060};
static const double FACT[10] = {1., 1., 2., 6., 24., 120., 720., 5040., 40320., 362880.};

typedef struct {
    double s, d, big_l, omega, c3, c2, c1, c0, c;
} pois_t;

/* Case B's cumulative table pp[0..35], term by term as rpois.c builds it. */
static void pois_table(double mu, double *pp)
{
    double p = exp(-mu), q = p;
    pp[0] = p;
    for (int k = 1; k < 36; k++) {
        p *= mu / k;
        q += p;
        pp[k] = q;
    }
}

/* R searches from min(l, m) when u > 0.458; below that index the table
 * stays under 0.458 for every mu < 10, so a search from 0 ends at the same k. */
static inline double rpois_small(mts *s, const double *pp)
{
    for (;;) {
        double u = unif(s);
        for (int k = 0; k < 36; k++)
            if (u <= pp[k]) return (double)k;
    }
}

static void pois_setup(double mu, pois_t *P)
{
    P->s = sqrt(mu);
    P->d = 6. * mu * mu;
    P->big_l = floor(mu - 1.1484);
    P->omega = M_1_SQRT_2PI_ / P->s;
    double b1 = ONE_24 / mu, b2 = 0.3 * b1 * b1;
    P->c3 = ONE_7 * b1 * b2;
    P->c2 = b2 - 15. * P->c3;
    P->c1 = b1 - 6. * b2 + 45. * P->c3;
    P->c0 = 1. - b1 + 3. * b2 - 15. * P->c3;
    P->c = 0.1069 / mu;
}

static double rpois_big(mts *s, double mu, const pois_t *P)
{
    double g = mu + P->s * norm_rand(s);
    double pois = -1.0, u = 0.0, fk = 0.0, difmuk = 0.0, e = 0.0, t, px, py, x, fx, fy;
    if (g >= 0.) {
        pois = floor(g);
        if (pois >= P->big_l) return pois;
        fk = pois;
        difmuk = mu - fk;
        u = unif(s);
        if (P->d * u >= difmuk * difmuk * difmuk) return pois;
    }
    int kflag = 0, first = g >= 0.; /* enter at step F (kflag 0), else at step E */
    for (;;) {
        if (!first) {
            e = exp_rand(s);
            u = 2 * unif(s) - 1.;
            t = 1.8 + (u >= 0 ? fabs(e) : -fabs(e));
            if (!(t > -0.6744)) continue;
            pois = floor(mu + P->s * t);
            fk = pois;
            difmuk = mu - fk;
            kflag = 1;
        }
        first = 0;
        if (pois < 10) {
            px = -mu;
            py = pow(mu, pois) / FACT[(int)pois];
        } else {
            double del = ONE_12 / fk;
            del = del * (1. - 4.8 * del * del);
            double v = difmuk / fk;
            if (fabs(v) <= 0.25)
                px = fk * v * v * (((((((PA[7] * v + PA[6]) * v + PA[5]) * v + PA[4]) * v + PA[3]) * v
                                     + PA[2]) * v + PA[1]) * v + PA[0]) - del;
            else
                px = fk * log(1. + v) - difmuk - del;
            py = M_1_SQRT_2PI_ / sqrt(fk);
        }
        x = (0.5 - difmuk) / P->s;
        x *= x;
        fx = -0.5 * x;
        fy = P->omega * (((P->c3 * x + P->c2) * x + P->c1) * x + P->c0);
        if (kflag > 0) {
            if (P->c * fabs(u) <= py * exp(px + e) - fy * exp(fx + e)) return pois;
        } else if (fy - u * fy <= py * exp(px - fx)) {
            return pois;
        }
    }
}

/* out[i] = rpois(mu[i]) for finite mu > 0 (length 1 recycled); pp: room for
 * the table (36 doubles). */
PCR_API void pcr_pois_fill(uint32_t *mt, uint32_t *w, i64 *st, const double *mu, i64 nm,
                           double *out, i64 n, double *pp)
{
    mts s = {mt, w, st[0]};
    double prev = NAN;
    pois_t P = {0};
    for (i64 i = 0; i < n; i++) {
        double m = nm > 1 ? mu[i] : mu[0];
        if (m != prev) {
            prev = m;
            if (m < 10.0)
                pois_table(m, pp);
            else
                pois_setup(m, &P);
        }
        out[i] = m < 10.0 ? rpois_small(&s, pp) : rpois_big(&s, m, &P);
    }
    st[0] = s.pos;
}
