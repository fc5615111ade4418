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
#define PCR_ABI_VERSION 1

typedef int64_t i64;

#endif
