# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/metrics.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Input forms: which problem an input poses, checked once, in R's order.

probcal answers a probability vector with the binary definition of a metric
and a probability matrix with one of its multiclass forms; its
``multiclass_calibration_error()`` (``R/metrics.R``) is that dispatch for the
binned metrics, and the kernel functions make the same choice. This module
is the one place it is written: :func:`input_form` checks ``p`` and ``y`` the
way R does for the requested form and returns a :class:`Form`, and every
caller (metrics, kernel, inference, diagnostics) works on the Form without
checking or branching on the input again.

Forms:

* ``"binary"``: a vector ``p`` with 0/1 labels;
* ``"confidence"``: the top-label confidence of a matrix and whether the
  first maximal column is the label (``multiclass_confidence()`` in R);
* ``"classwise"``: the one-vs-rest columns of a matrix;
* ``"canonical"``: the matrix itself (kernel functions only).
"""

from __future__ import annotations

from typing import Iterator, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ._checks import (
    MulticlassLabels,
    check_binary_y,
    check_multiclass_y,
    check_prob_matrix,
    check_prob_matrix_values,
    check_probability,
    check_same_length,
    input_kernels,
    is_matrix,
    match_arg,
    multiclass_labels,
    row_blocks,
    values_first,
)

__all__ = ["Form", "input_form", "binary_inputs", "confidence_pair", "MULTICLASS_TYPES",
           "SCALAR_FORMS"]

MULTICLASS_TYPES = ("classwise", "confidence")
SCALAR_FORMS = ("binary", "confidence")


class Form(NamedTuple):
    """Checked input of one form.

    Scalar forms (``"binary"``, ``"confidence"``) carry ``r`` (float64) and
    ``c`` (int64 0/1); matrix forms (``"classwise"``, ``"canonical"``)
    carry the checked matrix ``p`` and the ``labels``.
    """

    kind: str
    n: int
    r: Optional[np.ndarray] = None
    c: Optional[np.ndarray] = None
    p: Optional[np.ndarray] = None
    labels: Optional[MulticlassLabels] = None
    # True: the matrix's values are not checked yet (``input_form(defer=True)``).
    deferred: bool = False

    @property
    def k(self) -> int:
        return 0 if self.p is None else self.p.shape[1]

    @property
    def codes(self) -> Optional[np.ndarray]:
        return None if self.labels is None else self.labels.codes

    @property
    def scalar(self) -> bool:
        return self.kind in SCALAR_FORMS

    def problems(self) -> Iterator[Tuple[np.ndarray, np.ndarray]]:
        """The scalar problems ``(r, c)``: one for a scalar form, one per class
        (column ``k`` against ``y == k``) for a matrix form, built one at a time."""
        if self.scalar:
            yield self.r, self.c
            return
        for j in range(self.k):
            yield self.p[:, j], (self.labels.codes == j + 1).astype(np.int64)


def binary_inputs(p, y, copy: bool = True):
    """The checks of probcal's binary metrics, in R's order; returns float p
    and int y (copies, or with ``copy=False`` read-only views of arrays
    already of those types)."""
    p_arr = check_probability(p, arg="p", copy=copy)
    y_arr = check_binary_y(y, arg="y", copy=copy)
    check_same_length(p_arr.ravel(), y_arr, x_arg="p", y_arg="y")
    return p_arr.ravel(), y_arr


def confidence_pair(p_mat: np.ndarray, y):
    """R ``multiclass_confidence()``: top-label confidence and correctness of a
    checked matrix (the first maximal column wins ties)."""
    labels = multiclass_labels(p_mat, y, x_arg="p")
    n = p_mat.shape[0]
    confidence = np.empty(n, dtype=np.float64)
    correct = np.empty(n, dtype=np.int64)
    kern = input_kernels(p_mat.size)
    if kern is not None:  # one pass over the rows, the same values
        kern.top_label(p_mat, np.ascontiguousarray(labels.codes, dtype=np.int64), confidence, correct)
        return confidence, correct
    return _top_label_numpy(p_mat, labels.codes, confidence, correct)


def _top_label_numpy(p_mat, codes, confidence, correct):
    """The twin of ``_native.inputs.top_label``: ``argmax`` by blocks of rows."""
    # In blocks of rows: bounded temporaries, and Ctrl-C is seen between them.
    for rows in row_blocks(p_mat):
        block = p_mat[rows]
        predicted = np.argmax(block, axis=1)
        confidence[rows] = np.take_along_axis(block, predicted[:, None], axis=1)[:, 0]
        np.equal(predicted + 1, codes[rows], out=correct[rows], casting="unsafe")
    return confidence, correct


def input_form(p, y, type="classwise", types: Optional[Sequence[str]] = MULTICLASS_TYPES,
               same_rows: bool = False, copy: bool = True, defer: bool = False) -> Form:
    """Check ``p`` and ``y`` for the form ``type`` asks, in R's order.

    A vector ``p`` is the binary form whatever ``type`` is (R never evaluates
    it). For a matrix, ``check_prob_matrix()`` comes first and ``type`` is
    then matched against ``types`` (R's lazy ``match.arg``; ``types=None``
    takes an already matched ``type``). The classwise form of the binned
    metrics checks the labels against the columns and leaves the row count
    to the binary metric's ``check_same_length()``, as R's
    ``multiclass_calibration_error()`` does; ``same_rows=True`` (the kernel
    functions) checks rows against labels directly. ``copy=False``: the
    form may hold read-only views of the caller's arrays (for callers that
    only read them). ``defer=True`` (``_metrics.bind_metric``, where the
    later checks cannot warn): a classwise form's matrix values are left
    unchecked (``Form.deferred``), for the caller's kernel to scan as it
    reads them; a later check's failure still comes after theirs.
    """
    if not is_matrix(p):
        r, c = binary_inputs(p, y, copy)
        return Form("binary", r.size, r=r, c=c)
    p_mat = check_prob_matrix(p, arg="p", copy=copy, values=not defer)
    with values_first(p_mat, defer):
        if types is not None:
            type = match_arg(type, types)
    if defer and type != "classwise":
        check_prob_matrix_values(p_mat, "p")
        defer = False
    if type == "confidence":
        r, c = confidence_pair(p_mat, y)
        return Form("confidence", r.size, r=r, c=c)
    with values_first(p_mat, defer):
        if same_rows:
            labels = multiclass_labels(p_mat, y, x_arg="p")
        else:
            labels = check_multiclass_y(y, n_classes=p_mat.shape[1], arg="y")
            # The per-class binary metric's length check (its other checks
            # cannot fail on a checked matrix and 0/1 indicators).
            check_same_length(p_mat[:, 0], labels.codes, x_arg="p", y_arg="y")
    return Form(type, p_mat.shape[0], p=p_mat, labels=labels, deferred=defer)
