# Included by _kernel.pyx.
"""The compiled core of Contingency's counts: every count in C, by category code, and the one-result write.

The same interface and, after every change, the same state as the
pure-Python reference :class:`contingency._counts_reference.CountsCore` (the
specification; read it first). :mod:`contingency._backend` chooses one of
the two as the base of :class:`contingency._counts.Counts`, and
tests/test_kernel_counts.py drives both with the same streams and compares
every state and read after each step.

Storage, while every count is a whole number of results (``scale`` 0, every
count at most ``MAX_COUNT``, checked before every write):

- cells ``a``, ``b``, ``c``: three int64 columns indexed by category code,
  one after the other in one allocation (grown by doubling; a forgotten
  category's code is a hole of zeros until the codes are made dense again),
  read by category through :class:`KernelCells` (a read-only mapping label ->
  count in table order);
- the category coding, ``ids`` (label -> code) and ``names`` (code -> label):
  shared with the cores copied from this one (and the one it was copied
  from) until one of them adds or forgets a category, which copies them
  first (copy-on-write): the groups of a GroupedContingency, copies of one
  empty accumulator, hold one coding while they have the same categories;
- ``n`` and the counts of the single-label shapes ``HIT`` and ``MISS``: C
  int64s (every one at most ``n``); the other shapes in a dict;
- the micro table: four signed 128-bit integers (``d`` is ``K n`` less the
  rest, up to ``2**94``);
- the single-label results by pair: :class:`KernelPairs`, the kernel's hash
  table (contingency/_kernel_slots.pxi) keyed ``code(correct) << 32 |
  code(assigned)``, in 8-byte slots while every code is below ``2**16 - 1``
  and every count below ``2**32``;
- the running sums of the plain macro means of precision, recall and F1, one
  per score and ``zero_division`` mode (``cc_sum``), each made by the first
  read that needs it (O(K)) and kept by every write from then on: the one
  place a cell changes (``_add_cell``), ``join`` and ``forget`` take the
  category's old values out and put its new ones in. A value ``v`` is held as
  the exact integer ``v * 2**128`` (as
  :class:`contingency._category_sums.CategorySums` holds it; every count is
  below ``2**63``, so ``v`` is 0, 1 or at least ``2**-65``, its last bit at
  least ``2**-117``), the sum in 192 bits (a 128-bit word and a signed carry
  word), so no update rounds; a read rounds the sum once to a double (to
  nearest, ties to even, as ``float(int)``), scales it by ``2**-128`` (exact)
  and divides it by the number of values, the reference's mean bit for bit.
  The means weighted by support ``a + c`` keep, beside the plain sum of
  their score and mode, the sum of each value's integer times its support
  (256 bits, ``cc_wsum``) and the sum of those supports; a read rounds the
  first once, scales it and divides it by the second as a double (the plain
  mean when the supports sum to zero), as the reference's weighted mean.
  The micro table's scores are read from the micro table in C too, by the
  registry's scalar forms' operations on the same doubles. Both serve the
  four ``zero_division`` modes at scale 0; anything else is read by the
  reference's Python (:meth:`KernelCountsCore.micro_score`,
  :meth:`KernelCountsCore.macro_mean`, :meth:`KernelCountsCore.weighted_mean`), and
  Contingency's properties reach
  them in one call (:func:`average_reader`).

A fractional weight makes every count an integer in units of
``2**-scale``, which can pass int64 (a weight of 0.3 is about ``2**52``
units): from the first such count until the scale returns to 0, the kernel
holds its counts as the reference does (Python ints, in a
:class:`~contingency._counts_reference.CountsCore` it delegates every
primitive to) and its one-result writes step aside for the reference's rule.
At any moment the counts are in one place.

The writes of one result are :meth:`KernelCountsCore.count_pair` (a
single-label result, its labels joining as categories with ``join``),
:meth:`KernelCountsCore.count_sets` (a result of two sets); a PairedComparison's
paired table and its ``add_result`` are in contingency/_kernel_paired.pxi.
Batches, removals, merges and ``set_entries`` go through
:meth:`contingency._counts.Counts.apply` on either core, which the
primitives here (``join``, ``add_cells``, ``add_shapes``, ``add_micro``,
``forget``, ``rescale_counts``) serve.
"""

from collections.abc import Mapping as _Mapping

from cpython.dict cimport PyDict_GetItem, PyDict_SetItem, PyDict_DelItem, PyDict_Next
from cpython.object cimport PyObject_IsTrue
from cpython.set cimport PySet_Add
from cpython.long cimport PyLong_FromLongLong
from libc.string cimport memset

cdef extern from *:
    """
    typedef __int128 ck_i128;

    static PyObject *ck_int_signed(ck_i128 x) {
        if (x >= INT64_MIN && x <= INT64_MAX) return PyLong_FromLongLong((long long)x);
        unsigned char bytes[16];
        for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)((unsigned __int128)x >> (8 * i));
        return _PyLong_FromByteArray(bytes, 16, 1, 1);
    }

    static ck_i128 ck_i128_of(int64_t high, uint64_t low) {
        return (ck_i128)high * ((ck_i128)1 << 64) + (ck_i128)low;
    }

    /* The reads: the micro table's scores and the plain macro means, as the reference's
       Python computes them (contingency.formulas.classification's scalar forms, the mean of
       contingency._category_sums.CategorySums), operation for operation on the same doubles. */

    /* The integer high * 2**128 + low (at most 2**192 - 1) as the nearest double, ties to even:
       Python's float(int). The top 64 bits are kept, every bit below them ORed into the last
       (a sticky bit, far below the rounding position), and converted by the hardware (which
       rounds to nearest, ties to even); the power of two put back is exact. */
    static double cc_u192_double(uint64_t high, unsigned __int128 low) {
        uint64_t top;
        int shift, sticky;
        if (high) {
            int bits = 64 - __builtin_clzll(high);
            shift = 64 + bits;  /* 65 .. 128 */
            if (shift == 128) {
                top = high;
                sticky = low != 0;
            } else {
                top = (high << (128 - shift)) | (uint64_t)(low >> shift);
                sticky = (low & (((unsigned __int128)1 << shift) - 1)) != 0;
            }
        } else if ((uint64_t)(low >> 64)) {
            shift = 64 - __builtin_clzll((uint64_t)(low >> 64));  /* 1 .. 64 */
            top = (uint64_t)(low >> shift);
            sticky = (low & (((unsigned __int128)1 << shift) - 1)) != 0;
        } else {
            return (double)(uint64_t)low;
        }
        return ldexp((double)(top | (uint64_t)sticky), shift);
    }

    static double cc_limbs_double(uint64_t high, uint64_t middle, uint64_t low) {
        return cc_u192_double(high, (unsigned __int128)middle << 64 | low);
    }

    /* float(x) of a 128-bit integer (either sign). */
    static double cc_double(ck_i128 x) {
        if (x >= 0) return cc_u192_double(0, (unsigned __int128)x);
        return -cc_u192_double(0, -(unsigned __int128)x);
    }

    /* zero_division, by code: 0 "perl", 1 0.0, 2 1.0, 3 "nan". */
    static double cc_undefined(int mode, double perl) {
        return mode == 0 ? perl : mode == 1 ? 0.0 : mode == 2 ? 1.0 : NAN;
    }

    /* contingency.formulas.classification._share: x / (x + y) for counts x, y >= 0 (in Perl
       mode, Perl's 1 / (1 + y / x)); undefined when x + y is 0. */
    static double cc_share(ck_i128 x, ck_i128 y, int mode, double perl) {
        ck_i128 total = x + y;
        if (total > 0 && total < ((ck_i128)1 << 53)) {  /* two exact doubles */
            if (mode != 0) return (double)(int64_t)x / (double)(int64_t)total;
            if (x && y) return 1.0 / (1.0 + (double)(int64_t)y / (double)(int64_t)x);
            return y == 0 ? 1.0 : 0.0;
        }
        if (total == 0) return cc_undefined(mode, perl);
        if (mode != 0) return cc_double(x) / cc_double(total);
        if (y == 0) return 1.0;
        if (x == 0) return 0.0;
        if (y >= ((ck_i128)1 << 53) && y % x == 0) return 1.0 / cc_double(1 + y / x);
        return 1.0 / (1.0 + cc_double(y) / cc_double(x));
    }

    /* Score `score` (0 precision, 1 recall, 2 F1, 3 accuracy, 4 error) of one table a b c d
       (the registry's scalar forms). */
    static double cc_score(int score, ck_i128 a, ck_i128 b, ck_i128 c, ck_i128 d, int mode) {
        ck_i128 total;
        switch (score) {
        case 0: return cc_share(a, b, mode, c > 0 ? 0.0 : 1.0);
        case 1: return cc_share(a, c, mode, 1.0);
        case 2: return cc_share(2 * a, b + c, mode, 1.0);
        case 3:
            total = a + b + c + d;
            return total ? cc_double(a + d) / cc_double(total) : cc_undefined(mode, 1.0);
        default:
            total = a + b + c + d;
            return total ? cc_double(b + c) / cc_double(total) : cc_undefined(mode, 0.0);
        }
    }

    /* The running sum of one score's per-category values in one mode: each defined value v
       (in [0, 1]) held as the exact integer v * 2**128 (contingency._category_sums.SCALE_BITS),
       their sum high * 2**128 + low (high a signed carry word: 192 bits), and how many values
       are defined (NaN, in "nan" mode, is left out). */
    typedef struct { unsigned __int128 low; int64_t high; int64_t defined; } cc_sum;

    /* Add (sign 1) or take out (sign -1) the value v. v is 0, 1 or at least 2**-65 (a ratio of
       counts below 2**65), so v = M 2**(e - 53) with a 53-bit integer M and e >= -64 (frexp's
       exponent): v * 2**128 is the integer M << (e + 75), below 2**128 unless v is 1. */
    static void cc_sum_step(cc_sum *sum, double v, int sign) {
        int e;
        unsigned __int128 scaled;
        sum->defined += sign;
        if (v == 1.0) {
            sum->high += sign;
            return;
        }
        if (v == 0.0) return;
        scaled = (unsigned __int128)(uint64_t)ldexp(frexp(v, &e), 53) << (e + 75);
        if (sign > 0) {
            sum->low += scaled;
            sum->high += sum->low < scaled;
        } else {
            sum->high -= sum->low < scaled;
            sum->low -= scaled;
        }
    }

    /* One category's value (cells a b c) of score `score` in mode `mode` added to its running
       sum (sign 1) or taken out (-1); an undefined value (NaN) is left out. */
    static void cc_sum_category(cc_sum *sum, int score, int mode, int64_t a, int64_t b,
                                int64_t c, int sign) {
        double v = cc_score(score, a, b, c, 0, mode);
        if (v == v) cc_sum_step(sum, v, sign);
    }

    /* The support-weighted running sum of one score's per-category values in one mode: each
       defined value v as the exact integer v * 2**128 (as in cc_sum) times the category's
       support a + c, summed modulo 2**256 (the sum is below 2**223: values at most 2**128,
       supports below 2**63, fewer than 2**32 categories), and the supports of the categories
       whose value is defined (below 2**95): contingency._category_sums.CategorySums'
       ``weighted`` and ``weight``. */
    typedef struct { ck_u256 weighted; unsigned __int128 weight; } cc_wsum;

    /* Add (sign 1) or take out (-1) the defined value v of a category of support s. */
    static void cc_wsum_step(cc_wsum *sum, double v, int64_t s, int sign) {
        ck_u256 term = {{0, 0, 0, 0}};
        int e, shift;
        unsigned __int128 product;
        uint64_t low, high;
        if (sign > 0) sum->weight += (uint64_t)s; else sum->weight -= (uint64_t)s;
        if (s == 0 || v == 0.0) return;
        if (v == 1.0) {
            term.w[2] = (uint64_t)s;  /* s << 128 */
        } else {  /* v * 2**128 = M << (e + 75), 11 <= e + 75 <= 75: M s << (e + 75) */
            product = (unsigned __int128)(uint64_t)ldexp(frexp(v, &e), 53) * (uint64_t)s;
            shift = e + 75;
            low = (uint64_t)product;
            high = (uint64_t)(product >> 64);  /* below 2**52: M < 2**53, s < 2**63 */
            if (shift >= 64) {
                shift -= 64;
                term.w[1] = low << shift;
                term.w[2] = shift ? (high << shift) | (low >> (64 - shift)) : high;
                term.w[3] = shift ? high >> (64 - shift) : 0;
            } else {
                term.w[0] = low << shift;
                term.w[1] = (high << shift) | (low >> (64 - shift));  /* (shift >= 11) */
                term.w[2] = high >> (64 - shift);
            }
        }
        if (sign > 0) ck_add256(&sum->weighted, &term); else ck_sub256(&sum->weighted, &term);
    }

    /* float(x) of an integer 0 <= x < 2**256, to nearest, ties to even: past 2**192 the lowest
       word is ORed into the next (a sticky bit, far below the rounding position), and the
       power of two put back is exact. */
    static double cc_u256_double(const ck_u256 *x) {
        if (x->w[3])
            return ldexp(cc_limbs_double(x->w[3], x->w[2], x->w[1] | (x->w[0] != 0)), 64);
        return cc_limbs_double(x->w[2], x->w[1], x->w[0]);
    }

    /* The same for every sum kept: sums[slot] (and wsums[slot], the weighted one) is score
       slot / 4 in mode slot % 4, kept when bit `slot` of `kept` (of `wkept`) is set. */
    static void cc_sums_step(cc_sum *sums, unsigned kept, cc_wsum *wsums, unsigned wkept,
                             int64_t a, int64_t b, int64_t c, int sign) {
        unsigned both = kept | wkept;
        double v;
        for (int slot = 0; both; slot++, both >>= 1, kept >>= 1, wkept >>= 1) {
            if (!(both & 1)) continue;
            v = cc_score(slot >> 2, a, b, c, 0, slot & 3);
            if (v != v) continue;  /* undefined (NaN, in "nan" mode): left out */
            if (kept & 1) cc_sum_step(&sums[slot], v, sign);
            if (wkept & 1) cc_wsum_step(&wsums[slot], v, a + c, sign);
        }
    }

    /* The mean of one running sum: the sum rounded once to a double, times 2**-128 (exact),
       divided by the number of values; the undefined value of the mode if there is none. */
    static double cc_sum_mean(const cc_sum *sum, int mode) {
        if (!sum->defined) return cc_undefined(mode, 1.0);
        return cc_u192_double((uint64_t)sum->high, sum->low) * 0x1p-128 / (double)sum->defined;
    }

    static PyObject *cc_sum_total(const cc_sum *sum) {
        unsigned char bytes[32];
        for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(sum->low >> (8 * i));
        for (int i = 0; i < 8; i++) bytes[16 + i] = (unsigned char)((uint64_t)sum->high >> (8 * i));
        for (int i = 24; i < 32; i++) bytes[i] = sum->high < 0 ? 0xFF : 0;
        return _PyLong_FromByteArray(bytes, 32, 1, 1);
    }

    /* The weighted mean: the weighted sum rounded once to a double, times 2**-128 (exact),
       divided by the supports' sum as a double; the plain mean (`plain`, the same score and
       mode) when the supports sum to zero. */
    static double cc_wsum_mean(const cc_wsum *sum, const cc_sum *plain, int mode) {
        if (!plain->defined || sum->weight == 0) return cc_sum_mean(plain, mode);
        return cc_u256_double(&sum->weighted) * 0x1p-128 / cc_u192_double(0, sum->weight);
    }


    /* The mean over results of score `score` of each result's own table (scikit-learn's
       average="samples": contingency.formulas.classification.samples_average) when every
       result is single-label: `hit` results of table (1, 0, 0, 0), `miss` of (0, 1, 1, 0).
       As the reference's average: the results' values weighted by their counts, undefined
       values (NaN) left out, the weighted sum exact (as cc_wsum keeps one) and rounded once,
       divided by the counts' sum as a double; the score of an empty table when no value is
       left. */
    static double cc_samples_mean(int64_t hit, int64_t miss, int score, int mode) {
        cc_wsum sum;
        int64_t kept = 0;
        double v;
        memset(&sum, 0, sizeof sum);
        if (hit) {
            v = cc_score(score, 1, 0, 0, 0, mode);
            if (v == v) { cc_wsum_step(&sum, v, hit, 1); kept += hit; }
        }
        if (miss) {
            v = cc_score(score, 0, 1, 1, 0, mode);
            if (v == v) { cc_wsum_step(&sum, v, miss, 1); kept += miss; }
        }
        if (!kept) return cc_score(score, 0, 0, 0, 0, mode);
        return cc_u256_double(&sum.weighted) * 0x1p-128 / (double)kept;
    }

    /* The weighted sum and the supports' sum, as Python ints (the reference's ``weighted`` and
       ``weight``). */
    static PyObject *cc_wsum_total(const cc_wsum *sum) {
        unsigned char bytes[16];
        PyObject *weighted, *weight, *pair;
        for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(sum->weight >> (8 * i));
        weighted = ck_int256(&sum->weighted);
        if (!weighted) return NULL;
        weight = _PyLong_FromByteArray(bytes, 16, 1, 0);
        if (!weight) { Py_DECREF(weighted); return NULL; }
        pair = PyTuple_Pack(2, weighted, weight);
        Py_DECREF(weighted);
        Py_DECREF(weight);
        return pair;
    }
    """
    ctypedef long long ck_i128  # (declared narrower for Cython; the C type is __int128)
    object ck_int_signed(ck_i128 x)
    ck_i128 ck_i128_of(int64_t high, uint64_t low)
    ctypedef struct cc_sum:
        int64_t high
        int64_t defined
    double cc_u192_double(uint64_t high, ck_i128 low) noexcept nogil  # (low: unsigned __int128)
    double cc_undefined(int mode, double perl) noexcept nogil
    double cc_limbs_double(uint64_t high, uint64_t middle, uint64_t low) noexcept nogil
    void cc_sum_category(cc_sum *sum, int score, int mode, int64_t a, int64_t b, int64_t c,
                         int sign) noexcept nogil
    double cc_score(int score, ck_i128 a, ck_i128 b, ck_i128 c, ck_i128 d, int mode) noexcept nogil
    ctypedef struct cc_wsum:
        pass
    void cc_sums_step(cc_sum *sums, unsigned kept, cc_wsum *wsums, unsigned wkept,
                      int64_t a, int64_t b, int64_t c, int sign) noexcept nogil
    void cc_wsum_step(cc_wsum *sum, double v, int64_t s, int sign) noexcept nogil
    double cc_wsum_mean(const cc_wsum *sum, const cc_sum *plain, int mode) noexcept nogil
    double cc_u256_double(const ck_u256 *x) noexcept nogil
    object cc_wsum_total(const cc_wsum *sum)
    double cc_sum_mean(const cc_sum *sum, int mode) noexcept nogil
    double cc_samples_mean(int64_t hit, int64_t miss, int score, int mode) noexcept nogil
    object cc_sum_total(const cc_sum *sum)

from contingency._changes import HIT as _HIT, MISS as _MISS
from contingency._labels import check_label as _check_label
from contingency._counts_reference import HOLE as _HOLE_OBJECT, CountsCore as _ReferenceCore
from contingency._table import PairTable as _PairTable, _RECENT_FLOOR as _RECENT_FLOOR_OBJECT
from contingency._registry import TABLE as _TABLE
from contingency.formulas._numeric import MAX_COUNT as _MAX_COUNT_PY, NO_CATEGORY as _NO_CATEGORY
from contingency.formulas.classification import SCALAR as _SCALAR

cdef object _HOLE = _HOLE_OBJECT
cdef Py_ssize_t _RECENT_FLOOR = _RECENT_FLOOR_OBJECT
cdef object _MASK_64 = (1 << 64) - 1
cdef object _reference_count_sets = _ReferenceCore.count_sets
cdef object _reference_micro_score = _ReferenceCore.micro_score
cdef object _reference_macro_mean = _ReferenceCore.macro_mean
cdef object _reference_macro_sums = _ReferenceCore.macro_sums
cdef object _reference_weighted_mean = _ReferenceCore.weighted_mean
cdef object _reference_weighted_sums = _ReferenceCore.weighted_sums

#: The scores the micro reads serve in C, by their code in cc_score; the macro means serve the
#: first three (contingency._counts_reference.MICRO_SCORES and MACRO_SCORES).
cdef dict _MICRO_CODES = {"precision": 0, "recall": 1, "f1": 2, "accuracy": 3, "error": 4}
cdef int _MACRO_SCORES = 3
#: Running sums kept per score and mode: slot 4 score + mode.
DEF _SLOTS = 12


cdef inline int _mode_code(object mode) noexcept:
    """zero_division as cc_score's code (0 "perl", 1 0.0, 2 1.0, 3 "nan" or a float NaN), or -1
    for any other value (the reference's Python then reads it)."""
    cdef double number
    if type(mode) is str:
        if mode == "perl":
            return 0
        return 3 if mode == "nan" else -1
    if type(mode) is float:
        number = mode
        if number == 0.0:
            return 1
        if number == 1.0:
            return 2
        return 3 if number != number else -1
    return -1


cdef inline int _score_code(object name, int served) except -2:
    """The code of score ``name`` among the first ``served`` of cc_score's, or -1 where the C
    does not compute that score (a name it does not know, or a registry row of that name whose
    scalar form is not the classification formula's)."""
    cdef object code = _MICRO_CODES.get(name)
    if code is None or <int>code >= served or _TABLE.get(name) is None \
            or _TABLE[name].scalar is not _SCALAR[name]:
        return -1
    return <int>code


cdef ck_i128 _to_i128(object value) except? -1:
    """A Python int below ``2**127`` in magnitude as a 128-bit integer."""
    return ck_i128_of(<int64_t>(value >> 64), <uint64_t>(value & _MASK_64))


@cython.auto_pickle(False)
cdef class KernelCells:
    """One column of cells (``a``, ``b`` or ``c``) read by category, in table order: read-only.

    A view over its core's int64 array by code (or, while the counts are in
    units finer than a result, over the reference core's list): it follows
    every change of the counts.
    """

    cdef KernelCountsCore _core
    cdef int _index

    def __cinit__(self, KernelCountsCore core, int index):
        self._core, self._index = core, index

    def __getitem__(self, label):
        cdef KernelCountsCore core = self._core
        if core._wide is not None:
            return core._wide._cells[self._index][core._wide.ids[label]]
        cdef PyObject *code = PyDict_GetItemWithError(core._ids, label)
        if code is NULL:
            raise KeyError(label)
        return PyLong_FromLongLong(core._cells[self._index][<Py_ssize_t><object>code])

    def get(self, label, default=None):
        cdef KernelCountsCore core = self._core
        if core._wide is not None:
            return core._wide.a.get(label, default) if self._index == 0 else (
                core._wide.b if self._index == 1 else core._wide.c).get(label, default)
        cdef PyObject *code = PyDict_GetItemWithError(core._ids, label)
        if code is NULL:
            return default
        return PyLong_FromLongLong(core._cells[self._index][<Py_ssize_t><object>code])

    def __contains__(self, label):
        return label in self._core._table_ids()

    def __len__(self):
        return len(self._core._table_ids())

    def __iter__(self):
        return iter(self._core._table_ids())

    def keys(self):
        return self._core._table_ids().keys()

    def values(self):
        cdef KernelCountsCore core = self._core
        if core._wide is not None:
            return (core._wide.a, core._wide.b, core._wide.c)[self._index].values()
        cdef int64_t *column = core._cells[self._index]
        cdef object code
        return [PyLong_FromLongLong(column[<Py_ssize_t>code]) for code in core._ids.values()]

    def items(self):
        cdef KernelCountsCore core = self._core
        if core._wide is not None:
            return (core._wide.a, core._wide.b, core._wide.c)[self._index].items()
        cdef int64_t *column = core._cells[self._index]
        cdef object code
        return [(label, PyLong_FromLongLong(column[<Py_ssize_t>code]))
                for label, code in core._ids.items()]

    def __eq__(self, other):
        if not isinstance(other, _Mapping):
            return NotImplemented
        return dict(self.items()) == dict(other.items())

    __hash__ = None

    def __repr__(self):
        return f"KernelCells({dict(self.items())!r})"


_Mapping.register(KernelCells)


cdef class KernelCountsCore:
    """Every count by code in C (see the module docstring), and the one-result writes."""

    # What a one-result write reads comes first, in the object's first lines (the running sums,
    # large and read only once made, last): a group's write at many groups pays a cache miss
    # per line it touches.
    cdef int64_t *_cells[3]  # one allocation: a, then b, then c, _capacity codes each
    cdef Py_ssize_t _capacity
    cdef int64_t _n, _hit, _miss
    cdef dict _ids
    cdef object _pairs
    cdef object _wide  # the reference core holding the counts while scale > 0, else None
    cdef unsigned _kept, _wkept
    # _ids and _names are shared with the cores copied from this one or that it was copied from
    # (copy-on-write: a core copies them before it changes them, _own_codes): the coding of
    # declared categories, the same in every group, is then held once.
    cdef bint _shared
    cdef public bint hold
    cdef public tuple stale
    cdef public object coupling
    cdef ck_i128 _micro[4]
    cdef dict _shapes  # the shapes other than HIT and MISS, no zero entry; None while none
    cdef list _names
    cdef Py_ssize_t _holes
    # The plain macro means' running sums, each made by the first read that needs it (bit
    # ``slot`` of _kept) and then kept by every write: slot 4 score + mode (cc_score's codes).
    # The support-weighted means' running sums, the same way (bit ``slot`` of _wkept); a
    # weighted sum is made with the plain sum of its slot, which serves its zero-support case
    # (so _kept is set whenever _wkept is: the writes test _kept alone). Both arrays are
    # allocated by the first read that makes a sum (NULL until then), not held in the object:
    # most cores of a GroupedContingency's groups are never read so, and a small object is
    # made by Python's small-object allocator and keeps a group's state in fewer pages
    # (docs/performance.md, branch h33).
    cdef cc_sum *_sums
    cdef cc_wsum *_wsums

    def __cinit__(self, *args, **kwargs):
        self._capacity = self._kept = self._wkept = 0
        self._cells[0] = self._cells[1] = self._cells[2] = NULL
        self._sums, self._wsums = NULL, NULL
        self.stale, self.coupling = (), None
        self._shapes, self._ids, self._names, self._wide = None, {}, [], None
        self._shared = False

    def __dealloc__(self):
        free(self._cells[0])  # (the one allocation of the three columns)
        free(self._sums)
        free(self._wsums)

    cdef int _reserve(self, Py_ssize_t size) except -1:
        """Room for ``size`` codes in the arrays of cells (new room zero): one allocation of the
        three columns, so that a result's cells are near each other."""
        cdef Py_ssize_t capacity = self._capacity if self._capacity else 4
        cdef int index
        cdef int64_t *grown
        if size <= self._capacity:
            return 0
        while capacity < size:
            capacity *= 2
        grown = <int64_t *>calloc(3 * capacity, sizeof(int64_t))
        if grown is NULL:
            raise MemoryError()
        for index in range(3):
            if self._capacity:
                memcpy(grown + index * capacity, self._cells[index],
                       self._capacity * sizeof(int64_t))
        free(self._cells[0])
        for index in range(3):
            self._cells[index] = grown + index * capacity
        self._capacity = capacity
        return 0

    cdef inline int _own_codes(self) except -1:
        """Make this core's ``_ids`` and ``_names`` its own (copied if shared) before it changes them."""
        if self._shared:
            self._ids, self._names = dict(self._ids), list(self._names)
            self._shared = False
        return 0

    cdef inline dict _table_ids(self):
        return self._ids if self._wide is None else self._wide.ids

    # The fields, as the reference's ------------------------------------------------------------

    # The cells read by category: a view made when asked for (the core keeps none, so that no
    # reference cycle keeps a core alive after its last user; a running sum keeps its own).

    @property
    def a(self):
        return KernelCells(self, 0)

    @property
    def b(self):
        return KernelCells(self, 1)

    @property
    def c(self):
        return KernelCells(self, 2)

    @property
    def ids(self):
        return self._ids if self._wide is None else self._wide.ids

    @property
    def names(self):
        return self._names if self._wide is None else self._wide.names

    @property
    def holes(self):
        return self._holes if self._wide is None else self._wide.holes

    @property
    def pairs(self):
        return self._pairs if self._wide is None else self._wide.pairs

    @property
    def scale(self):
        return 0 if self._wide is None else self._wide.scale

    @property
    def n(self):
        return self._n if self._wide is None else self._wide.n

    @n.setter
    def n(self, value):
        if self._wide is None:
            self._n = value
        else:
            self._wide.n = value

    @property
    def micro(self):
        if self._wide is not None:
            return tuple(self._wide.micro)
        return (ck_int_signed(self._micro[0]), ck_int_signed(self._micro[1]),
                ck_int_signed(self._micro[2]), ck_int_signed(self._micro[3]))

    @micro.setter
    def micro(self, value):
        if self._wide is not None:
            self._wide.micro = list(value)
            return
        cdef int index
        for index in range(4):
            self._micro[index] = _to_i128(value[index])

    @property
    def shapes(self):
        if self._wide is not None:
            return self._wide.shapes
        shapes = {} if self._shapes is None else dict(self._shapes)
        if self._hit:
            shapes[_HIT] = self._hit
        if self._miss:
            shapes[_MISS] = self._miss
        return shapes

    def hits_and_misses(self):
        """The counts of the two single-label shapes, ``HIT`` and ``MISS``."""
        if self._wide is not None:
            return self._wide.hits_and_misses()
        return self._hit, self._miss

    # Storage -------------------------------------------------------------------------------

    def reset(self, declared):
        """Counts of nothing, the ``declared`` categories given codes 0, 1, ..."""
        self._wide = None
        self._set_state(None, 0, {}, [0, 0, 0, 0],
                        {label: code for code, label in enumerate(declared)}, list(declared), 0,
                        KernelPairs())

    cdef int _set_state(self, list cells, object n, dict shapes, object micro, dict ids,
                        list names, Py_ssize_t holes, object pairs) except -1:
        """Hold these counts (scale 0) in C (``cells`` None: every cell zero)."""
        cdef Py_ssize_t size = len(names), code
        cdef int index
        cdef ck_i128 held[4]
        self._zeroed(size)
        if cells is not None:
            for index in range(3):
                column = cells[index]
                for code in range(size):
                    self._cells[index][code] = column[code]
        shapes = dict(shapes)
        hit, miss = shapes.pop(_HIT, 0), shapes.pop(_MISS, 0)
        for index in range(4):
            held[index] = _to_i128(micro[index])
        return self._hold(n, hit, miss, shapes or None, held, ids, names, holes, pairs, False)

    cdef int _zeroed(self, Py_ssize_t size) except -1:
        """Room for ``size`` codes, every cell zero: :meth:`_set_state`'s first step (and the
        unpacking of GroupedContingency's columns, contingency/_kernel_grouped.pxi, which then
        copies each group's cells in)."""
        cdef int index
        self._reserve(size)
        for index in range(3):
            memset(self._cells[index], 0, self._capacity * sizeof(int64_t))
        return 0

    cdef int _hold(self, int64_t n, int64_t hit, int64_t miss, dict shapes,
                   const ck_i128 *micro, dict ids, list names, Py_ssize_t holes, object pairs,
                   bint shared) except -1:
        """Hold these counts beside the cells (scale 0): :meth:`_set_state`'s last step (and the
        unpacking of GroupedContingency's columns'). ``shapes`` are those other than ``HIT``
        and ``MISS`` (None: none); ``shared``: ``ids`` and ``names`` are held by other cores
        too (copied before a change: :meth:`_own_codes`)."""
        self._n = n
        self._kept = self._wkept = 0  # (the running sums: made again by the first read)
        self._hit, self._miss, self._shapes = hit, miss, shapes
        memcpy(self._micro, micro, sizeof(self._micro))
        self._ids, self._names, self._holes, self._pairs = ids, names, holes, pairs
        self._shared = shared
        return 0

    def core_state(self):
        """The counts as plain data (pickling, copying): :meth:`core_restore` takes it."""
        if self._wide is not None:
            return self._wide.core_state()
        cdef Py_ssize_t size = len(self._names), code
        cells = [[self._cells[index][code] for code in range(size)] for index in range(3)]
        return {"cells": cells, "n": self._n, "scale": 0, "shapes": self.shapes,
                "micro": list(self.micro), "ids": dict(self._ids), "names": list(self._names),
                "holes": self._holes, "pairs": self._pairs.to_dict()}

    def core_copy_from(self, KernelCountsCore source):
        """Hold a copy of ``source``'s counts (the arrays copied in C)."""
        self._copy_from(source)

    cdef int _copy_from(self, KernelCountsCore source) except -1:
        """:meth:`core_copy_from`, a C call (GroupedContingency's new groups, made in bulk)."""
        cdef int index
        if source._wide is not None:
            self.core_restore(source._wide.core_state())
            return 0
        self._wide = None
        self._kept = self._wkept = 0  # (running sums not copied: made again when read)
        self._reserve(source._capacity)
        for index in range(3):
            memcpy(self._cells[index], source._cells[index], source._capacity * sizeof(int64_t))
        self._n, self._hit, self._miss = source._n, source._hit, source._miss
        memcpy(self._micro, source._micro, sizeof(self._micro))
        self._shapes = None if source._shapes is None else dict(source._shapes)
        # The codes shared, copy-on-write (_own_codes): an empty group copied from its template
        # holds no dict or list of its own until a category joins it or leaves it.
        self._ids, self._names, self._shared = source._ids, source._names, True
        source._shared = True
        self._holes, self._pairs = source._holes, source._pairs.copy()
        return 0

    def core_restore(self, state):
        """Hold the counts of :meth:`core_state` (its lists and dicts copied, its pairs too)."""
        if state["scale"]:
            wide = _ReferenceCore.__new__(_ReferenceCore)
            wide.core_restore(state)
            self.reset([])
            self._wide = wide
            return
        self._wide = None
        self._set_state(state["cells"], state["n"], state["shapes"], state["micro"],
                        dict(state["ids"]), list(state["names"]), state["holes"],
                        _kernel_pairs_from(state["pairs"]))

    def columns(self):
        """The cells ``a``, ``b``, ``c`` per category in table order, as lists."""
        if self._wide is not None:
            return self._wide.columns()
        cdef object code
        cdef int64_t *column
        found = []
        for index in range(3):
            column = self._cells[index]
            found.append([PyLong_FromLongLong(column[<Py_ssize_t>code])
                          for code in self._ids.values()])
        return found[0], found[1], found[2]

    # Primitive writes (Counts.apply checks every change before the first of them) ------------

    def join(self, labels):
        """Append categories new to the table, with zero cells and the next codes."""
        if self._wide is not None:
            return self._wide.join(labels)
        self._join(labels)

    cdef int _join_one(self, object label) except -1:
        """:meth:`join` of one label (not a category yet): the one place a category joins."""
        cdef Py_ssize_t code = len(self._names)
        self._own_codes()
        self._reserve(code + 1)
        self._ids[label] = code
        self._names.append(label)
        if self._kept:  # a category of zero cells joins the running sums
            cc_sums_step(self._sums, self._kept, self._wsums, self._wkept, 0, 0, 0, 1)
        return 0

    cdef int _join(self, object labels) except -1:
        self._reserve(len(self._names) + len(labels))
        for label in labels:
            self._join_one(label)
        return 0

    cdef inline void _add_cell(self, int index, Py_ssize_t code, int64_t change) noexcept:
        """Add ``change`` to cell ``index`` (a, b or c) of category ``code``: the one place a
        cell changes at scale 0, the running sums kept with it (the category's values at the
        old cells taken out of them, at the new ones put in)."""
        cdef int64_t **cells = self._cells
        if self._kept:
            cc_sums_step(self._sums, self._kept, self._wsums, self._wkept,
                         cells[0][code], cells[1][code], cells[2][code], -1)
            cells[index][code] += change
            cc_sums_step(self._sums, self._kept, self._wsums, self._wkept,
                         cells[0][code], cells[1][code], cells[2][code], 1)
        else:
            cells[index][code] += change

    def add_cells(self, a, b, c):
        """Add changes to cells ``a``, ``b`` and ``c`` of categories in the table; their sums."""
        if self._wide is not None:
            return self._wide.add_cells(a, b, c)
        cdef dict ids = self._ids
        cdef int index
        cdef ck_i128 total
        cdef int64_t count
        added = []
        for index, changes in enumerate((a, b, c)):
            total = 0
            for label, change in changes.items():
                count = change
                self._add_cell(index, <Py_ssize_t>ids[label], count)
                total += count
            added.append(ck_int_signed(total))
        return added[0], added[1], added[2]

    def add_shapes(self, changes):
        """Add changes to the result shapes (no zero entry kept)."""
        if self._wide is not None:
            return self._wide.add_shapes(changes)
        shapes = self._shapes
        for shape, count in changes.items():
            if shape == _HIT:
                self._hit += <int64_t>count
            elif shape == _MISS:
                self._miss += <int64_t>count
            else:
                if shapes is None:
                    shapes = self._shapes = {}
                count += shapes.get(shape, 0)
                if count:
                    shapes[shape] = count
                else:
                    del shapes[shape]

    def add_micro(self, a, b, c, d):
        """Add to the micro table's four cells."""
        if self._wide is not None:
            return self._wide.add_micro(a, b, c, d)
        self._micro[0] += _to_i128(a)
        self._micro[1] += _to_i128(b)
        self._micro[2] += _to_i128(c)
        self._micro[3] += _to_i128(d)

    def forget(self, labels):
        """Forget categories whose every cell is zero: their codes become holes.

        A code is not given again until the codes are made dense again, which
        happens once the holes are half of them (O(K + pairs), rarely).
        """
        if self._wide is not None:
            return self._wide.forget(labels)
        cdef Py_ssize_t code, old, size
        if labels:
            self._own_codes()
        for label in labels:
            code = self._ids.pop(label)
            if self._kept:  # (every cell of a forgotten category is zero)
                cc_sums_step(self._sums, self._kept, self._wsums, self._wkept, 0, 0, 0, -1)
            self._names[code] = _HOLE
            self._holes += 1
        if self._holes * 2 <= len(self._names):
            return
        size = len(self._names)
        renumbered = np.full(size, -1, dtype=np.int64)
        code = 0
        for label, old in self._ids.items():
            renumbered[old] = code
            for index in range(3):
                self._cells[index][code] = self._cells[index][old]
            self._ids[label] = code
            code += 1
        for index in range(3):
            memset(self._cells[index] + code, 0, (size - code) * sizeof(int64_t))
        self._pairs.renumber(renumbered)
        self._names = list(self._ids)
        self._holes = 0

    def rescale_counts(self, shift):
        """Every count times ``2**shift`` (``shift < 0``: divided, exactly; the caller knows it is).

        Past scale 0 the counts move to the reference's storage, and back when it returns to 0.
        """
        if self._wide is None:
            if shift == 0:
                return
            wide = _ReferenceCore.__new__(_ReferenceCore)
            wide.core_restore(self.core_state())
            wide.rescale_counts(shift)
            self.reset([])
            self._wide = wide
            return
        self._wide.rescale_counts(shift)
        if self._wide.scale == 0:
            self.core_restore(self._wide.core_state())

    # The rule for one result, in C --------------------------------------------------------------

    def count_pair(self, object correct, object assigned, object count=None, bint join=False):
        """Count one single-label result ``count`` times (``count > 0``, in units of
        ``2**-scale``; ``None``: once, ``1 << scale``) if both labels are categories, or with
        ``join`` after making the others categories (``True``); else change nothing
        (``False``): what the reference's
        :meth:`~contingency._counts_reference.CountsCore.count_pair` does, in C."""
        if self._wide is not None:  # counts finer than a result: on the reference's storage
            return self._pair_wide(correct, assigned, count, join) == 1
        return self._pair(correct, assigned, count, join) == 1

    cdef int _pair_wide(self, object correct, object assigned, object count,
                        bint join) except -1:
        """:meth:`count_pair` past scale 0, on the reference's storage (Python ints by code, in
        its lists): the writes ``Counts.apply`` makes of one pair's changes, without its frames."""
        wide = self._wide
        scale = wide.scale
        if count is None:
            count = 1 << scale
        elif type(count) is not int or count <= 0:
            raise ValueError(f"count_pair: count must be a positive int, not {count!r}")
        cdef dict ids = wide.ids
        cdef PyObject *truth = PyDict_GetItemWithError(ids, correct)
        cdef PyObject *chosen = PyDict_GetItemWithError(ids, assigned)
        cdef list fresh = None
        if truth is NULL or chosen is NULL:
            if not join:
                return 0
            fresh = [label for label in dict.fromkeys((assigned, correct)) if label not in ids]
        n_before = wide.n
        n = n_before + count
        if n > _MAX_COUNT_PY:
            check_room(0, -(-n >> scale), "results")  # (contingency._counts.whole)
        # Every check passed: the writes.
        k_before = len(ids)
        if fresh is not None:
            wide.join(fresh)
            truth = PyDict_GetItem(ids, correct)
            chosen = PyDict_GetItem(ids, assigned)
        t, s = <object>truth, <object>chosen
        tables = len(ids) * n - k_before * n_before  # the change of K n
        cells, micro, shapes = wide._cells, wide.micro, wide.shapes
        cdef bint hit = t == s
        if hit:
            column = cells[0]
            column[t] = column[t] + count
            shape = _HIT
            micro[0] = micro[0] + count
            micro[3] = micro[3] + (tables - count)
        else:
            column = cells[1]
            column[s] = column[s] + count
            column = cells[2]
            column[t] = column[t] + count
            shape = _MISS
            micro[1] = micro[1] + count
            micro[2] = micro[2] + count
            micro[3] = micro[3] + (tables - 2 * count)
        shapes[shape] = shapes.get(shape, 0) + count
        if self.coupling is not None:  # (before the pair table keeps the pair)
            self.coupling.note({(correct, assigned): count})
        key = t << 32 | s
        # PairTable.add, inlined while its dict of recent changes is below the size at which an
        # addition may merge it (the count is positive: the entry never drops to zero).
        table = wide.pairs
        cdef dict recent = table._recent
        cdef PyObject *held
        if len(recent) < _RECENT_FLOOR or len(recent) < len(table._keys):
            held = PyDict_GetItem(recent, key)
            PyDict_SetItem(recent, key, count if held is NULL else <object>held + count)
        else:
            table.add(key, count)
        wide.n = n
        cdef object pending
        for pending in self.stale:
            if hit:
                PySet_Add(pending, correct)
            else:
                PySet_Add(pending, assigned)
                PySet_Add(pending, correct)
        return 1

    cdef int _pair(self, object correct, object assigned, object count, bint join) except -1:
        """:meth:`count_pair` at scale 0: 1 if counted, 0 if a label is not a category."""
        cdef int64_t w = 1
        if count is not None:
            if type(count) is not int or count <= 0:
                raise ValueError(f"count_pair: count must be a positive int, not {count!r}")
        cdef dict ids = self._ids
        cdef PyObject *truth = PyDict_GetItemWithError(ids, correct)
        cdef PyObject *chosen = PyDict_GetItemWithError(ids, assigned)
        cdef bint joining = truth is NULL or chosen is NULL
        if joining and not join:
            return 0
        if count is not None:
            if count > MAX_COUNT - self._n:
                check_room(self._n, count, "results")
            w = count
        elif self._n == MAX_COUNT:
            check_room(self._n, 1, "results")
        # Every check passed: the writes (the reference's, in C).
        cdef Py_ssize_t k_before = len(ids)
        if joining:  # the new labels, assigned first (one label if the two are equal keys)
            if chosen is NULL:
                self._join_one(assigned)
            if PyDict_GetItem(self._ids, correct) is NULL:
                self._join_one(correct)
            ids = self._ids  # (its own now: a shared dict was copied by the join)
            truth = PyDict_GetItem(ids, correct)
            chosen = PyDict_GetItem(ids, assigned)
        return self._write_pair(<Py_ssize_t><object>truth, <Py_ssize_t><object>chosen, w,
                                k_before, correct, assigned)

    @cython.final
    cdef int _write_pair(self, Py_ssize_t t, Py_ssize_t s, int64_t w, Py_ssize_t k_before,
                         object correct, object assigned) except -1:
        """The writes of :meth:`count_pair` at scale 0, every check passed: ``w`` results with
        correct category ``correct`` (code ``t``) and assigned ``assigned`` (code ``s``), both
        in the table; ``k_before`` categories before those that joined for it (``n`` times them
        is the change of ``d``'s ``K n``). Also a grouped batch's write of each of its coded
        pairs (contingency/_kernel_grouped.pxi), after the same checks. Returns 1."""
        cdef int64_t n_before = self._n
        cdef int64_t n = n_before + w
        cdef ck_i128 tables = <ck_i128>len(self._ids) * n - <ck_i128>k_before * n_before
        # One code: one category (the ids dict found both labels its key, by identity or ==).
        cdef bint hit = t == s
        if hit:
            self._add_cell(0, t, w)
            self._hit += w
            self._micro[0] += w
            self._micro[3] += tables - w
        else:
            self._add_cell(1, s, w)
            self._add_cell(2, t, w)
            self._miss += w
            self._micro[1] += w
            self._micro[2] += w
            self._micro[3] += tables - 2 * <ck_i128>w
        if self.coupling is not None:  # (before the pair table keeps the pair)
            self.coupling.note({(correct, assigned): w})
        (<KernelPairs>self._pairs).add_count(<uint64_t>t << 32 | <uint64_t>s, w)
        self._n = n
        cdef object pending
        for pending in self.stale:
            if hit:
                PySet_Add(pending, correct)
            else:
                PySet_Add(pending, assigned)
                PySet_Add(pending, correct)
        return 1

    def count_sets(self, object assigned, object correct):
        """Count one result given as two sets of categories (``set`` or ``frozenset``), once
        (``1 << scale``), if every label is a category (``True``), else change nothing
        (``False``): what the reference's
        :meth:`~contingency._counts_reference.CountsCore.count_sets` does, in C."""
        if self._wide is not None:
            return _reference_count_sets(self, assigned, correct)
        return self._sets(assigned, correct) == 1

    cdef int _sets(self, object assigned, object correct) except -1:
        """:meth:`count_sets` at scale 0: 1 if counted, 0 if a label is not a category."""
        if len(assigned) == 1 == len(correct):  # a pair: the single-label write
            (chosen,), (truth,) = assigned, correct
            return self._pair(truth, chosen, None, False)
        cdef dict ids = self._ids
        cdef object label
        for label in assigned:
            if PyDict_GetItemWithError(ids, label) is NULL:
                return 0
        for label in correct:
            if PyDict_GetItemWithError(ids, label) is NULL:
                return 0
        if self._n == MAX_COUNT:
            check_room(self._n, 1, "results")
        # Every check passed: the writes (ResultCounter's rule: a for the categories on both
        # sides, b for the rest of the assigned side, c for the rest of the correct side).
        cdef Py_ssize_t k_both = 0, k_assigned = len(assigned), k_correct = len(correct)
        for label in assigned:
            if label in correct:
                self._add_cell(0, <Py_ssize_t><object>PyDict_GetItem(ids, label), 1)
                k_both += 1
            else:
                self._add_cell(1, <Py_ssize_t><object>PyDict_GetItem(ids, label), 1)
        for label in correct:
            if label not in assigned:
                self._add_cell(2, <Py_ssize_t><object>PyDict_GetItem(ids, label), 1)
        # (one label a side went to _pair: never the shape HIT or MISS here)
        shape = (k_both, k_assigned, k_correct)
        if self._shapes is None:
            self._shapes = {}
        cdef PyObject *held = PyDict_GetItem(self._shapes, shape)
        PyDict_SetItem(self._shapes, shape, 1 if held is NULL else <object>held + 1)
        self._n += 1
        self._micro[0] += k_both
        self._micro[1] += k_assigned - k_both
        self._micro[2] += k_correct - k_both
        self._micro[3] += <ck_i128>len(ids) - k_assigned - k_correct + k_both
        cdef object pending
        for pending in self.stale:
            for label in assigned:
                PySet_Add(pending, label)
            for label in correct:
                PySet_Add(pending, label)
        return 1

    # The reads served in C: the micro table's scores, the plain macro means -------------------

    def micro_score(self, name, mode):
        """Score ``name`` of the micro table, undefined values as ``mode`` says: the reference's
        :meth:`~contingency._counts_reference.CountsCore.micro_score`, in C for its
        ``MICRO_SCORES`` in the four modes at scale 0 (else by the reference's Python)."""
        cdef int score = _score_code(name, 5), code = _mode_code(mode)
        if score < 0 or code < 0 or self._wide is not None:
            return _reference_micro_score(self, name, mode)
        return self._micro_value(score, code)

    cdef inline double _micro_value(self, int score, int mode) noexcept:
        return cc_score(score, self._micro[0], self._micro[1], self._micro[2], self._micro[3],
                        mode)

    def macro_mean(self, name, mode):
        """The mean over the categories of score ``name``: the reference's
        :meth:`~contingency._counts_reference.CountsCore.macro_mean`, from running sums kept in
        C (by every write, once a read made them) for its ``MACRO_SCORES`` in the four modes at
        scale 0 (else by the reference's Python)."""
        cdef int score = _score_code(name, _MACRO_SCORES), code = _mode_code(mode)
        if score < 0 or code < 0 or self._wide is not None:
            return _reference_macro_mean(self, name, mode)
        return self._macro(score, code)

    cdef object _macro(self, int score, int mode):
        """:meth:`macro_mean` in C (scale 0, a score and mode of cc_score's codes)."""
        if not self._ids:  # contingency.formulas._numeric.no_category
            if mode == 0:
                raise ValueError(_NO_CATEGORY)
            return cc_undefined(mode, 1.0)
        cdef int slot = 4 * score + mode
        if not (self._kept >> slot) & 1:
            self._make_sum(slot)
        return cc_sum_mean(&self._sums[slot], mode)

    cdef int _make_sum(self, int slot) except -1:
        """Make the running sum of ``slot`` from every category's cells (O(K), once): kept by
        every write from now on."""
        if self._sums is NULL:  # (the first sum made: room for every slot's, plain and weighted)
            self._sums = <cc_sum *>calloc(_SLOTS, sizeof(cc_sum))
            if self._sums is NULL:
                raise MemoryError()
        if self._wsums is NULL:
            self._wsums = <cc_wsum *>calloc(_SLOTS, sizeof(cc_wsum))
            if self._wsums is NULL:
                raise MemoryError()
        cdef cc_sum *sum = &self._sums[slot]
        cdef int64_t **cells = self._cells
        cdef Py_ssize_t code
        cdef object label_code
        memset(sum, 0, sizeof(cc_sum))
        for label_code in self._ids.values():
            code = label_code
            cc_sum_category(sum, slot >> 2, slot & 3, cells[0][code], cells[1][code],
                            cells[2][code], 1)
        self._kept |= 1u << slot
        return 0

    def weighted_mean(self, name, mode):
        """The mean over the categories of score ``name`` weighted by their supports: the
        reference's :meth:`~contingency._counts_reference.CountsCore.weighted_mean`, from
        running sums kept in C (by every write, once a read made them) for its
        ``MACRO_SCORES`` in the four modes at scale 0 (else by the reference's Python)."""
        cdef int score = _score_code(name, _MACRO_SCORES), code = _mode_code(mode)
        if score < 0 or code < 0 or self._wide is not None:
            return _reference_weighted_mean(self, name, mode)
        return self._weighted(score, code)

    cdef object _weighted(self, int score, int mode):
        """:meth:`weighted_mean` in C (scale 0, a score and mode of cc_score's codes)."""
        if not self._ids:  # contingency.formulas._numeric.no_category
            if mode == 0:
                raise ValueError(_NO_CATEGORY)
            return cc_undefined(mode, 1.0)
        cdef int slot = 4 * score + mode
        if not (self._wkept >> slot) & 1:
            self._make_weighted_sum(slot)
        return cc_wsum_mean(&self._wsums[slot], &self._sums[slot], mode)

    cdef int _make_weighted_sum(self, int slot) except -1:
        """Make the weighted running sum of ``slot``, and its plain one, from every category's
        cells (O(K), once): kept by every write from now on."""
        if not (self._kept >> slot) & 1:
            self._make_sum(slot)
        cdef cc_wsum *sum = &self._wsums[slot]
        cdef int64_t **cells = self._cells
        cdef Py_ssize_t code
        cdef object label_code
        cdef double v
        memset(sum, 0, sizeof(cc_wsum))
        for label_code in self._ids.values():
            code = label_code
            v = cc_score(slot >> 2, cells[0][code], cells[1][code], cells[2][code], 0, slot & 3)
            if v == v:
                cc_wsum_step(sum, v, cells[0][code] + cells[2][code], 1)
        self._wkept |= 1u << slot
        return 0

    def weighted_sums(self, name, mode):
        """The running sums behind :meth:`weighted_mean`, as ``(weighted, weight)`` (the
        reference's :meth:`~contingency._counts_reference.CountsCore.weighted_sums`), or
        ``None`` before a read made them."""
        cdef int score = _score_code(name, _MACRO_SCORES), code = _mode_code(mode)
        if score < 0 or code < 0 or self._wide is not None:
            return _reference_weighted_sums(self, name, mode)
        cdef int slot = 4 * score + code
        if not (self._wkept >> slot) & 1:
            return None
        return cc_wsum_total(&self._wsums[slot])

    def macro_sums(self, name, mode):
        """The running sums behind :meth:`macro_mean`, as ``(total, defined)`` (the reference's
        :meth:`~contingency._counts_reference.CountsCore.macro_sums`), or ``None`` before a read
        made them."""
        cdef int score = _score_code(name, _MACRO_SCORES), code = _mode_code(mode)
        if score < 0 or code < 0 or self._wide is not None:
            return _reference_macro_sums(self, name, mode)
        cdef int slot = 4 * score + code
        if not (self._kept >> slot) & 1:
            return None
        return cc_sum_total(&self._sums[slot]), self._sums[slot].defined


def average_reader(name, average, reference):
    """Contingency's property ``{average}_{name}`` read in C: its fget (``reference`` is the
    reader written in Python, which serves what the C does not: counts finer than a result,
    another zero_division value), or ``None`` where the kernel does not serve that read (a
    micro score outside ``MICRO_SCORES``, a macro or weighted mean outside ``MACRO_SCORES``,
    another average). One call from the property into C: the counts' core and the accumulator's
    ``zero_division`` read, the score computed from the C state."""
    cdef int score
    if average == "micro":
        score = _score_code(name, 5)
        if score < 0:
            return None

        def read_micro(self):
            counts = self._counts
            cdef int mode = _mode_code(self._zero_division)
            if mode >= 0 and isinstance(counts, KernelCountsCore) \
                    and (<KernelCountsCore>counts)._wide is None:
                return (<KernelCountsCore>counts)._micro_value(score, mode)
            return reference(self)
        return read_micro
    if average == "macro":
        score = _score_code(name, _MACRO_SCORES)
        if score < 0:
            return None

        def read_macro(self):
            counts = self._counts
            cdef int mode = _mode_code(self._zero_division)
            if mode >= 0 and isinstance(counts, KernelCountsCore) \
                    and (<KernelCountsCore>counts)._wide is None:
                return (<KernelCountsCore>counts)._macro(score, mode)
            return reference(self)
        return read_macro
    if average == "weighted":
        score = _score_code(name, _MACRO_SCORES)
        if score < 0:
            return None

        def read_weighted(self):
            counts = self._counts
            cdef int mode = _mode_code(self._zero_division)
            if mode >= 0 and isinstance(counts, KernelCountsCore) \
                    and (<KernelCountsCore>counts)._wide is None:
                return (<KernelCountsCore>counts)._weighted(score, mode)
            return reference(self)
        return read_weighted
    if average == "samples":
        score = _score_code(name, 5)
        if score < 0:
            return None

        def read_samples(self):
            counts = self._counts
            cdef int mode = _mode_code(self._zero_division)
            if mode >= 0 and _single_labels(counts):
                return cc_samples_mean((<KernelCountsCore>counts)._hit,
                                       (<KernelCountsCore>counts)._miss, score, mode)
            return reference(self)
        return read_samples
    return None


cdef inline bint _single_labels(object counts) noexcept:
    """Whether ``counts`` is a kernel core at scale 0 whose every result is single-label (its
    shapes only ``HIT`` and ``MISS``, held in C)."""
    if not isinstance(counts, KernelCountsCore):
        return False
    cdef KernelCountsCore core = <KernelCountsCore>counts
    return core._wide is None and (core._shapes is None or len(core._shapes) == 0)


cdef inline bint _no_offset(object offset):
    """The part of the micro table set_entries set is all zero (a tuple of four ints)."""
    if type(offset) is not tuple or len(<tuple>offset) != 4:
        return False
    for count in <tuple>offset:
        if type(count) is not int or count:
            return False
    return True


def pooled_reader(name, reference):
    """Contingency's ``hamming_loss`` (``name`` "error": the error of the pooled per-category
    cells) read in C: ``reference`` is its reader written in Python, which serves what the C
    does not. With no ``set_entries`` offset the pooled cells are the micro table, so the read
    is the registry's scalar form of that score on the micro table, as the micro read's."""
    cdef int score = _score_code(name, 5)
    if score < 0:
        return None

    def read_pooled(self):
        counts = self._counts
        cdef int mode = _mode_code(self._zero_division)
        if mode >= 0 and isinstance(counts, KernelCountsCore) \
                and (<KernelCountsCore>counts)._wide is None and _no_offset(counts.offset):
            return (<KernelCountsCore>counts)._micro_value(score, mode)
        return reference(self)
    return read_pooled


def subset_reader(name, reference):
    """Contingency's ``subset_accuracy`` (``name`` "accuracy") or ``error_rate`` ("error") read
    in C: ``reference`` is the property's reader written in Python
    (:func:`contingency.formulas.classification.subset_accuracy` or ``subset_error`` of the
    result shapes), which serves what the C does not. Every result single-label, the exact
    results are the ``HIT`` ones and the others the ``MISS`` ones, so the read is the
    registry's scalar form of that score on the table ``(hits, misses, 0, 0)``, as the formula
    computes it."""
    cdef int score = _score_code(name, 5)
    if score < 3:  # (accuracy and error only; -1: not computed in C)
        return None

    def read_subset(self):
        counts = self._counts
        cdef int mode = _mode_code(self._zero_division)
        if mode >= 0 and _single_labels(counts):
            return cc_score(score, (<KernelCountsCore>counts)._hit,
                            (<KernelCountsCore>counts)._miss, 0, 0, mode)
        return reference(self)
    return read_subset


def categories_reader(reference):
    """Contingency's ``categories`` read in C: the memo check of ``reference`` (the property's
    reader written in Python, through ``Contingency._orders``), which makes the order and the
    memo and serves what the C does not. The memo, ``_ordered``, is (the counts' names list,
    its length, the number of holes, (the order as a list, as a tuple)); while the kernel core
    holds that list, of that length, with that many holes, the categories are the same and
    the read is the tuple the memo holds."""

    def read_categories(self):
        counts = self._counts
        cdef KernelCountsCore core
        if isinstance(counts, KernelCountsCore) and (<KernelCountsCore>counts)._wide is None:
            core = <KernelCountsCore>counts
            memo = getattr(self, "_ordered", None)  # (unset until the first read)
            if type(memo) is tuple and (<tuple>memo)[0] is core._names \
                    and <Py_ssize_t>(<tuple>memo)[1] == len(core._names) \
                    and <Py_ssize_t>(<tuple>memo)[2] == core._holes:
                return (<tuple>(<tuple>memo)[3])[1]
        return reference(self)
    return read_categories


def n_results_reader(reference):
    """Contingency's ``n_results`` read in C: ``reference`` is the property's reader written in
    Python (:meth:`contingency._counts.Counts.reported` of the count of results), which serves
    what the C does not. At scale 0 the count is the core's int64 ``n``, reported as it is (an
    ``int``); counts finer than a result (held by the reference's storage, Python ints that
    may pass int64) are reported by ``reference``, the exact count rounded once."""

    def read_n_results(self):
        counts = self._counts
        if isinstance(counts, KernelCountsCore) and (<KernelCountsCore>counts)._wide is None:
            return PyLong_FromLongLong((<KernelCountsCore>counts)._n)
        return reference(self)
    return read_n_results


def fixed_point_double(value):
    """``float(value)`` of an integer ``0 <= value < 2**256`` as the running sums' reads round
    one (cc_u256_double, and below 2**192 cc_u192_double: to nearest, ties to even), for the
    tests against Python's."""
    if not 0 <= value < 1 << 256:
        raise ValueError(f"fixed_point_double: {value!r} is not in [0, 2**256)")
    cdef ck_u256 words
    cdef int index
    for index in range(4):
        words.w[index] = <uint64_t>((value >> (64 * index)) & _MASK_64)
    return cc_u256_double(&words)


cdef set _SINGLE = None  # add_result's single-label types: contingency._feeding.SINGLE
cdef object _join_pair = None  # contingency._feeding.join_pair
cdef object _take_sets = None  # contingency._feeding.take_sets
cdef object _UNIT = 1  # add_result's default weight, tested by identity (a cached small int)


def compiled_add_result(set single, join_pair, take_sets):
    """:func:`add_result`, given the parts of :mod:`contingency._feeding` it calls."""
    global _SINGLE, _join_pair, _take_sets
    _SINGLE, _join_pair, _take_sets = single, join_pair, take_sets
    return add_result


@cython.binding(True)
def add_result(self, assigned, correct, name=None, *, weight=1):
    """Contingency.add_result in C: the reference (contingency/_contingency.py) line for line.

    Its fast path (every label a category, or single labels new to an open
    set; the unit weight; not verbose) reaches the counts' one-result write
    without a Python frame; anything else takes the general path,
    ``self._single``.
    """
    counts = self._counts
    cdef KernelCountsCore core
    if weight is _UNIT and not counts.hold:
        if type(assigned) in _SINGLE and type(correct) in _SINGLE:
            if isinstance(counts, KernelCountsCore) and (<KernelCountsCore>counts)._wide is None:
                core = <KernelCountsCore>counts
                if core._pair(correct, assigned, None, False):
                    return
                if self._unknown == "add":  # a category new to an open set
                    _join_pair_in_c(core, assigned, correct)
                    return
            elif counts.count_pair(correct, assigned):
                return
            elif self._unknown == "add":  # a category new to an open set
                _join_pair(counts, assigned, correct)
                return
        elif _plain_set(assigned) and _plain_set(correct) and isinstance(counts, KernelCountsCore) \
                and (<KernelCountsCore>counts)._wide is None \
                and (<KernelCountsCore>counts)._sets(assigned, correct):
            return  # (sets of categories: take_sets's first case, without its frame)
        else:
            if isinstance(counts, KernelCountsCore) and (<KernelCountsCore>counts)._wide is None:
                chosen = _one_label(assigned)  # one label a side, in a mapping or a list:
                truth = _one_label(correct)  # take_sets's pair, without its frames
                if chosen is not _NONE and truth is not _NONE:
                    core = <KernelCountsCore>counts
                    if core._pair(truth, chosen, None, False):
                        return
                    if self._unknown == "add":  # (take_sets's join)
                        _join_pair_in_c(core, chosen, truth)
                        return
            if _take_sets(counts, assigned, correct, self._unknown == "add"):
                return
    self._single(assigned, correct, name, weight, removing=False)


cdef inline bint _plain_set(object value):
    return type(value) is set or type(value) is frozenset


cdef int _join_pair_in_c(KernelCountsCore core, object assigned, object correct) except -1:
    """contingency._feeding.join_pair in C: a result naming one label a side, one of them at
    least new to an open set; each new label checked first, then the pair counted."""
    if assigned not in core._ids:
        _check_label(assigned, "assigned")
    if correct is not assigned and correct not in core._ids:  # (one label: checked once)
        _check_label(correct, "correct")
    core._pair(correct, assigned, None, True)
    return 0


cdef object _NONE = object()  # _one_label: the side does not name one label as it reads it


cdef object _one_label(object value):
    """The one label a side names when it is a mapping with one truthy value or a list or tuple
    of one label, of a single-label type (contingency._feeding.side_labels's reading of them),
    else _NONE (a side this does not read is left to take_sets)."""
    cdef Py_ssize_t pos = 0
    cdef PyObject *key
    cdef PyObject *flag
    cdef object found = _NONE
    if type(value) is dict:
        while PyDict_Next(value, &pos, &key, &flag):
            if PyObject_IsTrue(<object>flag):
                if found is not _NONE:
                    return _NONE
                found = <object>key
    elif (type(value) is list or type(value) is tuple) and len(value) == 1:
        found = value[0]
    # (a label of a type add_result's single-label path has not met: take_sets checks it)
    return found if found is _NONE or type(found) in _SINGLE else _NONE


def _kernel_pairs_from(pairs):
    """A :class:`KernelPairs` holding ``{key: count}`` (unpickling)."""
    table = KernelPairs()
    table.add_items(pairs.items())
    return table


cdef class KernelPairs:
    """Contingency's single-label results by key ``code(correct) << 32 | code(assigned)``: the
    kernel's hash table (contingency/_kernel_slots.pxi) of int64 counts, no zero count, with
    :class:`contingency._table.PairTable`'s interface (which the reference uses).

    Its slots are narrow (8 bytes, :c:type:`NarrowSlot`) while every key has a narrow form
    (both codes below ``2**16 - 1``) and every count is below ``2**32``: a stream's 180,000
    pairs at K = 1000 take 2 MiB instead of 4, and each result's write of its pair is a random
    access into them. The first key or count they cannot hold moves the table to wide slots
    (:meth:`_widen`: the same keys and counts), wide until :meth:`renumber` lays it out anew.
    """

    cdef Slot *_slots  # the wide slots, or NULL while narrow
    cdef NarrowSlot *_narrow  # the narrow slots, or NULL once wide
    cdef int _bits
    cdef Py_ssize_t _used

    def __cinit__(self):
        self._bits = 4
        self._narrow = narrow_slots_new(self._bits)
        self._slots = NULL
        self._used = 0

    def __dealloc__(self):
        free(self._slots)
        free(self._narrow)

    def __reduce__(self):
        return _kernel_pairs_from, (self.to_dict(),)

    cdef int _resize(self, int bits) except -1:
        """Move the pairs to a table of ``2**bits`` slots, in the same layout."""
        if self._narrow is not NULL:
            self._narrow = slots_moved(self._narrow, self._bits, bits)
        else:
            self._slots = slots_moved(self._slots, self._bits, bits)
        self._bits = bits
        return 0

    cdef int _widen(self) except -1:
        """Move the pairs to wide slots, as many (a key or a count the narrow ones cannot hold)."""
        self._slots = slots_widened(self._narrow, self._bits)
        self._narrow = NULL
        return 0

    cdef inline void _prefetch(self, uint64_t key) noexcept nogil:
        """Ask for the cache line of ``key``'s home slot ahead of its use (a batch's later key)."""
        cdef uint64_t narrow
        if self._narrow is NULL:
            slots_prefetch(self._slots, self._bits, key)
        elif narrow_key(key, &narrow):
            slots_prefetch(self._narrow, self._bits, narrow)

    cdef inline bint _entry(self, Py_ssize_t i, uint64_t *key, int64_t *count) noexcept nogil:
        """Whether slot ``i`` holds a pair; if so, its key (``row << 32 | column``) and count."""
        if self._narrow is not NULL:
            if self._narrow[i].key == NARROW_EMPTY:
                return False
            key[0] = wide_key(self._narrow[i].key)
            count[0] = self._narrow[i].count
            return True
        if self._slots[i].key == EMPTY:
            return False
        key[0] = self._slots[i].key
        count[0] = self._slots[i].count
        return True

    @cython.final
    cdef inline int add_count(self, uint64_t key, int64_t count) except -1:
        """Add ``count`` (of either sign) to one pair: :meth:`add_counts` of one."""
        return self.add_counts(&key, &count, 1)

    @cython.final
    cdef int add_counts(self, const uint64_t *keys, const int64_t *counts,
                        Py_ssize_t size) except -1:
        """Add ``counts[k]`` (of either sign) to the pair ``keys[k]``, in order: the one write of
        pairs, one or a batch's stretch (the slot of the key SLOTS_AHEAD further on asked for
        meanwhile), in narrow slots while they hold every key and count, then in wide ones.
        The caller keeps every count >= 0."""
        cdef Py_ssize_t done = 0
        if self._narrow is not NULL:
            done = self._add_narrow(keys, counts, size)
            if done == size:
                return 0
            self._widen()
        self._add_wide(keys + done, counts + done, size - done)
        return 0

    @cython.final
    cdef Py_ssize_t _add_narrow(self, const uint64_t *keys, const int64_t *counts,
                                Py_ssize_t size) except -1:
        """:meth:`add_counts` in the narrow slots, up to the first pair whose key or new count
        they cannot hold (not written): how many pairs were written."""
        cdef Py_ssize_t k, at
        cdef int64_t held
        cdef uint64_t key, ahead
        for k in range(size):
            if k + SLOTS_AHEAD < size and narrow_key(keys[k + SLOTS_AHEAD], &ahead):
                slots_prefetch(self._narrow, self._bits, ahead)
            if not narrow_key(keys[k], &key):
                return k
            at = slots_find(self._narrow, self._bits, key)
            if self._narrow[at].key == NARROW_EMPTY:
                if counts[k] == 0:
                    continue
                if counts[k] < 0 or counts[k] > 0xFFFFFFFFLL:
                    return k
                if slots_full(self._bits, self._used + 1):
                    self._resize(self._bits + 1)
                    at = slots_find(self._narrow, self._bits, key)
                self._narrow[at].key = <uint32_t>key
                self._narrow[at].count = <uint32_t>counts[k]
                self._used += 1
                continue
            held = <int64_t>self._narrow[at].count + counts[k]
            if held == 0:
                slots_delete(self._narrow, self._bits, at)
                self._used -= 1
            elif 0 < held <= 0xFFFFFFFFLL:
                self._narrow[at].count = <uint32_t>held
            else:
                return k
        return size

    @cython.final
    cdef int _add_wide(self, const uint64_t *keys, const int64_t *counts,
                       Py_ssize_t size) except -1:
        """:meth:`add_counts` in the wide slots."""
        cdef Py_ssize_t k, at
        cdef int64_t held
        cdef uint64_t key
        for k in range(size):
            if k + SLOTS_AHEAD < size:
                slots_prefetch(self._slots, self._bits, keys[k + SLOTS_AHEAD])
            key = keys[k]
            at = slots_find(self._slots, self._bits, key)
            if self._slots[at].key == EMPTY:
                if counts[k] == 0:
                    continue
                if slots_full(self._bits, self._used + 1):
                    self._resize(self._bits + 1)
                    at = slots_find(self._slots, self._bits, key)
                self._slots[at].key, self._slots[at].count = key, counts[k]
                self._used += 1
                continue
            held = self._slots[at].count + counts[k]
            if held:
                self._slots[at].count = held
            else:
                slots_delete(self._slots, self._bits, at)
                self._used -= 1
        return 0

    cdef int64_t count_of(self, uint64_t key) noexcept:
        cdef Py_ssize_t at
        cdef uint64_t narrow
        if self._narrow is NULL:
            at = slots_find(self._slots, self._bits, key)
            return 0 if self._slots[at].key == EMPTY else self._slots[at].count
        if not narrow_key(key, &narrow):
            return 0  # (narrow slots hold no such key)
        at = slots_find(self._narrow, self._bits, narrow)
        return 0 if self._narrow[at].key == NARROW_EMPTY else self._narrow[at].count

    def add(self, key, count):
        """Add ``count`` (of either sign) to one pair."""
        self.add_count(key, count)

    def add_items(self, changes):
        """Add each ``(key, count)`` (counts of either sign)."""
        for key, count in changes:
            self.add_count(key, count)

    def add_pairs(self, pairs):
        """Add a bulk change (:class:`contingency._table.CodedPairs`, counts of either sign).

        One table resize for the batch, then each key through :meth:`add_count`, the slot of the
        key ``SLOTS_AHEAD`` further on asked for meanwhile; a dense count is read as it is.
        """
        if not len(pairs):
            return
        dense = pairs.dense_count()
        if dense is not None:
            self._add_dense(dense[0], dense[1], len(pairs))
            return
        keys_array = np.ascontiguousarray(pairs.keys, dtype=np.int64)
        cdef int64_t[::1] keys = keys_array, counts
        cdef bint ones = pairs.counts is None  # (a count of 1 each: no array of ones made)
        if not ones:
            counts = np.ascontiguousarray(pairs.counts).astype(np.int64, copy=False)
        cdef Py_ssize_t k, size = keys.shape[0]
        cdef int bits = slots_bits_for(self._bits, self._used + size)
        if bits != self._bits:
            self._resize(bits)
        for k in range(size):
            if k + SLOTS_AHEAD < size:  # the slot of a later key, asked for meanwhile
                self._prefetch(<uint64_t>keys[k + SLOTS_AHEAD])
            self.add_count(<uint64_t>keys[k], 1 if ones else counts[k])

    cdef int _add_dense(self, object table, Py_ssize_t width, Py_ssize_t present) except -1:
        """Add ``table[row * width + column]`` to the pair ``row << 32 | column``, for the
        ``present`` non-zero entries of a dense count (int64), in its order.

        The count is read a stretch at a time: its non-zero entries gathered without a branch
        (an entry is zero or not at random, a branch on it mispredicted about half the time),
        then written by :meth:`add_counts`.
        """
        cdef const int64_t[::1] counts = table
        cdef Py_ssize_t size = counts.shape[0], start, k, found, end
        cdef uint64_t row = 0, column = 0
        cdef uint64_t keys[DENSE_STRETCH]
        cdef int64_t values[DENSE_STRETCH]
        cdef int bits = slots_bits_for(self._bits, self._used + present)
        if bits != self._bits:
            self._resize(bits)
        for start in range(0, size, DENSE_STRETCH):
            end = min(start + DENSE_STRETCH, size)
            found = 0
            for k in range(start, end):
                keys[found], values[found] = row << 32 | column, counts[k]
                found += counts[k] != 0
                column += 1
                if column == <uint64_t>width:
                    row, column = row + 1, 0
            for k in range(min(found, SLOTS_AHEAD)):
                self._prefetch(keys[k])
            self.add_counts(keys, values, found)  # (asks for the later slots itself)
        return 0

    def renumber(self, codes):
        """Give every row and column code ``i`` the code ``codes[i]`` instead (the pairs written
        anew, in narrow slots while they hold them)."""
        cdef int64_t[::1] new = np.ascontiguousarray(codes, dtype=np.int64)
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i, at = 0
        keys_array = np.empty(self._used, dtype=np.uint64)
        counts_array = np.empty(self._used, dtype=np.int64)
        cdef uint64_t[::1] keys = keys_array
        cdef int64_t[::1] counts = counts_array
        cdef uint64_t key
        cdef int64_t count
        for i in range(size):
            if self._entry(i, &key, &count):
                keys[at] = <uint64_t>new[key >> 32] << 32 | <uint64_t>new[key & 0xFFFFFFFFULL]
                counts[at] = count
                at += 1
        cdef NarrowSlot *fresh = narrow_slots_new(self._bits)
        free(self._slots)
        free(self._narrow)
        self._slots, self._narrow, self._used = NULL, fresh, 0
        if at:
            self.add_counts(&keys[0], &counts[0], at)

    def copy(self):
        """An independent table with the same counts."""
        cdef KernelPairs other = KernelPairs.__new__(KernelPairs)
        free(other._narrow)
        other._narrow = NULL
        if self._narrow is not NULL:
            other._narrow = slots_copy(self._narrow, self._bits)
        else:
            other._slots = slots_copy(self._slots, self._bits)
        other._bits, other._used = self._bits, self._used
        return other

    def counts_of(self, keys):
        """The count of each key (0 for a pair not in the table, or a key -1)."""
        return [0 if key < 0 else self.count_of(<uint64_t>key) for key in keys]

    def arrays(self):
        """The keys, sorted, and their counts (int64)."""
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i, at = 0
        keys_array = np.empty(self._used, dtype=np.int64)
        counts_array = np.empty(self._used, dtype=np.int64)
        cdef int64_t[::1] keys = keys_array, counts = counts_array
        cdef uint64_t key
        cdef int64_t count
        for i in range(size):
            if self._entry(i, &key, &count):
                keys[at], counts[at] = <int64_t>key, count
                at += 1
        order = np.argsort(keys_array, kind="stable")
        return keys_array[order], counts_array[order]

    def to_dict(self):
        """``{key: count}`` in key order."""
        return dict(self.items())

    def items(self):
        """``(key, count)`` in key order (sorted in Python for a few pairs, by numpy for many)."""
        if self._used > 4096:
            keys, counts = self.arrays()
            return zip(keys.tolist(), counts.tolist())
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i
        cdef list found = []
        cdef uint64_t key
        cdef int64_t count
        for i in range(size):
            if self._entry(i, &key, &count):
                found.append((<int64_t>key, count))
        found.sort()
        return found

    def bits(self):
        """Every count OR-ed together."""
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i
        cdef int64_t found = 0
        cdef uint64_t key
        cdef int64_t count
        for i in range(size):
            if self._entry(i, &key, &count):
                found |= count
        return found

    cdef object over(self, object after):
        """The counts of the keys above ``after`` (as int64) summed: a histogram of totals read
        from its upper end (KernelPairedCounts)."""
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i
        cdef uint64_t key
        cdef int64_t count
        over = 0
        for i in range(size):
            if self._entry(i, &key, &count) and <int64_t>key > after:
                over += count
        return over

    def __len__(self):
        return self._used

    def n_slots(self):
        """The slots of the hash table (a power of two; the tests check its growth)."""
        return (<Py_ssize_t>1) << self._bits

    def is_narrow(self):
        """Whether the slots are narrow (the tests check when the table widens)."""
        return self._narrow is not NULL

    def __eq__(self, other):
        if not isinstance(other, (KernelPairs, _PairTable)):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None
