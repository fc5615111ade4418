/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Python module stub of the compiled kernels. The kernels are plain C
 * functions called through ctypes (pycalib_r/_native/__init__.py); this stub
 * only makes the shared library importable as ``pycalib_r._native._lib``, so
 * that it is built, installed and found like any extension module. It uses
 * the stable ABI only (one wheel for every Python >= 3.10).
 */
#include "pcr.h"
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static struct PyModuleDef pcr_module = {
    PyModuleDef_HEAD_INIT, "_lib",
    "pycalib_r's compiled kernels (called through ctypes; see pycalib_r._native).",
    -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__lib(void) { return PyModule_Create(&pcr_module); }

/* The ABI version the Python side checks before it trusts the library: a
 * stale build left in a source tree is refused instead of called with the
 * wrong arguments. Raise it whenever a kernel's signature changes. */
PCR_API int pcr_abi_version(void) { return PCR_ABI_VERSION; }

/* sizeof(long double) and its mantissa digits, for show_config(). */
PCR_API int pcr_long_double_digits(void) { return LDBL_MANT_DIG; }
