/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared declarations of pycalib_r's compiled kernels.
 *
 * Every kernel is a plain C function with C arguments (pointers to the
 * numpy arrays' data, int64 lengths and doubles), exported with PCR_API and
 * called through ctypes, which releases the GIL for the call. Kernels never
 * allocate Python objects and never call back into Python.
 */
#ifndef PCR_H
#define PCR_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>

#define PCR_API __attribute__((visibility("default")))
#define PCR_ABI_VERSION 3

typedef int64_t i64;

/* A loop that vectorises is built twice, for x86-64's baseline (SSE2) and
 * for AVX2, and the C library picks the one the CPU runs at load time (an
 * ifunc). Both do the same IEEE operations on each element (no fused
 * multiply-add: -ffp-contract=off, and the avx2 target has no FMA), so the
 * bits are the same; only the vector width differs. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define PCR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PCR_CLONES
#endif

#endif
