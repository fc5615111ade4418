"""One base for every object that stands for an R list: results, calibrators, model fits.

R returns its results as named lists (``res$p.value``, ``fit[["temperature"]]``).
:class:`RList` gives every such object the same face in Python:

* each component is an attribute under a Python name (R's dots become
  underscores: ``res.p_value``) and an item under its R name
  (``res["p.value"]``);
* ``keys()``, ``values()``, ``items()``, ``get()``, ``in``, ``len()`` and
  iteration follow R's ``names()`` and its order;
* ``obj["name"] = value`` replaces a component (R's ``obj[["name"]] <- value``),
  and the object then uses it: after ``fit["temperature"] = 1``,
  ``predict(fit, ...)`` scales by 1, as in R;
* ``r_class`` is R's ``class(obj)``, a tuple of strings;
* ``to_dict()`` is a plain dict of R names that :func:`json.dumps` accepts.

:class:`NamedNumber` is R's length-one named numeric (``c(SKCE_uq = 0.03)``):
a float for arithmetic, ``float()`` and comparisons, that keeps its R name for
printing and still reads as the one-entry dict it used to be
(``res.statistic["SKCE_uq"]``, ``dict(res.statistic)``).
"""

from __future__ import annotations

import inspect
import math
from typing import Any, Iterable, Iterator, List, Tuple

import numpy as np

__all__ = ["RList", "NamedNumber", "jsonable"]


def _attr(r_name: str) -> str:
    return r_name.replace(".", "_")


class NamedNumber(float):
    """R's named numeric of length one: ``c(name = value)``.

    A :class:`float` (``float(x)``, ``x * 2``, ``x > 0`` work and give plain
    floats) that also answers as the dict ``{name: value}``: ``x["name"]``,
    ``x.keys()``, ``x.items()``, ``dict(x)`` and iteration over the name.
    It equals a dict with the same single entry, and a number of the same value.

    R equivalent: the ``statistic`` and ``estimate`` components of an
    ``htest`` list, e.g. ``c(SKCE_uq = 0.02973914)``.

    Examples
    --------
    >>> x = NamedNumber("SKCE_uq", 0.25)
    >>> float(x), x * 2, x["SKCE_uq"], dict(x)
    (0.25, 0.5, 0.25, {'SKCE_uq': 0.25})
    >>> x
    NamedNumber(SKCE_uq=0.25)
    """

    def __new__(cls, name: str, value: float):
        obj = super().__new__(cls, value)
        obj.name = str(name)
        return obj

    @classmethod
    def from_dict(cls, value) -> "NamedNumber":
        """``{"name": value}`` (one entry) or an existing NamedNumber."""
        if isinstance(value, NamedNumber):
            return value
        (name, number), = dict(value).items()
        return cls(name, number)

    def keys(self) -> List[str]:
        return [self.name]

    def values(self) -> List[float]:
        return [float(self)]

    def items(self) -> List[Tuple[str, float]]:
        return [(self.name, float(self))]

    def to_dict(self) -> dict:
        return {self.name: float(self)}

    def __getitem__(self, key):
        if key == self.name:
            return float(self)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter([self.name])

    def __len__(self) -> int:
        return 1

    def __contains__(self, key) -> bool:
        return key == self.name

    def __eq__(self, other):
        if isinstance(other, dict):
            return self.to_dict() == other
        return float(self) == other

    def __ne__(self, other):
        return not self == other

    __hash__ = float.__hash__

    def __reduce__(self):
        return (NamedNumber, (self.name, float(self)))

    def __repr__(self) -> str:
        return f"NamedNumber({self.name}={float(self)!r})"


def jsonable(value: Any, data: bool = True) -> Any:
    """``value`` as plain Python data that :func:`json.dumps` accepts.

    R lists become dicts of R names, arrays nested lists, numpy scalars
    Python numbers; a missing or non-finite number (R's ``NA``, ``NaN``,
    ``Inf``) becomes ``None`` (JSON's ``null``), so the JSON is strict and
    ``json.loads(json.dumps(d)) == d``. Without ``data``, nested R lists
    leave out their per-row components (:meth:`RList.to_dict`).
    """
    if isinstance(value, RList) and _takes_data(type(value)):
        return jsonable(value.to_dict(data=data), data)
    if isinstance(value, (RList, NamedNumber)):
        return jsonable(value.to_dict())
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return v if math.isfinite(v) else None
    if isinstance(value, dict):
        return {str(k): jsonable(v, data) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()] if value.ndim else jsonable(value.item())
    if isinstance(value, (list, tuple)):
        return [jsonable(v, data) for v in value]
    to_numpy = getattr(value, "to_numpy", None)
    if callable(to_numpy):  # pandas Series / DataFrame / Categorical-backed objects
        return jsonable(np.asarray(to_numpy(), dtype=object))
    if hasattr(value, "__array__"):
        return jsonable(np.asarray(value))
    return str(value)


def _takes_data(cls) -> bool:
    """``cls.to_dict`` accepts ``data`` (subclasses that override it may not)."""
    try:
        return "data" in inspect.signature(cls.to_dict).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins
        return False


class RList:
    """Base of every object that mirrors an R list (see the module docstring).

    Subclasses fill their components with :meth:`_set_components` (R's order)
    and may override :meth:`_coerce` to normalise a value assigned to a
    component. Names are R's; attributes replace dots by underscores.
    ``_row_data`` names the components that hold one value per training row
    (a glm's residuals, fitted values and labels), which ``to_dict(data=False)``
    leaves out.
    """

    r_class: Tuple[str, ...] = ()
    _row_data: Tuple[str, ...] = ()

    def _set_components(self, components: Iterable[Tuple[str, Any]]) -> None:
        names = []
        for name, value in components:
            names.append(name)
            object.__setattr__(self, _attr(name), self._coerce(name, value))
        object.__setattr__(self, "_r_names", names)

    def _coerce(self, r_name: str, value: Any) -> Any:
        return value

    def __setattr__(self, attr: str, value: Any) -> None:
        # res.statistic = {...} normalises as res["statistic"] = {...} does.
        for name in self.__dict__.get("_r_names", ()):
            if _attr(name) == attr:
                value = self._coerce(name, value)
                break
        object.__setattr__(self, attr, value)

    def __getattr__(self, attr: str) -> Any:
        # Called only when no attribute `attr` exists. R's `$` completes a
        # unique prefix (fit$coef is fit$coefficients); Python attributes
        # are exact, so the error names the component the prefix matches.
        err = AttributeError(f"{type(self).__name__!r} object has no attribute {attr!r}")
        if not attr.startswith("_"):
            names = self.__dict__.get("_r_names", ())
            matches = [n for n in names if _attr(n).startswith(attr)]
            if len(matches) == 1:
                from ..inputs._hints import add_note

                add_note(err, f"Did you mean `{_attr(matches[0])}`? R's `$` completes a unique "
                         f"prefix (`$" + attr + f"` is `${matches[0]}`); Python attributes are "
                         f"exact: use .{_attr(matches[0])} or [\"{matches[0]}\"].")
        raise err

    # -- R's list accessors ---------------------------------------------------
    def keys(self) -> List[str]:
        """R ``names(obj)``, in R's order."""
        return list(self._r_names)

    def values(self) -> List[Any]:
        return [self[k] for k in self._r_names]

    def items(self) -> List[Tuple[str, Any]]:
        return [(k, self[k]) for k in self._r_names]

    def get(self, r_name: str, default: Any = None) -> Any:
        """``obj$name`` in R: the component, or ``default`` (R's ``NULL``) if absent."""
        if r_name in self._r_names:
            return self[r_name]
        return default

    def _resolve(self, key: str) -> str:
        """The R name for ``key`` given as an R name or as its attribute name."""
        if key in self._r_names:
            return key
        for name in self._r_names:
            if _attr(name) == key:
                return name
        raise KeyError(key)

    def __getitem__(self, key: str) -> Any:
        return getattr(self, _attr(self._resolve(key)))

    def __setitem__(self, key: str, value: Any) -> None:
        """R ``obj[[key]] <- value``: replace a component, or append a new one."""
        if not isinstance(key, str):
            raise TypeError("component names are strings")
        try:
            name = self._resolve(key)
        except KeyError:
            name = key
            attr = _attr(name)
            if hasattr(type(self), attr) or attr.startswith("_"):
                raise KeyError(f"{key!r} would hide the method or attribute {attr!r}") from None
            self._r_names.append(name)
        object.__setattr__(self, _attr(name), self._coerce(name, value))

    def __contains__(self, key) -> bool:
        return isinstance(key, str) and (key in self._r_names
                                         or any(_attr(n) == key for n in self._r_names))

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._r_names))

    def __len__(self) -> int:
        return len(self._r_names)

    def __dir__(self):
        return sorted(set(super().__dir__()) | {_attr(n) for n in self._r_names})

    def to_dict(self, data: bool = True) -> dict:
        """The components under R's names as plain data; ``json.dumps`` accepts it.

        Nested R lists (a calibrator's ``fit``, ``calibrators``) become nested
        dicts, arrays lists, and a non-finite number ``None``. With
        ``data=False`` the per-row components (``_row_data``) are left out,
        here and in every nested R list.
        """
        return {name: jsonable(self[name], data) for name in self._r_names
                if data or name not in self._row_data}
