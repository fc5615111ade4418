/* SPDX-License-Identifier: GPL-3.0-or-later
 * Derived from: optimized-routines (Arm) 2018 math/exp.c, math/exp_data.c (MIT), (c) 1999-2018 Arm Limited
 * Derived from: glibc 2.36 sysdeps/ieee754/dbl-64/e_exp.c, e_exp_data.c (LGPL-2.1-or-later),
 *   (c) 2018-2022 Free Software Foundation, Inc.
 *
 * The C library's exp, log and log1p over arrays, as R's arithmetic calls
 * them (one call per element), and exp_block: glibc's exp (Szabolcs Nagy's
 * algorithm, from Arm's optimized-routines) with its main path vectorised,
 * the same bits as glibc's FMA build where the Python side's once-per-process
 * check (_native/libm.py fast_exp_ok) finds them.
 *
 * glibc's exp and log are wrappers that set errno around the IFUNCs
 * __exp_finite/__log_finite; the Python side looks those up (dlvsym) and,
 * where they agree bit for bit with the wrappers, hands them here through
 * pcr_set_libm: the same bits, about 40% cheaper calls.
 */
#include "pcr.h"
#include <math.h>
#include <string.h>

typedef double (*d2d)(double);
static d2d g_exp = exp;
static d2d g_log = log;

PCR_API void pcr_set_libm(void *exp_fn, void *log_fn)
{
    if (exp_fn) g_exp = (d2d)exp_fn;
    if (log_fn) g_log = (d2d)log_fn;
}

/* How many of x[0..n) two double -> double functions answer differently
 * (bits, the sign of zero included; any NaN equals any NaN): the check that
 * a direct entry gives its wrapper's values, in C (a Python loop of ctypes
 * calls took 15 ms of a first call). */
PCR_API i64 pcr_d2d_disagree(void *fa, void *fb, const double *x, i64 n)
{
    d2d a = (d2d)fa, b = (d2d)fb;
    i64 bad = 0;
    for (i64 i = 0; i < n; i++) {
        double u = a(x[i]), v = b(x[i]);
        if (u != u && v != v) continue;
        bad += memcmp(&u, &v, sizeof u) != 0;
    }
    return bad;
}

double pcr_glibc_exp(double x) { return g_exp(x); }
double pcr_glibc_log(double x) { return g_log(x); }

/* log(x < 0) is NaN: a positive one, as the twin's (scipy's xlogy) is; the
 * C library's invalid-operation NaN has its sign bit set. */
PCR_API void pcr_log_into(const double *x, i64 n, double *out)
{
    for (i64 i = 0; i < n; i++) out[i] = x[i] < 0.0 ? __builtin_nan("") : g_log(x[i]);
}

PCR_API void pcr_log1p_into(const double *x, i64 n, double *out)
{
    for (i64 i = 0; i < n; i++) out[i] = log1p(x[i]);
}

PCR_API void pcr_exp_calls(const double *x, i64 n, double *out)
{
    for (i64 i = 0; i < n; i++) out[i] = g_exp(x[i]);
}

/* tab[2j] = bits of T[j], tab[2j+1] = bits of H[j] minus j << 45 (computed
 * from the table's definition on the Python side and handed over once). */
static uint64_t g_tab[256];
static int g_tab_set = 0;

PCR_API void pcr_set_exp_table(const uint64_t *tab)
{
    memcpy(g_tab, tab, sizeof g_tab);
    g_tab_set = 1;
}

static inline uint64_t f64_bits(double v) { uint64_t u; memcpy(&u, &v, 8); return u; }
static inline double bits_f64(uint64_t u) { double v; memcpy(&v, &u, 8); return v; }

#define INV_LN2_N 0x1.71547652b82fep0 * 128
#define SHIFT 0x1.8p52
#define NEG_LN2_HI_N -0x1.62e42fefa0000p-8
#define NEG_LN2_LO_N -0x1.cf79abc9e3b3ap-47
#define C2 0x1.ffffffffffdbdp-2
#define C3 0x1.555555555543cp-3
#define C4 0x1.55555cf172b91p-5
#define C5 0x1.1111167a4d017p-7

/* One element of the main path; every fma is one vfmadd of glibc's FMA
 * build, in the same places. */
#define EXP_MAIN(v, res, top_out)                                                      \
    do {                                                                               \
        uint64_t top_ = (f64_bits(v) >> 52) & 0x7FF;                                   \
        double kd_ = __builtin_fma(v, INV_LN2_N, SHIFT);                               \
        uint64_t ki_ = f64_bits(kd_);                                                  \
        kd_ = kd_ - SHIFT;                                                             \
        double r_ = __builtin_fma(kd_, NEG_LN2_LO_N, __builtin_fma(kd_, NEG_LN2_HI_N, v)); \
        uint64_t j_ = (ki_ & 127) << 1;                                                \
        double r2_ = r_ * r_;                                                          \
        double tmp_ = __builtin_fma(r2_ * r2_, __builtin_fma(r_, C5, C4),              \
                                    __builtin_fma(__builtin_fma(r_, C3, C2), r2_, r_ + bits_f64(g_tab[j_]))); \
        double scale_ = bits_f64(g_tab[j_ + 1] + (ki_ << 45));                         \
        double tiny_ = 1.0 + v, main_ = __builtin_fma(scale_, tmp_, scale_);          \
        uint64_t m_ = (uint64_t)0 - (uint64_t)(top_ < 0x3C9);                          \
        res = bits_f64((f64_bits(tiny_) & m_) | (f64_bits(main_) & ~m_));               \
        top_out = top_;                                                                \
    } while (0)

/* The path select is done on the bits (both sides are computed anyway), so
 * that gcc vectorises the loop without relaxing IEEE semantics. */
__attribute__((target("avx2,fma")))
static i64 exp_block_fma(const double *x, i64 n, double *out)
{
    i64 outside = 0;
    for (i64 i = 0; i < n; i++) {
        double v = x[i], res;
        uint64_t top;
        EXP_MAIN(v, res, top);
        out[i] = res;
        outside += top >= 0x408;
    }
    return outside;
}

/* Whether exp_block can run here (a CPU with FMA, the table handed over). */
PCR_API int pcr_exp_block_usable(void)
{
    __builtin_cpu_init();
    return g_tab_set && __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
}

/* out[i] = exp(x[i]) with glibc's FMA build's bits: the main path for every
 * element in one vectorised loop, then glibc's own function for the
 * elements outside it (|x| >= 512, inf, NaN). out must not be x. Only where
 * pcr_exp_block_usable() and the Python side's once-per-process check agree. */
PCR_API void pcr_exp_block(const double *x, i64 n, double *out)
{
    if (exp_block_fma(x, n, out)) {
        for (i64 i = 0; i < n; i++)
            if (((f64_bits(x[i]) >> 52) & 0x7FF) >= 0x408) out[i] = g_exp(x[i]);
    }
}
