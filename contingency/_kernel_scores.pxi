# Included by _kernel.pyx.
"""The compiled score counts of ThresholdContingency: weight per distinct score, sorted, with 2U in C.

The same interface and, after every change, the same state as the pure-Python
reference :class:`contingency._score_counts.ScoreCounts` (the specification;
read it first): :mod:`contingency._backend` chooses one of the two, and
tests/test_kernel_scores.py drives both with the same streams and compares
every state and read after each step.

Storage: sorted blocks of fewer than ``2 * CS_LOAD = 128`` keys (each block one
C struct of 3,096 bytes holding its keys, positive and negative weights and
their totals; a block filled from columns holds 96 keys, about 32 bytes a key,
and a block split from a full one 64, about 48),
an array of the blocks' last keys for the binary search, and two Fenwick
trees (int64) over the blocks' totals, so that the weight of negatives below
a key, or of positives above it, is O(log blocks + block) C steps.

Exactness: every count is an int64, in units of ``2**-scale`` as the
reference's (a fractional weight refines the unit: :meth:`_rescale` multiplies every
count by a power of two), while the total of units ``P + N`` fits int64, checked
against ``MAX_COUNT = 2**63 - 1`` before the first write (so no key's count, block
total or Fenwick prefix passes it either). The library's limit is ``2**63 - 1``
whole units, ``MAX_COUNT << scale`` units: a change that takes the total past int64
(a refinement, a step, a batch) is made instead by the reference's counts on a copy
of the state (:meth:`_through_reference`; a refusal there leaves this state as it
was), which then hold it, in Python ints, and every call goes to them (one pointer
test on the common path), until a change brings the total back within int64 and the
state is refilled in C (:meth:`_hold`). So the representation follows the total
alone, as the reference's. ``2U`` and the tied pairs are kept in signed 128-bit
integers. Bound: with ``T = P + N <=
2**63 - 1``, ``2U <= 2 P N <= T**2 / 2 < 2**125`` and ``shared <= P N <
2**124``; one step of weight ``w`` (``|w| <= T`` after an addition, ``|w|``
at most what the key holds for a removal) changes ``2U`` by ``w (2 below +
at)`` with ``|w| + below + at <= T``, so the product is at most ``2 |w|
(T - |w|) <= T**2 / 2 < 2**125``: every intermediate is far inside
``2**127``.

The sums of the Brier score's and the log loss's terms (the reference's
:meth:`~contingency._score_counts.ScoreCounts.term_sum`) are exact here too, in
a fixed-point number of ``CS_LIMBS`` 64-bit limbs in units of ``2**-1074``
(1,280 bits: a term is at most ``(2**63 - 1) * 36.05 < 2**69``, and so is their
sum, ``2**1143`` units). A unit step takes the key's loss from the same Python
function as the formula (:data:`~contingency._score_counts.TERM_LOSSES`: the
one definition of the term), multiplies it by the class's old and new weight
(one rounding each, as numpy's ``weight * loss``) and subtracts and adds the
two products' bits in C; the read rounds the limbs once to the nearest
float64, ties to even (``cs_exact_rounded``), as the reference's Python int
division does. ``calibration_error``'s running bins are the reference's own
Python objects (:mod:`contingency._calibration_bins`), stepped from here.
"""

from cpython.long cimport PyLong_FromLongLong, PyLong_FromUnsignedLongLong
from libc.string cimport memmove

from contingency._score_counts import ScoreCounts as _ReferenceScoreCounts
from contingency._score_counts import TERM_LOSSES as _TERM_LOSSES_BY_NAME
from contingency._score_counts import refined_apply, same_counts, shifted_batch, shown_weight
from contingency._score_counts import made_bins, terms_exact_sum

#: The sums of terms a KernelScoreCounts can keep, by index (a bit of ``_term_flags`` each).
_TERM_NAMES = tuple(_TERM_LOSSES_BY_NAME)
_TERM_LOSSES = tuple(_TERM_LOSSES_BY_NAME.values())
_TERM_INDEX = {name: index for index, name in enumerate(_TERM_NAMES)}

cdef extern from *:
    """
    typedef __int128 cs_i128;
    static inline int64_t cs_high(cs_i128 x) { return (int64_t)(x >> 64); }
    static inline uint64_t cs_low(cs_i128 x) { return (uint64_t)x; }
    static inline int cs_fits64(cs_i128 x) { return x >= INT64_MIN && x <= INT64_MAX; }
    """
    # Cython sees a 64-bit integer type; the C compiler a 128-bit one: only + - * and the
    # helpers below are applied to it, never a conversion to a Python object.
    ctypedef long long cs_i128
    int64_t cs_high(cs_i128 x) nogil
    uint64_t cs_low(cs_i128 x) nogil
    int cs_fits64(cs_i128 x) nogil

cdef extern from *:
    """
    #include <math.h>
    #include <string.h>
    #define CS_LIMBS 20

    /* Add (subtract) the finite non-negative double x, exactly, to (from) the fixed-point
       number of CS_LIMBS 64-bit limbs in units of 2**-1074, least significant limb first. A
       subtraction never takes it below 0: it takes back a term added before. */
    static void cs_exact_add(uint64_t *limbs, double x, int subtract) {
        uint64_t bits, significand, low, high, carry, before;
        int biased, place, at, shift, k;
        if (x == 0.0) return;
        memcpy(&bits, &x, sizeof bits);
        biased = (int)((bits >> 52) & 0x7ff);
        significand = bits & ((UINT64_C(1) << 52) - 1);
        if (biased) { significand |= UINT64_C(1) << 52; place = biased - 1; } else place = 0;
        at = place >> 6;
        shift = place & 63;
        low = significand << shift;
        high = shift ? significand >> (64 - shift) : 0;
        if (!subtract) {
            before = limbs[at]; limbs[at] += low; carry = limbs[at] < before;
            before = limbs[at + 1]; limbs[at + 1] += high + carry; carry = limbs[at + 1] < before;
            for (k = at + 2; carry && k < CS_LIMBS; k++) { limbs[k] += 1; carry = limbs[k] == 0; }
        } else {
            carry = limbs[at] < low; limbs[at] -= low;
            before = limbs[at + 1]; limbs[at + 1] -= high + carry; carry = before < high + carry;
            for (k = at + 2; carry && k < CS_LIMBS; k++) { carry = limbs[k] == 0; limbs[k] -= 1; }
        }
    }

    /* The fixed-point number rounded once to the nearest double, ties to even. */
    static double cs_exact_rounded(const uint64_t *limbs) {
        int top = CS_LIMBS - 1, leading, low, at, shift, k, sticky = 0;
        uint64_t window, kept, rest;
        while (top >= 0 && !limbs[top]) top--;
        if (top < 0) return 0.0;
        leading = top * 64 + 63 - __builtin_clzll(limbs[top]);
        if (leading < 53) return ldexp((double)limbs[0], -1074);  /* below 2**53 units: exact */
        low = leading - 63;  /* the 64 bits from bit `low` up hold the leading one at the top */
        if (low < 0) {
            window = limbs[0] << (-low);
        } else {
            at = low >> 6;
            shift = low & 63;
            window = limbs[at] >> shift;
            if (shift) {
                window |= limbs[at + 1] << (64 - shift);
                sticky = (limbs[at] & ((UINT64_C(1) << shift) - 1)) != 0;
            }
            for (k = 0; k < at && !sticky; k++) sticky = limbs[k] != 0;
        }
        kept = window >> 11;
        rest = window & 0x7ff;
        if (rest > 0x400 || (rest == 0x400 && (sticky || (kept & 1)))) kept += 1;
        return ldexp((double)kept, low + 11 - 1074);  /* normal (>= 2**-1021): exact */
    }
    """
    void cs_exact_add(uint64_t *limbs, double x, int subtract) noexcept nogil
    double cs_exact_rounded(const uint64_t *limbs) noexcept nogil

DEF CS_LIMBS = 20
DEF CS_TERMS = 2

#: Half the most keys a block holds: a block that reaches 2 * CS_LOAD keys is split in two.
DEF CS_LOAD = 64
DEF CS_CAPACITY = 2 * CS_LOAD
#: How many keys a block filled from columns gets (room left for inserts before a split).
DEF CS_FILL = 3 * CS_LOAD // 2
#: A batch of fewer keys than len(state) / this goes through unit steps, else a linear merge.
DEF CS_MERGE_COST = 64

ctypedef struct ScoreBlock:
    Py_ssize_t size
    int64_t pos_total
    int64_t neg_total
    double keys[CS_CAPACITY]
    int64_t pos[CS_CAPACITY]
    int64_t neg[CS_CAPACITY]


cdef object _cs_int(cs_i128 x):
    """A 128-bit integer as a Python int."""
    if cs_fits64(x):
        return PyLong_FromLongLong(<long long>x)
    return (PyLong_FromLongLong(cs_high(x)) << 64) | PyLong_FromUnsignedLongLong(cs_low(x))


cdef inline int64_t _cs_moved(int64_t value, Py_ssize_t shift) noexcept:
    """``value * 2**shift`` (in range: checked by the caller) or, ``shift < 0``, exactly divided."""
    return value * ((<int64_t>1) << shift) if shift > 0 else value >> (-shift)


cdef class KernelScoreCounts:
    """Positive and negative weight per distinct key, sorted, with the running ``twice_u`` (in C)."""

    cdef ScoreBlock **_blocks
    cdef double *_maxes
    cdef int64_t *_tree_pos  # Fenwick trees over the block totals (1-based)
    cdef int64_t *_tree_neg
    cdef Py_ssize_t _n_blocks, _capacity, _n_keys
    cdef cs_i128 _twice_u, _shared
    cdef int64_t _positives, _negatives
    cdef Py_ssize_t _scale  # every count in units of 2**-scale
    cdef object _columns  # the counts as arrays (a cache, dropped by every change)
    cdef object _wide  # past int64: the reference's counts, which hold the state instead
    cdef unsigned int _term_flags  # bit k: the sum of _TERM_NAMES[k]'s terms is kept
    cdef uint64_t _term_sums[CS_TERMS][CS_LIMBS]  # their exact sums (units of 2**-1074)
    cdef object _bins  # None, or n_bins -> calibration_error's running bins (Python objects)

    def __cinit__(self):
        self._blocks = NULL
        self._maxes = NULL
        self._tree_pos = self._tree_neg = NULL
        self._n_blocks = self._capacity = self._n_keys = 0
        self._twice_u = self._shared = 0
        self._positives = self._negatives = 0
        self._scale = 0
        self._columns = None
        self._wide = None
        self._term_flags = 0
        self._bins = None

    def __dealloc__(self):
        self._free()

    cdef void _free(self):
        cdef Py_ssize_t b
        for b in range(self._n_blocks):
            free(self._blocks[b])
        free(self._blocks)
        free(self._maxes)
        free(self._tree_pos)
        free(self._tree_neg)
        self._blocks = NULL
        self._maxes = NULL
        self._tree_pos = self._tree_neg = NULL
        self._n_blocks = self._capacity = self._n_keys = 0

    cdef int _reserve(self, Py_ssize_t blocks) except -1:
        """Room for ``blocks`` blocks in the block, maxima and tree arrays."""
        cdef Py_ssize_t capacity = self._capacity
        if blocks <= capacity:
            return 0
        capacity = max(blocks, 2 * capacity, 8)
        cdef void *grown = realloc(self._blocks, capacity * sizeof(ScoreBlock *))
        if grown == NULL:
            raise MemoryError()
        self._blocks = <ScoreBlock **>grown
        grown = realloc(self._maxes, capacity * sizeof(double))
        if grown == NULL:
            raise MemoryError()
        self._maxes = <double *>grown
        grown = realloc(self._tree_pos, (capacity + 1) * sizeof(int64_t))
        if grown == NULL:
            raise MemoryError()
        self._tree_pos = <int64_t *>grown
        grown = realloc(self._tree_neg, (capacity + 1) * sizeof(int64_t))
        if grown == NULL:
            raise MemoryError()
        self._tree_neg = <int64_t *>grown
        self._capacity = capacity
        return 0

    cdef void _trees(self) noexcept:
        """Rebuild both Fenwick trees from the block totals, in O(blocks)."""
        cdef Py_ssize_t b, parent, size = self._n_blocks + 1
        self._tree_pos[0] = self._tree_neg[0] = 0
        for b in range(1, size):
            self._tree_pos[b] = self._blocks[b - 1].pos_total
            self._tree_neg[b] = self._blocks[b - 1].neg_total
        for b in range(1, size):
            parent = b + (b & -b)
            if parent < size:
                self._tree_pos[parent] += self._tree_pos[b]
                self._tree_neg[parent] += self._tree_neg[b]

    # State as Python sees it ------------------------------------------------------------

    @property
    def positives(self):
        """P, the total positive weight (units of ``2**-scale``)."""
        return self._positives if self._wide is None else self._wide.positives

    @property
    def negatives(self):
        """N, the total negative weight."""
        return self._negatives if self._wide is None else self._wide.negatives

    @property
    def scale(self):
        """Every count is in units of ``2**-scale``."""
        return self._scale if self._wide is None else self._wide.scale

    @property
    def twice_u(self):
        """2U, the Mann-Whitney statistic in half-units (a Python int)."""
        return _cs_int(self._twice_u) if self._wide is None else self._wide.twice_u

    @property
    def shared(self):
        """The tied positive-negative pairs: sum over keys of positives x negatives."""
        return _cs_int(self._shared) if self._wide is None else self._wide.shared

    def clear(self):
        """Forget every count."""
        self._free()
        self._twice_u = self._shared = 0
        self._positives = self._negatives = 0
        self._scale = 0
        self._columns = None
        self._wide = None
        self._term_flags = 0
        self._bins = None

    # Past int64 ----------------------------------------------------------------------------

    cdef object _reference(self):
        """The reference's counts holding this state (O(keys)): where a change past int64 goes."""
        wide = _ReferenceScoreCounts()
        keys, pos, neg = self.columns()
        wide.__setstate__((keys, pos, neg, self._scale))
        return wide

    cdef int _hold(self, object wide) except -1:
        """Take ``wide``'s state: held by it while its total is past int64, else refilled in C."""
        self.clear()
        if wide.positives + wide.negatives > MAX_COUNT:
            self._wide = wide
            return 0
        keys, pos, neg = wide.columns()
        self._fill(np.ascontiguousarray(keys, dtype=np.float64),
                   np.ascontiguousarray(pos, dtype=np.int64),
                   np.ascontiguousarray(neg, dtype=np.int64))
        self._scale = wide.scale
        return 0

    cdef int _through_reference(self, double key, object positive, object weight, object batch,
                                int sign, Py_ssize_t scale) except -1:
        """A change made by the reference's counts: those holding the state past int64, or, from
        int64, a copy of the state (for a change the int64 storage cannot hold, its total past
        ``2**63 - 1`` units). Their ``apply`` checks before the first write: a refusal leaves
        the state as it was."""
        wide = self._reference() if self._wide is None else self._wide
        wide.apply(key, positive, weight, batch, sign, scale)
        if wide is not self._wide or wide.positives + wide.negatives <= MAX_COUNT:
            self._hold(wide)
        return 0

    def copy(self):
        """An independent copy."""
        cdef KernelScoreCounts other = type(self).__new__(type(self))
        cdef Py_ssize_t b
        if self._wide is not None:
            other._wide = self._wide.copy()
            return other
        other._reserve(self._n_blocks)
        for b in range(self._n_blocks):
            other._blocks[b] = <ScoreBlock *>malloc(sizeof(ScoreBlock))
            if other._blocks[b] == NULL:
                other._n_blocks = b
                raise MemoryError()
            memcpy(other._blocks[b], self._blocks[b], sizeof(ScoreBlock))
            other._n_blocks = b + 1
        if self._n_blocks:
            memcpy(other._maxes, self._maxes, self._n_blocks * sizeof(double))
            other._trees()
        other._n_keys = self._n_keys
        other._twice_u, other._shared = self._twice_u, self._shared
        other._positives, other._negatives = self._positives, self._negatives
        other._scale = self._scale
        other._columns = self._columns
        return other

    def __len__(self):
        """The number of distinct keys."""
        return self._n_keys if self._wide is None else len(self._wide)

    def __eq__(self, other):
        # equal to the reference's ScoreCounts holding the same counts too (its __eq__ returns
        # NotImplemented for this class, so Python asks this one): a state pickled by a process
        # on one implementation and loaded by one on the other compares equal
        if not isinstance(other, (KernelScoreCounts, _ReferenceScoreCounts)):
            return NotImplemented
        return same_counts(self, other)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None

    def __getstate__(self):
        keys, pos, neg = self.columns()
        return keys.tolist(), pos.tolist(), neg.tolist(), self.scale

    def __setstate__(self, state):
        wide = _ReferenceScoreCounts()
        wide.__setstate__(state)
        self._hold(wide)

    def __reduce__(self):
        return type(self), (), self.__getstate__()

    # Reads -------------------------------------------------------------------------------

    def columns(self):
        """The counts as arrays, keys ascending (made once per state; callers never write to them)."""
        if self._wide is not None:
            return self._wide.columns()
        if self._columns is not None:
            return self._columns
        keys = np.empty(self._n_keys, dtype=np.float64)
        pos = np.empty(self._n_keys, dtype=np.int64)
        neg = np.empty(self._n_keys, dtype=np.int64)
        cdef double[::1] key_view = keys
        cdef int64_t[::1] pos_view = pos, neg_view = neg
        cdef Py_ssize_t b, at = 0, size
        cdef ScoreBlock *block
        for b in range(self._n_blocks):
            block = self._blocks[b]
            size = block.size
            if size:
                memcpy(&key_view[at], block.keys, size * sizeof(double))
                memcpy(&pos_view[at], block.pos, size * sizeof(int64_t))
                memcpy(&neg_view[at], block.neg, size * sizeof(int64_t))
            at += size
        for column in (keys, pos, neg):
            column.flags.writeable = False
        self._columns = (keys, pos, neg)
        return self._columns

    def term_sum(self, name):
        """The sum of the named score's terms over the counts, exact and rounded once (made from
        the columns by the first call, then kept by every unit step); ``None`` where it does not
        serve: no key, a key outside [0, 1], counts past int64. As the reference's."""
        cdef Py_ssize_t k = _TERM_INDEX[name]
        cdef bytes limbs
        if (self._wide is not None or not self._n_keys or self._blocks[0].keys[0] < 0.0
                or self._maxes[self._n_blocks - 1] > 1.0):
            return None
        if not (self._term_flags >> k) & 1:
            limbs = terms_exact_sum(name, self.columns()).to_bytes(CS_LIMBS * 8, "little")
            memcpy(self._term_sums[k], <const char *>limbs, CS_LIMBS * 8)
            self._term_flags |= 1u << k
        return cs_exact_rounded(self._term_sums[k])

    def calibration_bins(self, n_bins):
        """The running bins of ``calibration_error(n_bins)``, made by the first call for
        ``n_bins``, then kept by every unit step; ``None`` where they do not serve. As the
        reference's (the same Python objects: :mod:`contingency._calibration_bins`)."""
        cdef int64_t total = self._positives + self._negatives
        if (self._wide is not None or not self._n_keys or self._blocks[0].keys[0] < 0.0
                or self._maxes[self._n_blocks - 1] > 1.0):
            return None
        if self._bins is None:
            self._bins = {}
        found = self._bins.get(n_bins)
        if found is None:
            found = made_bins(self._bins, n_bins, self.columns(), total)
        if not self._bins:
            self._bins = None
        return found if found is not None and found.serves(total) else None

    cdef int _follow_sums(self, double key, bint positive, int64_t old, int64_t weight) except -1:
        """Keep the running sums through one key's change of one class from ``old`` by
        ``weight``: each sum of terms (the loss from the reference's function, the products
        and their bits in C) and each of calibration_error's bins (their own step)."""
        cdef Py_ssize_t k
        cdef double loss
        cdef int64_t new = old + weight
        if not 0.0 <= key <= 1.0:  # the reads refuse the state: no sum until they accept it
            self._term_flags = 0
            self._bins = None
            return 0
        if self._bins is not None:
            for bins in self._bins.values():
                bins.step(key, positive, weight)
        for k in range(CS_TERMS):
            if (self._term_flags >> k) & 1:
                loss = _TERM_LOSSES[k](key, positive)
                if old:
                    cs_exact_add(self._term_sums[k], <double>old * loss, 1)
                if new:
                    cs_exact_add(self._term_sums[k], <double>new * loss, 0)
        return 0

    def at(self, double key):
        """The positive and negative weight at ``key`` (0, 0 if absent)."""
        cdef Py_ssize_t b, i
        if self._wide is not None:
            return self._wide.at(key)
        if not self._locate(key, &b, &i):
            return 0, 0
        return self._blocks[b].pos[i], self._blocks[b].neg[i]

    cdef bint _locate(self, double key, Py_ssize_t *block_at, Py_ssize_t *at) noexcept:
        """Where ``key`` is or would go: its block and place (the last block past every key)."""
        cdef Py_ssize_t low = 0, high = self._n_blocks, middle
        cdef ScoreBlock *block
        if not high:
            block_at[0] = at[0] = 0
            return False
        while low < high:  # the first block whose last key is >= key
            middle = (low + high) >> 1
            if self._maxes[middle] < key:
                low = middle + 1
            else:
                high = middle
        if low == self._n_blocks:
            low -= 1
        block = self._blocks[low]
        high = block.size
        middle = 0
        while middle < high:  # the first key >= key in the block
            if block.keys[(middle + high) >> 1] < key:
                middle = ((middle + high) >> 1) + 1
            else:
                high = (middle + high) >> 1
        block_at[0], at[0] = low, middle
        return middle < block.size and block.keys[middle] == key

    # The one write routine ---------------------------------------------------------------

    def apply(self, double key=0.0, positive=True, weight=0, batch=None, int sign=1,
              Py_ssize_t scale=0):
        """Change the counts: a unit step ``apply(key, positive, weight)`` or a coded batch
        ``apply(batch=(keys, positives, negatives), sign=±1)``, weights in units of
        ``2**-scale``, as the reference's; checked whole before the first write. A change that
        takes the total past ``2**63 - 1`` units moves the state to the reference's counts."""
        cdef int overflow = 0
        cdef int64_t w
        if self._wide is not None:
            self._through_reference(key, positive, weight, batch, sign, scale)
            return
        if scale != self._scale:
            if scale > self._scale:
                refined_apply(self, key, positive, weight, batch, sign, scale)
                return
            if batch is None:
                weight = weight << (self._scale - scale)
            else:
                batch = shifted_batch(batch, self._scale - scale)
        if batch is None:
            w = PyLong_AsLongLongAndOverflow(weight, &overflow)
            positive = positive is True or (positive is not False and bool(positive))
            if overflow or w == -MAX_COUNT - 1 or self._step(key, positive, w):
                self._through_reference(key, positive, weight, None, 1, self._scale)
            return
        keys, pos, neg = batch
        if not keys.size:
            return
        if pos.dtype == object or neg.dtype == object or self._apply_batch(
                np.ascontiguousarray(keys, dtype=np.float64),
                np.ascontiguousarray(pos, dtype=np.int64),
                np.ascontiguousarray(neg, dtype=np.int64), sign):
            self._through_reference(0.0, True, 0, batch, sign, self._scale)

    cdef int _step(self, double key, bint positive, int64_t weight) except -1:
        """One key's change of one class, ``twice_u`` following; checked before the first write.

        Returns 1, changing nothing, when the total would pass int64 (the caller takes the
        change to the reference's counts), else 0."""
        cdef Py_ssize_t b, i, j
        cdef bint found = self._locate(key, &b, &i)
        cdef ScoreBlock *block
        cdef int64_t have, below, above
        if weight == 0:
            return 0
        if weight < 0:
            have = 0
            if found:
                have = self._blocks[b].pos[i] if positive else self._blocks[b].neg[i]
            if have < -weight:
                kind = "positive" if positive else "negative"
                raise ValueError(f"remove: there are {shown_weight(have, self._scale)} {kind} "
                                 f"results of score {key!r}, not "
                                 f"{shown_weight(-weight, self._scale)} to remove")
        elif weight > MAX_COUNT - self._positives - self._negatives:
            return 1
        if self._term_flags or self._bins is not None:  # before any write: Python calls
            have = 0
            if found:
                have = self._blocks[b].pos[i] if positive else self._blocks[b].neg[i]
            self._follow_sums(key, positive, have, weight)
        self._columns = None
        if not self._n_blocks:  # the first key
            self._reserve(1)
            block = <ScoreBlock *>malloc(sizeof(ScoreBlock))
            if block == NULL:
                raise MemoryError()
            block.size = 0
            block.pos_total = block.neg_total = 0
            self._blocks[0] = block
            self._maxes[0] = key
            self._n_blocks = 1
            self._trees()
            b = i = 0
        block = self._blocks[b]
        if not found:
            memmove(&block.keys[i + 1], &block.keys[i], (block.size - i) * sizeof(double))
            memmove(&block.pos[i + 1], &block.pos[i], (block.size - i) * sizeof(int64_t))
            memmove(&block.neg[i + 1], &block.neg[i], (block.size - i) * sizeof(int64_t))
            block.keys[i] = key
            block.pos[i] = block.neg[i] = 0
            block.size += 1
            self._n_keys += 1
            if i == block.size - 1:
                self._maxes[b] = key
        if positive:
            below = self._prefix(self._tree_neg, b)
            if i < (block.size >> 1):
                for j in range(i):
                    below += block.neg[j]
            else:
                below += block.neg_total
                for j in range(i, block.size):
                    below -= block.neg[j]
            self._twice_u += <cs_i128>weight * (2 * <cs_i128>below + block.neg[i])
            self._shared += <cs_i128>weight * block.neg[i]
            block.pos[i] += weight
            block.pos_total += weight
            self._positives += weight
            self._raise(self._tree_pos, b, weight)
        else:
            above = self._positives - self._prefix(self._tree_pos, b)
            if i < (block.size >> 1):
                for j in range(i + 1):
                    above -= block.pos[j]
            else:
                above -= block.pos_total
                for j in range(i + 1, block.size):
                    above += block.pos[j]
            self._twice_u += <cs_i128>weight * (2 * <cs_i128>above + block.pos[i])
            self._shared += <cs_i128>weight * block.pos[i]
            block.neg[i] += weight
            block.neg_total += weight
            self._negatives += weight
            self._raise(self._tree_neg, b, weight)
        if not block.pos[i] and not block.neg[i]:
            self._drop(b, i)
        elif block.size == CS_CAPACITY:
            self._split(b)
        return 0

    cdef inline int64_t _prefix(self, int64_t *tree, Py_ssize_t b) noexcept:
        """The sum of the first ``b`` block totals."""
        cdef int64_t total = 0
        while b:
            total += tree[b]
            b &= b - 1
        return total

    cdef inline void _raise(self, int64_t *tree, Py_ssize_t b, int64_t weight) noexcept:
        b += 1
        while b <= self._n_blocks:
            tree[b] += weight
            b += b & -b

    cdef void _drop(self, Py_ssize_t b, Py_ssize_t i) noexcept:
        """Remove the empty key ``i`` of block ``b`` (and the block, once empty)."""
        cdef ScoreBlock *block = self._blocks[b]
        block.size -= 1
        self._n_keys -= 1
        memmove(&block.keys[i], &block.keys[i + 1], (block.size - i) * sizeof(double))
        memmove(&block.pos[i], &block.pos[i + 1], (block.size - i) * sizeof(int64_t))
        memmove(&block.neg[i], &block.neg[i + 1], (block.size - i) * sizeof(int64_t))
        if block.size:
            if i == block.size:
                self._maxes[b] = block.keys[i - 1]
            return
        free(block)
        self._n_blocks -= 1
        memmove(&self._blocks[b], &self._blocks[b + 1], (self._n_blocks - b) * sizeof(ScoreBlock *))
        memmove(&self._maxes[b], &self._maxes[b + 1], (self._n_blocks - b) * sizeof(double))
        self._trees()

    cdef int _split(self, Py_ssize_t b) except -1:
        """Split block ``b`` in two halves (the Fenwick trees rebuilt: O(blocks), amortised)."""
        cdef ScoreBlock *block = self._blocks[b]
        cdef ScoreBlock *upper
        cdef Py_ssize_t j, rest
        self._reserve(self._n_blocks + 1)
        upper = <ScoreBlock *>malloc(sizeof(ScoreBlock))
        if upper == NULL:
            raise MemoryError()
        rest = block.size - CS_LOAD
        memcpy(upper.keys, &block.keys[CS_LOAD], rest * sizeof(double))
        memcpy(upper.pos, &block.pos[CS_LOAD], rest * sizeof(int64_t))
        memcpy(upper.neg, &block.neg[CS_LOAD], rest * sizeof(int64_t))
        upper.size = rest
        block.size = CS_LOAD
        upper.pos_total = upper.neg_total = 0
        for j in range(rest):
            upper.pos_total += upper.pos[j]
            upper.neg_total += upper.neg[j]
        block.pos_total -= upper.pos_total
        block.neg_total -= upper.neg_total
        memmove(&self._blocks[b + 2], &self._blocks[b + 1],
                (self._n_blocks - b - 1) * sizeof(ScoreBlock *))
        memmove(&self._maxes[b + 2], &self._maxes[b + 1], (self._n_blocks - b - 1) * sizeof(double))
        self._blocks[b + 1] = upper
        self._maxes[b] = block.keys[CS_LOAD - 1]
        self._maxes[b + 1] = upper.keys[rest - 1]
        self._n_blocks += 1
        self._trees()
        return 0

    # Batches -----------------------------------------------------------------------------

    cdef int _apply_batch(self, const double[::1] keys, const int64_t[::1] pos, const int64_t[::1] neg,
                          int sign) except -1:
        """A coded batch (keys ascending and distinct, weights >= 0), checked whole first.

        Returns 1, changing nothing, when the total would pass int64, else 0."""
        cdef Py_ssize_t m = keys.shape[0], k, b, i
        cdef cs_i128 total = 0
        cdef int64_t have_pos, have_neg
        for k in range(m):
            total += <cs_i128>pos[k] + neg[k]
        if sign > 0:
            if total > MAX_COUNT - self._positives - self._negatives:
                return 1
        else:
            for k in range(m):
                have_pos = have_neg = 0
                if self._locate(keys[k], &b, &i):
                    have_pos, have_neg = self._blocks[b].pos[i], self._blocks[b].neg[i]
                if have_pos < pos[k] or have_neg < neg[k]:
                    kind, have, want = (("positive", have_pos, pos[k]) if have_pos < pos[k]
                                        else ("negative", have_neg, neg[k]))
                    raise ValueError(f"remove: there are {shown_weight(have, self._scale)} {kind} "
                                     f"results of score {keys[k]!r}, not "
                                     f"{shown_weight(want, self._scale)} to remove")
        if not self._n_keys and sign > 0:  # into an empty state: the batch is the state
            self._fill(keys, pos, neg)
        elif m * CS_MERGE_COST < self._n_keys:
            for k in range(m):
                if pos[k]:
                    self._step(keys[k], True, sign * pos[k])
                if neg[k]:
                    self._step(keys[k], False, sign * neg[k])
        else:
            self._merge(keys, pos, neg, sign)
        return 0

    cdef int _merge(self, const double[::1] keys, const int64_t[::1] pos, const int64_t[::1] neg,
                    int sign) except -1:
        """The state and a checked batch merged in one linear pass, then the state refilled."""
        mine_keys, mine_pos, mine_neg = self.columns()
        cdef const double[::1] a_keys = mine_keys
        cdef const int64_t[::1] a_pos = mine_pos, a_neg = mine_neg
        cdef Py_ssize_t n = a_keys.shape[0], m = keys.shape[0], i = 0, k = 0, at = 0
        all_keys = np.empty(n + m, dtype=np.float64)
        all_pos = np.empty(n + m, dtype=np.int64)
        all_neg = np.empty(n + m, dtype=np.int64)
        cdef double[::1] out_keys = all_keys
        cdef int64_t[::1] out_pos = all_pos, out_neg = all_neg
        while i < n or k < m:
            if k == m or (i < n and a_keys[i] < keys[k]):
                out_keys[at], out_pos[at], out_neg[at] = a_keys[i], a_pos[i], a_neg[i]
                i += 1
            elif i == n or keys[k] < a_keys[i]:
                out_keys[at], out_pos[at], out_neg[at] = keys[k], sign * pos[k], sign * neg[k]
                k += 1
            else:
                out_keys[at] = keys[k]
                out_pos[at] = a_pos[i] + sign * pos[k]
                out_neg[at] = a_neg[i] + sign * neg[k]
                i += 1
                k += 1
            if out_pos[at] or out_neg[at]:
                at += 1
        cdef Py_ssize_t scale = self._scale
        self.clear()
        self._fill(all_keys[:at], all_pos[:at], all_neg[:at])
        self._scale = scale
        return 0

    def _rescale(self, Py_ssize_t scale):
        """Every count in units of ``2**-scale``: finer (past int64 there, the state moves to
        the reference's counts), or coarser where every count is divisible (undoing a
        refinement); 2U and the tied pairs, products of two counts, move by twice the shift.
        As the reference's."""
        cdef Py_ssize_t shift = scale - self._scale, b, j
        cdef ScoreBlock *block
        self._term_flags = 0  # every count changes: made again by the next read
        self._bins = None
        if self._wide is not None:  # the reference's, then back to C if the total fits int64
            wide = self._wide
            wide._rescale(scale)
            if wide.positives + wide.negatives <= MAX_COUNT:
                self._hold(wide)
            return
        if not shift:
            return
        if self._positives + self._negatives:
            if shift > 0 and (shift >= 63 or self._positives + self._negatives > (MAX_COUNT >> shift)):
                wide = self._reference()  # past int64 in the finer unit
                wide._rescale(scale)
                self._hold(wide)
                return
            for b in range(self._n_blocks):
                block = self._blocks[b]
                for j in range(block.size):
                    block.pos[j] = _cs_moved(block.pos[j], shift)
                    block.neg[j] = _cs_moved(block.neg[j], shift)
                block.pos_total = _cs_moved(block.pos_total, shift)
                block.neg_total = _cs_moved(block.neg_total, shift)
            self._trees()
            self._positives = _cs_moved(self._positives, shift)
            self._negatives = _cs_moved(self._negatives, shift)
            if shift > 0:
                self._twice_u = self._twice_u * ((<cs_i128>1) << (2 * shift))
                self._shared = self._shared * ((<cs_i128>1) << (2 * shift))
            else:
                self._twice_u = self._twice_u >> (-2 * shift)
                self._shared = self._shared >> (-2 * shift)
        self._scale = scale
        self._columns = None

    cdef int _fill(self, const double[::1] keys, const int64_t[::1] pos, const int64_t[::1] neg) except -1:
        """Fill an empty state from checked columns (keys ascending; zero rows dropped) and
        compute ``twice_u`` and the tied pairs from them."""
        cdef Py_ssize_t n = keys.shape[0], k, size
        cdef ScoreBlock *block = NULL
        cdef int64_t negatives = 0, positives = 0
        cdef cs_i128 twice_u = 0, shared = 0
        self._term_flags = 0  # made again by the next read
        self._bins = None
        for k in range(n):
            if not pos[k] and not neg[k]:
                continue
            if block == NULL or block.size == CS_FILL:
                self._reserve(self._n_blocks + 1)
                block = <ScoreBlock *>malloc(sizeof(ScoreBlock))
                if block == NULL:
                    raise MemoryError()
                block.size = 0
                block.pos_total = block.neg_total = 0
                self._blocks[self._n_blocks] = block
                self._n_blocks += 1
            size = block.size
            block.keys[size], block.pos[size], block.neg[size] = keys[k], pos[k], neg[k]
            block.pos_total += pos[k]
            block.neg_total += neg[k]
            block.size = size + 1
            self._maxes[self._n_blocks - 1] = keys[k]
            # ascending: the negatives below this key are those seen so far
            twice_u += <cs_i128>pos[k] * (2 * <cs_i128>negatives + neg[k])
            shared += <cs_i128>pos[k] * neg[k]
            negatives += neg[k]
            positives += pos[k]
            self._n_keys += 1
        if self._n_blocks:
            self._trees()
        self._twice_u, self._shared = twice_u, shared
        self._positives, self._negatives = positives, negatives
        self._columns = None
        return 0
