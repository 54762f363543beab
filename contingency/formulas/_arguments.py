"""The checks of a read's options: one of some strings, a flag, a real number; each names the argument.

Every read of every accumulator checks its options here before it reads a
count, so that a wrong kind of argument gets one clear error (which
argument, in which call, what is allowed) instead of numpy's "truth value of
an array is ambiguous", a bare ``TypeError`` from deep inside, or a silent
acceptance (``np.array(["macro"])`` taken for ``"macro"``). A value of the
right kind in numpy's dress (``np.str_``, ``np.float64``, ``np.int64``,
``np.bool_``) is taken as its Python value; an array never is, whatever its
size or shape; a bool is not a number.
"""

from __future__ import annotations

import math

import numpy as np

from contingency.formulas._numeric import shown

__all__ = ["call_prefix", "check_choice", "check_flag", "real_number"]


def call_prefix(where: str | None) -> str:
    """The start of an error of the call ``where``: ``"where: "``, or nothing without a call.

    >>> call_prefix("v_measure"), call_prefix(None)
    ('v_measure: ', '')
    """
    return f"{where}: " if where else ""


def check_choice(value: object, name: str, allowed: tuple[str | None, ...],
                 where: str | None = None) -> str | None:
    """``value`` (as a Python ``str``) if it is one of the strings ``allowed`` (or ``None`` if
    ``None`` is allowed), else ``ValueError`` naming ``name``, the call ``where`` and what is
    allowed. Anything but a string is refused before any comparison (an array compared with a
    string is an array, whose truth numpy refuses to tell).

    >>> check_choice(np.str_("l2"), "norm", ("l1", "l2", "max"), "calibration_error")
    'l2'
    >>> check_choice(np.array([1, 2]), "norm", ("l1", "l2", "max"), "calibration_error")
    Traceback (most recent call last):
    ...
    ValueError: calibration_error: norm must be one of 'l1', 'l2', 'max', not array([1, 2])
    >>> check_choice(np.array(["linear"]), "weights", (None, "linear"), "cohen_kappa")
    Traceback (most recent call last):
    ...
    ValueError: cohen_kappa: weights must be one of None, 'linear', not array(['linear'], dtype='<U6')
    """
    if value is None and None in allowed:
        return None
    if not (isinstance(value, str) and value in allowed):
        raise ValueError(f"{call_prefix(where)}{name} must be one of "
                         f"{', '.join(map(repr, allowed))}, not {shown(value)}")
    return str(value)


def check_flag(value: object, name: str, where: str | None = None) -> bool:
    """``value`` as a bool if it is ``True`` or ``False`` (Python's or numpy's), else
    ``TypeError`` naming ``name`` and the call ``where`` (a truthy array, number or string is not
    taken for a flag).

    >>> check_flag(np.True_, "drop_intermediate", "roc_curve")
    True
    >>> check_flag(1, "drop_intermediate", "roc_curve")
    Traceback (most recent call last):
    ...
    TypeError: roc_curve: drop_intermediate must be True or False, not 1
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{call_prefix(where)}{name} must be True or False, not {shown(value)}")
    return bool(value)


def real_number(value: object) -> float | None:
    """``value`` as a Python float if it is a real number (Python's or numpy's integer or float,
    not a bool), else ``None``; an integer too large for a float is infinite (callers that want a
    finite number refuse it as such).

    >>> real_number(np.float64(0.5)), real_number(10**400), real_number(True)
    (0.5, inf, None)
    >>> real_number(np.array([0.5])) is None, real_number(np.array(0.5)) is None
    (True, True)
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        return None
    try:
        return float(value)
    except OverflowError:  # an int past float64's range: larger than any finite number
        return math.inf if value > 0 else -math.inf
