# Included by _kernel.pyx (after _kernel_counts.pxi, whose core and score reads it uses).
"""Contingency.interval in C for its commonest read: Wilson's interval of a micro share.

``interval("micro_precision")`` (or ``micro_recall``, ``micro_f1``: each the
share of single-label results right) by Wilson's method, the default, at a
float level met before, reads in one call what the reference
(:meth:`contingency.Contingency.interval` as written in Python,
contingency/_intervals.py, the specification) reads through five Python
frames: the same checks of every argument, the same refusals (by handing the
call to the reference, which makes them), the estimate the micro read's
(``cc_score``) and the bounds :func:`contingency.formulas.intervals.wilson`'s,
operation for operation on the same doubles (``ci_wilson``). Everything else
is the reference's: another score or method, a level not met before (the
reference checks it and computes its quantile, which this read then finds in
:data:`contingency.formulas.intervals.LEVELS_SEEN`), a seed or ``draws`` not
a plain int, counts finer than a result or past ``2**53`` (where the
reference's shares are quotients of ints), results that are not single-label,
a micro table set by ``set_entries``, no results, another ``zero_division``
value. tests/test_kernel_intervals.py compares the two on the same streams (and
the stateful test of tests/test_kernel_counts.py after every step).

Which scores are served follows the registry of scores: the names it reads
``("share", name)`` in :func:`contingency._registry.interval_names` whose
micro read the C computes (``_score_code``), found again after every change
of the registry (it calls :func:`interval_scores_changed`).
"""

cdef extern from *:
    """
    /* contingency.formulas.intervals.wilson for 0 <= successes <= trials, 0 < trials < 2**53
       (exact doubles, as float(trials) there): the same operations in the same order. No
       operation may be fused (the kernel is compiled with -ffp-contract=off): Python rounds
       each one. */
    static void ci_wilson(int64_t successes, int64_t trials, double z, double *low,
                          double *high) {
        double t = (double)trials;
        double p = (double)successes / t;
        double q = (double)(trials - successes) / t;
        double z2n = z * z / t;
        double spread = z * sqrt(p * q / t + z2n / (4.0 * t));
        double far, l, h;
        if (successes * 2 <= trials) {
            far = p + z2n / 2.0 + spread;
            l = successes ? p * p / far : 0.0;
            h = far / (1.0 + z2n);
        } else {
            far = q + z2n / 2.0 + spread;
            l = (p + z2n / 2.0 - spread) / (1.0 + z2n);
            h = q != 0.0 ? 1.0 - q * q / far : 1.0;
        }
        *low = l > 0.0 ? l : 0.0;
        *high = h < 1.0 ? h : 1.0;
    }

    /* tuple.__new__(type, (low, estimate, high)) for Interval, a subclass of tuple without
       fields of its own: before Python 3.14, the body of tuple's __new__ for a subclass
       (tuple_subtype_new: the type's tp_alloc, which tracks the object for the garbage
       collector, then the items); from 3.14 on (whose tuples cache their hash), that slot. */
    static PyObject *ci_new_interval(PyObject *type, double low, double estimate, double high) {
        PyObject *items[3], *made;
        items[0] = PyFloat_FromDouble(low);
        items[1] = PyFloat_FromDouble(estimate);
        items[2] = PyFloat_FromDouble(high);
        if (items[0] == NULL || items[1] == NULL || items[2] == NULL) goto failed;
    #if PY_VERSION_HEX < 0x030E0000
        made = ((PyTypeObject *)type)->tp_alloc((PyTypeObject *)type, 3);
        if (made == NULL) goto failed;
        for (int i = 0; i < 3; i++) PyTuple_SET_ITEM(made, i, items[i]);
        return made;
    #else
        {
            PyObject *bounds = PyTuple_New(3), *arguments;
            if (bounds == NULL) goto failed;
            for (int i = 0; i < 3; i++) PyTuple_SET_ITEM(bounds, i, items[i]);
            arguments = PyTuple_Pack(1, bounds);
            Py_DECREF(bounds);
            if (arguments == NULL) return NULL;
            made = PyTuple_Type.tp_new((PyTypeObject *)type, arguments, NULL);
            Py_DECREF(arguments);
            return made;
        }
    #endif
    failed:
        for (int i = 0; i < 3; i++) Py_XDECREF(items[i]);
        return NULL;
    }
    """
    void ci_wilson(int64_t successes, int64_t trials, double z, double *low,
                   double *high) noexcept nogil
    object ci_new_interval(object type, double low, double estimate, double high)

from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.math cimport NAN

from sys import intern as _intern


cdef object _interval_reference = None  # Contingency.interval as written in Python
cdef object _Interval = None  # contingency.formulas.intervals.Interval
cdef dict _LEVELS_SEEN = None  # contingency.formulas.intervals.LEVELS_SEEN
cdef object _interval_names = None  # contingency._registry.interval_names
cdef int64_t _MAX_DRAWS = 0
#: The scores served, by name: cc_score's code (None until the first read after a change of the
#: registry finds them again).
cdef dict _SHARE_CODES = None
#: The last level read and its z (a level of LEVELS_SEEN: checked, and its z computed, by the
#: reference; NaN, equal to no level, until then).
cdef double _last_level = NAN, _last_z = NAN
cdef object _ZERO = 0  # interval's default seed, tested by identity first (a cached small int)
#: 2**53: from there on the reference's shares are quotients of ints, not of exact doubles.
cdef int64_t _EXACT_FLOAT_BOUND = (<int64_t>1) << 53


def compiled_interval(reference, interval_type, dict levels_seen, interval_names, max_draws):
    """:func:`interval`, given the method as written in Python (``reference``, which serves
    every read this does not), ``Interval``, the levels met so far with their z, the registry's
    ``interval_names`` and the largest number of draws."""
    global _interval_reference, _Interval, _LEVELS_SEEN, _interval_names, _MAX_DRAWS
    _interval_reference, _Interval, _LEVELS_SEEN = reference, interval_type, levels_seen
    _interval_names, _MAX_DRAWS = interval_names, max_draws
    interval_scores_changed()
    return interval


def interval_scores_changed():
    """Find the served scores again at the next read: the registry of scores has changed."""
    global _SHARE_CODES
    _SHARE_CODES = None


cdef dict _share_codes():
    """Each score whose interval the registry reads as a micro share that the C computes,
    with its code in cc_score."""
    global _SHARE_CODES
    cdef dict found = {}
    cdef int code
    for score, how in _interval_names().items():
        if type(how) is tuple and len(how) == 2 and how[0] == "share":
            code = _score_code(how[1], 5)
            if code >= 0:  # (interned, as a name written in code is: found by identity)
                found[_intern(score)] = code
    _SHARE_CODES = found
    return found


cdef inline bint _plain_arguments(object method, object seed, object draws):
    """Wilson's method, and a seed and draws that _check_arguments takes as they are (plain
    ints: a draws from 1 to MAX_DRAWS, a seed None or at least 0)."""
    cdef int overflow = 0
    cdef long long count
    if method is not "wilson" and not (type(method) is str and method == "wilson"):
        return False
    if type(draws) is not int:
        return False
    count = PyLong_AsLongLongAndOverflow(draws, &overflow)
    if overflow or not 0 < count <= _MAX_DRAWS:
        return False
    return seed is _ZERO or seed is None or (type(seed) is int and seed >= 0)


@cython.binding(True)
def interval(self, score, *, level=0.95, method="wilson", seed=0, draws=10_000):
    """Contingency.interval in C for Wilson's interval of a micro share (see the module
    docstring); every other read, and every refusal, by the reference."""
    cdef dict codes = _SHARE_CODES if _SHARE_CODES is not None else _share_codes()
    cdef PyObject *code = PyDict_GetItem(codes, score) if type(score) is str else NULL
    cdef double chosen, z, low, high, estimate
    cdef KernelCountsCore core
    cdef int mode
    cdef int64_t n
    if code is not NULL and type(level) is float \
            and _plain_arguments(method, seed, draws):
        chosen = level
        if chosen == _last_level:
            z = _last_z
        else:
            z = _seen_quantile(level)
        counts = self._counts
        if z == z and isinstance(counts, KernelCountsCore):
            core = <KernelCountsCore>counts
            n = core._n
            mode = _mode_code(self._zero_division)
            if core._wide is None and 0 < n < _EXACT_FLOAT_BOUND and n == core._hit + core._miss \
                    and mode >= 0 and _no_offset(counts.offset):
                estimate = core._micro_value(<int><object>code, mode)
                ci_wilson(core._hit, n, z, &low, &high)
                return ci_new_interval(_Interval, low if low <= estimate else estimate, estimate,
                                       high if high >= estimate else estimate)
    return _interval_reference(self, score, level=level, method=method, seed=seed, draws=draws)


cdef double _seen_quantile(object level):
    """z of a level in LEVELS_SEEN (kept as the last level read), or NaN for one not met yet."""
    global _last_level, _last_z
    cdef PyObject *z = PyDict_GetItem(_LEVELS_SEEN, level)
    if z is NULL or type(<object>z) is not float:
        return NAN
    _last_level, _last_z = level, <double><object>z
    return _last_z


def wilson_bounds(successes, trials, double z):
    """``ci_wilson``'s ``(low, high)``, the C form of contingency.formulas.intervals.wilson, for
    the tests against it (counts ``0 <= successes <= trials``, ``0 < trials < 2**53``)."""
    cdef double low, high
    if not 0 <= successes <= trials or not 0 < trials < 2**53:
        raise ValueError(f"wilson_bounds: counts 0 <= {successes!r} <= {trials!r} < 2**53 "
                         "needed")
    ci_wilson(successes, trials, z, &low, &high)
    return low, high
