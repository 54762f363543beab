# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled kernel of PartitionComparison's table: cells, totals and exact running sums in C.

The same interface and, after every change, the same state as the pure-Python
reference (contingency/_table_reference.py, the specification; read it first):
:mod:`contingency._backend` loads this module and subclasses
:class:`KernelTable` with the reads :class:`contingency._table.Table` writes once.

Storage:

- labels: a dict per side from label to code (looked up from C) and a list
  from code to label; codes are given in arrival order and never reused
  while they stand (a forgotten label leaves a hole, closed by renumbering in
  order once holes outnumber labels), so code order is the reference's dict
  order (a batch's new labels join in the order of its label lists);
- cells: the kernel's open-addressing hash table (contingency/_kernel_slots.pxi:
  linear probing, deletion by backward shift) from the key ``row << 32 |
  column`` to the count;
- row and column totals: int64 arrays indexed by code; N an int64;
- running sums per level (cells, rows, columns): ``sum C(n, 2)`` in 128 bits
  (below ``2**125`` while N is below ``2**63``), ``sum C(n, 3)`` in 192 bits
  (below ``2**187``), ``sum n_log_n_fixed(n)`` in 128 bits (each term is
  ``fl(n ln n) 2**52 < 2**122``, and the sum is at most ``N ln N 2**52
  (1 + 2**-52) < 2**121``). Terms are added and subtracted modulo the width,
  which is exact because every true sum lies within it. ``n_log_n_fixed``
  is the float64 product ``n * log(n)`` (the C library's ``log``, which
  Python's ``math.log`` calls) scaled by ``2**52``, an exact integer.
- fine ``n ln n`` sums, once kept: 256-bit integers (each below ``2**197``,
  added and subtracted modulo the width, as above) of the terms
  :func:`contingency.formulas.partition.fine_n_log_n` gives, the one
  definition: the kernel asks it once per count below 65,536 (then reads
  the term from a C table shared by every table of the process) and above it
  once per count at each of 256 places (the last asked for there). A unit
  change of a count below that bound steps the three fine sums without a
  Python call.
- nothing else: the scores read from the sums (ARI, the Rand index, MI, NMI,
  homogeneity, completeness, V-measure) are computed from them in C on each
  read, memoised until the next change, with one rounding each as the
  formulas round (contingency._table.Table's reads of the same names, on the
  formulas, are their specification and serve the cases the C does not).

Every change is checked whole before its first write (count limit, labels,
removals of elements that are not there), with the reference's messages.
"""

cimport cython
from cpython.object cimport PyObject, PyTypeObject
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.math cimport erfc, sqrt
from libc.string cimport memcpy, memset

import math

import numpy as np

from contingency._table import Cells, Table, check_pair
from contingency.formulas._numeric import check_room, dense_is_cheaper
from contingency.formulas.partition import AriSignificance, FineSums, TableSums, fine_n_log_n, fine_n_log_n_sum

cdef extern from *:
    """
    #ifndef CONTINGENCY_KERNEL_SOURCE
    #define CONTINGENCY_KERNEL_SOURCE "unknown"
    #endif
    #include <math.h>
    #include <string.h>
    #include <stdint.h>

    typedef unsigned __int128 ck_u128;
    typedef struct { ck_u128 low; uint64_t high; } ck_u192;
    /* The sums of one level: sum C(n, 2), sum C(n, 3), sum n_log_n_fixed(n). */
    typedef struct { ck_u128 pairs; ck_u192 triples; ck_u128 log; } ck_level;

    static ck_u128 ck_pairs(uint64_t n) {
        ck_u128 a = n, b = n ? n - 1 : 0;
        return (n & 1) ? a * (b >> 1) : (a >> 1) * b;
    }

    static inline __attribute__((always_inline)) ck_u192 ck_triples(uint64_t n) {
        ck_u192 r = {0, 0};
        if (n < 3) return r;
        if (n < (1ULL << 21)) {                        /* the product fits in 64 bits */
            r.low = n * (n - 1) * (n - 2) / 6;
            return r;
        }
        uint64_t a = n, b = n - 1, c = n - 2;
        if (a % 2 == 0) a /= 2; else b /= 2;          /* n or n - 1 is even */
        if (a % 3 == 0) a /= 3; else if (b % 3 == 0) b /= 3; else c /= 3;
        ck_u128 ab = (ck_u128)a * b;                   /* below 2**126 */
        ck_u128 lo = (ck_u128)(uint64_t)ab * c;
        ck_u128 hi = (ck_u128)(uint64_t)(ab >> 64) * c;
        ck_u128 mid = (lo >> 64) + (uint64_t)hi;
        r.low = ((ck_u128)(uint64_t)mid << 64) | (uint64_t)lo;
        r.high = (uint64_t)(hi >> 64) + (uint64_t)(mid >> 64);
        return r;
    }

    static void ck_add192(ck_u192 *s, ck_u192 x) {
        ck_u128 low = s->low + x.low;
        s->high += x.high + (low < s->low);
        s->low = low;
    }

    static void ck_sub192(ck_u192 *s, ck_u192 x) {
        ck_u128 low = s->low - x.low;
        s->high -= x.high + (s->low < x.low);
        s->low = low;
    }

    /* fl(n * ln n) * 2**52, exactly: Python's n_log_n_fixed. */
    #define CK_LOG_CACHE 4096
    static ck_u128 ck_log_cache[CK_LOG_CACHE];

    static ck_u128 ck_log_compute(uint64_t n) {
        if (n < 2) return 0;
        double v = (double)n * log((double)n);         /* v >= 2 ln 2 > 1: normal, exponent >= 0 */
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        int exponent = (int)(bits >> 52) - 1023;       /* v = mantissa 2**(exponent - 52) */
        uint64_t mantissa = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
        return (ck_u128)mantissa << exponent;          /* v 2**52 */
    }

    /* Counts from CK_LOG_CACHE on: the last term asked for at each of 1024 places (by the
       count's low bits). A stream moves a count from n to n + 1, and its next step starts
       from n + 1: the term just computed. */
    #define CK_LOG_RECENT 1024
    static uint64_t ck_log_recent_count[CK_LOG_RECENT];
    static ck_u128 ck_log_recent[CK_LOG_RECENT];

    static ck_u128 ck_log_large(uint64_t n) {
        unsigned place = (unsigned)(n & (CK_LOG_RECENT - 1));
        if (ck_log_recent_count[place] != n) {
            ck_log_recent[place] = ck_log_compute(n);
            ck_log_recent_count[place] = n;
        }
        return ck_log_recent[place];
    }

    static void ck_log_init(void) {
        for (uint64_t n = 0; n < CK_LOG_CACHE; n++) ck_log_cache[n] = ck_log_compute(n);
    }

    static inline ck_u128 ck_log(uint64_t n) {
        return n < CK_LOG_CACHE ? ck_log_cache[n] : ck_log_large(n);
    }

    /* A level's sums as a count of it goes from old to new. Both below CK_LOG_CACHE (a batch's
       cells, a stream's steps): C(n, 2) and C(n, 3) are below 2**36, so each sum moves by a
       signed 64-bit difference added modulo its width (exact, as every true sum lies within
       it), with no branch on the counts (a batch's counts are small at random, and a branch on
       them was mispredicted often enough to cost a third of a dense batch's writes). */
    static inline __attribute__((always_inline)) void ck_step(ck_level *level, uint64_t old, uint64_t new_) {
        if (((old | new_) & ~(uint64_t)(CK_LOG_CACHE - 1)) == 0) {
            int64_t pairs = (int64_t)(new_ * (new_ - 1) / 2) - (int64_t)(old * (old - 1) / 2);
            int64_t triples = (int64_t)(new_ * (new_ - 1) * (new_ - 2) / 6)
                              - (int64_t)(old * (old - 1) * (old - 2) / 6);
            ck_u128 low = level->triples.low + (ck_u128)(__int128)triples;
            level->pairs += (ck_u128)(__int128)pairs;
            level->triples.high += (uint64_t)(triples >> 63) + (low < level->triples.low);
            level->triples.low = low;
            level->log += ck_log_cache[new_] - ck_log_cache[old];
            return;
        }
        level->pairs += ck_pairs(new_) - ck_pairs(old);
        if (new_ == old + 1) {                         /* C(n + 1, 3) - C(n, 3) = C(n, 2) */
            ck_u192 t = {ck_pairs(old), 0};
            ck_add192(&level->triples, t);
        } else if (old == new_ + 1) {
            ck_u192 t = {ck_pairs(new_), 0};
            ck_sub192(&level->triples, t);
        } else {
            ck_add192(&level->triples, ck_triples(new_));
            ck_sub192(&level->triples, ck_triples(old));
        }
        level->log += ck_log(new_) - ck_log(old);
    }

    /* ck_step for each of a stretch's counts, from olds[k] to olds[k] + changes[k]. Where both
       counts are below CK_LOG_CACHE, the differences of C(n, 2) and C(n, 3) (each below 2**36
       in size) are summed exactly in int64 over at most 2**16 steps, the n ln n terms in
       128 bits, and each total added to the level once (modulo its width, exact as in ck_step);
       other counts take ck_step itself. */
    static void ck_steps(ck_level *level, const int64_t *olds, const int64_t *changes, Py_ssize_t size) {
        for (Py_ssize_t start = 0; start < size; start += 65536) {
            Py_ssize_t end = size - start < 65536 ? size : start + 65536;
            int64_t pairs = 0, triples = 0;
            ck_u128 log_in = 0, log_out = 0;
            for (Py_ssize_t k = start; k < end; k++) {
                uint64_t old = (uint64_t)olds[k], new_ = (uint64_t)(olds[k] + changes[k]);
                if (((old | new_) & ~(uint64_t)(CK_LOG_CACHE - 1)) != 0) {
                    ck_step(level, old, new_);
                    continue;
                }
                pairs += (int64_t)(new_ * (new_ - 1) / 2) - (int64_t)(old * (old - 1) / 2);
                triples += (int64_t)(new_ * (new_ - 1) * (new_ - 2) / 6)
                           - (int64_t)(old * (old - 1) * (old - 2) / 6);
                log_in += ck_log_cache[new_];
                log_out += ck_log_cache[old];
            }
            ck_u128 low = level->triples.low + (ck_u128)(__int128)triples;
            level->pairs += (ck_u128)(__int128)pairs;
            level->triples.high += (uint64_t)(triples >> 63) + (low < level->triples.low);
            level->triples.low = low;
            level->log += log_in - log_out;
        }
    }

    static PyObject *ck_int(ck_u128 x) {
        if (!(uint64_t)(x >> 64)) return PyLong_FromUnsignedLongLong((uint64_t)x);
        unsigned char bytes[16];
        for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(x >> (8 * i));
        return _PyLong_FromByteArray(bytes, 16, 1, 0);
    }

    static PyObject *ck_int192(ck_u192 x) {
        if (!x.high) return ck_int(x.low);
        unsigned char bytes[24];
        for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(x.low >> (8 * i));
        for (int i = 0; i < 8; i++) bytes[16 + i] = (unsigned char)(x.high >> (8 * i));
        return _PyLong_FromByteArray(bytes, 24, 1, 0);
    }

    static inline uint64_t ck_hash(uint64_t key, int bits) {
        return (key * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
    }

    /* A fine n ln n sum (units of 2**-128, below 2**197 while N is below 2**63), modulo
       2**256: four 64-bit words, least significant first. */
    typedef struct { uint64_t w[4]; } ck_u256;

    static inline void ck_add256(ck_u256 *s, const ck_u256 *x) {
        ck_u128 carry = 0;
        for (int i = 0; i < 4; i++) {
            carry += (ck_u128)s->w[i] + x->w[i];
            s->w[i] = (uint64_t)carry;
            carry >>= 64;
        }
    }

    static inline void ck_sub256(ck_u256 *s, const ck_u256 *x) {
        uint64_t borrow = 0;
        for (int i = 0; i < 4; i++) {
            uint64_t a = s->w[i], b = x->w[i];
            uint64_t d = a - b - borrow;
            borrow = (a < b) || (a == b && borrow) ? 1 : 0;
            s->w[i] = d;
        }
    }

    static PyObject *ck_int256(const ck_u256 *x) {
        unsigned char bytes[32];
        for (int i = 0; i < 32; i++) bytes[i] = (unsigned char)(x->w[i / 8] >> (8 * (i % 8)));
        return _PyLong_FromByteArray(bytes, 32, 1, 0);
    }

    /* Fine terms fine_n_log_n(n) for n below this, as the formulas computed them, once each. */
    #define CK_FINE_CACHE 65536
    static ck_u256 ck_fine_cache[CK_FINE_CACHE];
    static unsigned char ck_fine_known[CK_FINE_CACHE];

    /* Memory for a table of slots: 2 MiB-aligned and marked for transparent huge pages once it
       is that large, so that a batch's scattered writes into a large table miss the TLB less
       and take one page fault per 2 MiB instead of per 4 KiB. Released with free(). */
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static void *ck_slots_alloc(size_t bytes) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        const size_t huge = (size_t)1 << 21;
        if (bytes >= huge) {
            void *found = aligned_alloc(huge, (bytes + huge - 1) & ~(huge - 1));
            if (found) madvise(found, bytes, MADV_HUGEPAGE);
            return found;
        }
    #endif
        return malloc(bytes);                          /* elsewhere: as before */
    }

    /* Ask for a slot's cache line ahead of its use (a batch's look-ups miss the cache). */
    static inline void ck_prefetch(const void *address) {
    #if defined(__GNUC__)
        __builtin_prefetch(address, 1, 1);
    #endif
    }
    """
    const char *CONTINGENCY_KERNEL_SOURCE
    ctypedef struct ck_level:
        pass
    ctypedef struct ck_u256:
        uint64_t w[4]
    enum: CK_FINE_CACHE
    ck_u256 ck_fine_cache[]
    unsigned char ck_fine_known[]
    void ck_add256(ck_u256 *s, const ck_u256 *x) nogil
    void ck_sub256(ck_u256 *s, const ck_u256 *x) nogil
    object ck_int256(const ck_u256 *x)
    void ck_log_init()

cdef extern from *:
    """
    /* The scores read from the sums (contingency/_table.py's Table reads, written on the
       formulas, are the specification; tests/test_kernel.py compares after every step). */
    typedef __int128 ck_i128;

    static int ck_bits(ck_u128 x) {
        uint64_t high = (uint64_t)(x >> 64), low = (uint64_t)x;
        if (high) return 128 - __builtin_clzll(high);
        return low ? 64 - __builtin_clzll(low) : 0;
    }

    /* x as a double, within 2**-52 of it (not rounded once: an estimate). */
    static inline double ck_estimate(ck_u128 x) {
        return (double)(uint64_t)(x >> 64) * 18446744073709551616.0 + (double)(uint64_t)x;
    }

    /* 2**e, exactly, for -1022 <= e <= 1023 (a normal double built from its bits): a product
       with it is exact while the result stays normal, as ldexp's is, without the call. */
    static inline double ck_power2(int e) {
        uint64_t bits = (uint64_t)(1023 + e) << 52;
        double r;
        memcpy(&r, &bits, sizeof r);
        return r;
    }

    /* The leading 64 bits of x > 0 of `bits` bits (ck_bits), its top bit at 63: x truncated,
       or shifted up when shorter (then exact). */
    static inline uint64_t ck_top64(ck_u128 x, int bits) {
        return bits > 64 ? (uint64_t)(x >> (bits - 64)) : (uint64_t)x << (64 - bits);
    }

    /* num / den rounded once to the nearest double (ties to even): Python's int / int, for
       0 <= num < 2**126 and 0 < den < 2**126. The quotient q = floor(num 2**shift / den), of
       55 or 56 bits, and whether a remainder is left (sticky) decide the rounding. */
    static double ck_quotient(ck_u128 num, ck_u128 den) {
        const ck_u128 exact = (ck_u128)1 << 53;
        if (num == 0) return 0.0;
        if (num <= exact && den <= exact) return (double)(uint64_t)num / (double)(uint64_t)den;
        int num_bits = ck_bits(num), den_bits = ck_bits(den);
        int shift = 55 - (num_bits - den_bits);
        ck_u128 q;
        int sticky;
        if (shift < 0 || den < ((ck_u128)1 << 120)) {
            /* q estimated from the leading 64 bits a of num and b of den, floor(a 2**55 / b)
               (one 128-by-64-bit integer division): a and b are within 2**-63 of num and den
               relative, so num 2**shift / den lies within 2**-7 of a 2**55 / b and q is the
               estimate or one off it. Then corrected by exact remainders, taken modulo
               2**128: below 2 den < 2**127 in magnitude. */
            ck_u128 scaled_num = shift >= 0 ? num << shift : num;
            ck_u128 scaled_den = shift >= 0 ? den : den << -shift;
            uint64_t a = ck_top64(num, num_bits), b = ck_top64(den, den_bits);
            q = ((ck_u128)a << 55) / b;
            ck_i128 rem = (ck_i128)(scaled_num - q * scaled_den), divisor = (ck_i128)scaled_den;
            while (rem < 0) q--, rem += divisor;
            while (rem >= divisor) q++, rem -= divisor;
            sticky = rem != 0;
        } else {  /* long division, at least one bit a step */
            int room = 127 - ck_bits(den), left = shift;   /* r << room < 2**127 */
            ck_u128 r = num % den;
            q = num / den;
            while (left > 0) {
                int step = left < room ? left : room;
                r <<= step;
                q = (q << step) | (r / den);
                r %= den;
                left -= step;
            }
            sticky = r != 0;
        }
        int extra = ck_bits(q) - 53;                   /* 2 or 3 */
        uint64_t mantissa = (uint64_t)(q >> extra);
        uint64_t rest = (uint64_t)q & ((1ULL << extra) - 1), half = 1ULL << (extra - 1);
        if (rest > half || (rest == half && (sticky || (mantissa & 1)))) mantissa++;
        /* mantissa 2**(extra - shift) is num / den, between 2**-126 and 2**126: normal */
        return (double)mantissa * ck_power2(extra - shift);
    }

    /* MI, H(R) and H(M) times N 2**52, as formulas/partition/_information.py information gives them. */
    typedef struct { ck_i128 mutual, reference, model; } ck_info;

    /* information()'s O(1) route for two or more clusters a side: 1 (and the values) when the
       sums settle them, else 0. Every value is below 2**124 in magnitude. */
    static int ck_information(int64_t n, const ck_level *sums, ck_info *out) {
        /* N ln N: N is not a count stepping by one, so its term is computed (not kept among
           the last terms of ck_log_large, where it would push out a total's) */
        ck_i128 total = (ck_i128)(n < CK_LOG_CACHE ? ck_log_cache[n] : ck_log_compute((uint64_t)n));
        ck_i128 cells = (ck_i128)sums[0].log, rows = (ck_i128)sums[1].log;
        ck_i128 columns = (ck_i128)sums[2].log;
        ck_i128 reference = total - rows, model = total - columns, mutual;
        ck_i128 coarse = total >> 7;
        ck_u128 same = sums[0].pairs, same_reference = sums[1].pairs, same_model = sums[2].pairs;
        if (same != same_model && same != same_reference) {
            mutual = cells - rows - columns + total;
            if (coarse < mutual && mutual <= reference && mutual <= model) {
                out->mutual = mutual, out->reference = reference, out->model = model;
                return 1;
            }
        } else if (same == same_model) {
            mutual = reference;
        } else {
            mutual = model;
        }
        if (!((coarse < reference || ((total + rows) >> 8) < reference)
              && (coarse < model || ((total + columns) >> 8) < model)
              && ((coarse >> 1) < mutual || ((cells + rows + columns + total) >> 8) < mutual)))
            return 0;
        if (reference < 1) reference = 1;
        if (model < 1) model = 1;
        if (mutual > reference) mutual = reference;
        if (mutual > model) mutual = model;
        if (mutual < 0) mutual = 0;
        out->mutual = mutual, out->reference = reference, out->model = model;
        return 1;
    }

    /* The adjusted Rand index of exact pair sums (_pairs._adjusted_rand), for n below 2**31:
       every product below 2**123. */
    static double ck_adjusted_rand(uint64_t n, const ck_level *sums) {
        ck_u128 same = sums[0].pairs, rows = sums[1].pairs, columns = sums[2].pairs;
        if (same == rows && rows == columns) return 1.0;
        ck_u128 pairs = ck_pairs(n), product = rows * columns;
        ck_u128 denominator = pairs * (rows + columns) - 2 * product;
        ck_u128 joint = same * pairs;
        if (joint >= product) return ck_quotient(2 * (joint - product), denominator);
        return -ck_quotient(2 * (product - joint), denominator);
    }

    /* 256-bit words (ck_u256, least significant first), two's complement where signed. */
    static inline int ck_negative256(const ck_u256 *x) { return (int)(x->w[3] >> 63); }

    static inline int ck_bits256(const ck_u256 *x) {
        for (int i = 3; i >= 0; i--)
            if (x->w[i]) return 64 * i + 64 - __builtin_clzll(x->w[i]);
        return 0;
    }

    static inline int ck_less256(const ck_u256 *a, const ck_u256 *b) {   /* unsigned a < b */
        for (int i = 3; i >= 0; i--)
            if (a->w[i] != b->w[i]) return a->w[i] < b->w[i];
        return 0;
    }

    static inline ck_u256 ck_from128(ck_u128 x) {
        ck_u256 r = {{(uint64_t)x, (uint64_t)(x >> 64), 0, 0}};
        return r;
    }

    static ck_u256 ck_shl256(const ck_u256 *x, int shift) {       /* modulo 2**256 */
        ck_u256 r = {{0, 0, 0, 0}};
        int words = shift / 64, bits = shift % 64;
        for (int i = 3; i >= words; i--) {
            uint64_t part = x->w[i - words] << bits;
            if (bits && i - words - 1 >= 0) part |= x->w[i - words - 1] >> (64 - bits);
            r.w[i] = part;
        }
        return r;
    }

    static ck_u256 ck_mul256(const ck_u256 *x, uint64_t m) {        /* modulo 2**256 */
        ck_u256 r;
        ck_u128 carry = 0;
        for (int i = 0; i < 4; i++) {
            carry += (ck_u128)x->w[i] * m;
            r.w[i] = (uint64_t)carry;
            carry >>= 64;
        }
        return r;
    }

    /* x (below 2**250) as a double, within 2**-51 of it: an estimate. */
    static double ck_estimate256(const ck_u256 *x) {
        int drop = ck_bits256(x) - 128;
        if (drop <= 0) return ck_estimate((ck_u128)x->w[1] << 64 | x->w[0]);
        ck_u256 top = ck_shl256(x, 0);
        int words = drop / 64, bits = drop % 64;
        for (int i = 0; i < 4; i++) {                       /* top = x >> drop */
            uint64_t part = i + words < 4 ? top.w[i + words] >> bits : 0;
            if (bits && i + words + 1 < 4) part |= top.w[i + words + 1] << (64 - bits);
            top.w[i] = part;
        }
        return ldexp(ck_estimate((ck_u128)top.w[1] << 64 | top.w[0]), drop);
    }

    /* num / den rounded once to the nearest double, ties to even (Python's int / int), for
       0 <= num < 2**240 and 0 < den < 2**240: ck_quotient's estimate-and-correct route in
       256 bits (the remainder is below 47 den < 2**255 in magnitude). */
    static double ck_quotient256(const ck_u256 *num, const ck_u256 *den) {
        int num_bits = ck_bits256(num), den_bits = ck_bits256(den);
        if (num_bits == 0) return 0.0;
        if (num_bits <= 126 && den_bits <= 126)
            return ck_quotient((ck_u128)num->w[1] << 64 | num->w[0],
                               (ck_u128)den->w[1] << 64 | den->w[0]);
        int shift = 55 - (num_bits - den_bits);
        ck_u256 scaled_num = shift >= 0 ? ck_shl256(num, shift) : *num;
        ck_u256 scaled_den = shift >= 0 ? *den : ck_shl256(den, -shift);
        uint64_t q = (uint64_t)ldexp(ck_estimate256(num) / ck_estimate256(den), shift);
        ck_u256 rem = scaled_num, product = ck_mul256(&scaled_den, q);
        ck_sub256(&rem, &product);
        while (ck_negative256(&rem)) q--, ck_add256(&rem, &scaled_den);
        while (!ck_less256(&rem, &scaled_den)) q++, ck_sub256(&rem, &scaled_den);
        int sticky = ck_bits256(&rem) != 0;
        int extra = 64 - __builtin_clzll(q) - 53;           /* 2 or 3 */
        uint64_t mantissa = q >> extra;
        uint64_t rest = q & ((1ULL << extra) - 1), half = 1ULL << (extra - 1);
        if (rest > half || (rest == half && (sticky || (mantissa & 1)))) mantissa++;
        return ldexp((double)mantissa, extra - shift);
    }

    /* MI, H(R) and H(M) times N 2**128 from the fine sums, as _fine.fine_information gives
       them. */
    typedef struct { ck_u256 mutual, reference, model; } ck_fine_info;

    /* _fine.fine_information for two or more clusters a side: 1 (and the values) when the
       fine sums settle them, else 0. total is N fine_log(N); every value below 2**198. */
    static int ck_fine_information(int64_t n, const ck_u256 *total, const ck_u256 *fine,
                                   const ck_level *sums, ck_fine_info *out) {
        ck_u256 error = ck_from128(((ck_u128)48 * (uint64_t)n) << 45), twice;
        ck_u256 reference = *total, model = *total, mutual;
        ck_sub256(&reference, &fine[1]);
        if (ck_negative256(&reference) || !ck_less256(&error, &reference)) return 0;
        ck_sub256(&model, &fine[2]);
        if (ck_negative256(&model) || !ck_less256(&error, &model)) return 0;
        ck_u128 same = sums[0].pairs;
        if (same == sums[2].pairs) {
            mutual = reference;
        } else if (same == sums[1].pairs) {
            mutual = model;
        } else {
            mutual = fine[0];
            ck_sub256(&mutual, &fine[1]);
            ck_sub256(&mutual, &fine[2]);
            ck_add256(&mutual, total);
            twice = ck_shl256(&error, 1);
            if (ck_negative256(&mutual) || !ck_less256(&twice, &mutual)) return 0;
        }
        if (ck_less256(&reference, &mutual)) mutual = reference;
        if (ck_less256(&model, &mutual)) mutual = model;
        out->mutual = mutual, out->reference = reference, out->model = model;
        return 1;
    }

    /* ck_information_ratio of the fine values (the scale is N 2**128). */
    static double ck_fine_ratio(const ck_fine_info *info, int which, int64_t n) {
        ck_u256 numerator = info->mutual, denominator;
        if (which == 0) {
            numerator = ck_shl256(&info->mutual, 1);
            denominator = info->reference;
            ck_add256(&denominator, &info->model);
        } else if (which == 1) {
            denominator = info->reference;
        } else if (which == 2) {
            denominator = info->model;
        } else {
            ck_u256 count = ck_from128((ck_u128)(uint64_t)n);
            denominator = ck_shl256(&count, 128);
        }
        return ck_quotient256(&numerator, &denominator);
    }

    /* Fine terms of counts from CK_FINE_CACHE on, as the formulas computed them: the last
       one asked for at each of 256 places (by the count's low bits). */
    static ck_u256 ck_big_fine[256];
    static uint64_t ck_big_fine_count[256];

    /* A score of the values of ck_information, rounded once as the formulas round it: 0, NMI
       with the arithmetic mean and V-measure with beta 1 (the same ratio); 1, homogeneity;
       2, completeness; 3, MI in nats. */
    static double ck_information_ratio(const ck_info *info, int which, int64_t n) {
        ck_u128 mutual = (ck_u128)info->mutual;
        if (which == 0) {
            return mutual ? ck_quotient(2 * mutual, (ck_u128)(info->reference + info->model))
                          : 0.0;
        }
        if (which == 1) return ck_quotient(mutual, (ck_u128)info->reference);
        if (which == 2) return ck_quotient(mutual, (ck_u128)info->model);
        return ck_quotient(mutual, (ck_u128)n << 52);
    }

    /* classification._share in Perl mode (x / (x + y) as Statistics::Contingency computes it,
       1 / (1 + y / x), perl where x + y is 0), for exact counts with x + y below 2**53: each a
       double exactly, so that y / x is Python's int / int. */
    static double ck_share(uint64_t x, uint64_t y, double perl) {
        if (x + y == 0) return perl;
        if (x && y) return 1.0 / (1.0 + (double)y / (double)x);
        return y == 0 ? 1.0 : 0.0;
    }

    /* same_same, same_reference_only and same_model_only into out, for n below 2**31 (each
       below 2**61); 1 when 2 same_same + the other two (the largest total a pair score adds)
       is below 2**53, so that every count and total is a double exactly; else 0. */
    static int ck_pair_counts(uint64_t n, const ck_level *sums, uint64_t *out) {
        if (n >= (1ULL << 31)) return 0;
        uint64_t same = (uint64_t)sums[0].pairs;
        out[0] = same;
        out[1] = (uint64_t)sums[1].pairs - same;
        out[2] = (uint64_t)sums[2].pairs - same;
        return 2 * out[0] + out[1] + out[2] < (1ULL << 53);
    }

    /* a b as 256 bits, for a, b below 2**128. */
    static ck_u256 ck_mul128(ck_u128 a, ck_u128 b) {
        uint64_t a0 = (uint64_t)a, a1 = (uint64_t)(a >> 64);
        uint64_t b0 = (uint64_t)b, b1 = (uint64_t)(b >> 64);
        ck_u128 low = (ck_u128)a0 * b0, left = (ck_u128)a0 * b1, right = (ck_u128)a1 * b0;
        ck_u128 high = (ck_u128)a1 * b1;
        ck_u128 middle = (low >> 64) + (uint64_t)left + (uint64_t)right;  /* below 3 2**64 */
        ck_u128 upper = (middle >> 64) + (left >> 64) + (right >> 64) + (uint64_t)high;
        ck_u256 r = {{(uint64_t)low, (uint64_t)middle, (uint64_t)upper,
                      (uint64_t)((upper >> 64) + (high >> 64))}};
        return r;
    }

    /* formulas/partition/_significance.py's ari_significance, for 4 <= n < 2**22: the z-score
       and the one-sided p-value into out; 0 (nothing written) outside that range, where the
       formula in Python answers. With R, M the margins' pair sums, R3, M3 their triple sums,
       P = C(n, 2) and T = (n - 2)(n - 3): Var(S) = W / (P**2 T), and z**2 = (S P - R M)**2 T / W
       (the formula's (S P - R M)**2 D / (P**2 W) with D = P**2 T), rounded once. Below 2**22
       elements P < 2**43, R, M <= P, R3, M3 < 2**64, U = R**2 - R - 6 R3 < 2**86 (likewise V),
       and every term of W and of the numerator is below 2**217: exact in 256 bits, and in
       ck_quotient256's range. */
    static int ck_ari_significance(int64_t n, const ck_level *sums, double *out) {
        if (n < 4 || n >= (1LL << 22)) return 0;
        ck_u128 r = sums[1].pairs, m = sums[2].pairs, same = sums[0].pairs;
        ck_u128 r3 = sums[1].triples.low, m3 = sums[2].triples.low;
        uint64_t p = (uint64_t)ck_pairs((uint64_t)n), tail = (uint64_t)(n - 2) * (uint64_t)(n - 3);
        ck_u128 u = r * r - r - 6 * r3, v = m * m - m - 6 * m3, product = r * m;
        /* W = 2 U V P + 18 R3 M3 P (n - 3) + R M P T - (R M)**2 T */
        ck_u256 w = ck_mul128(u, v), term;
        w = ck_mul256(&w, 2 * p);
        term = ck_mul128(r3, m3);
        term = ck_mul256(&term, 18 * p);
        term = ck_mul256(&term, (uint64_t)(n - 3));
        ck_add256(&w, &term);
        term = ck_mul128(product, p);
        term = ck_mul256(&term, tail);
        ck_add256(&w, &term);
        term = ck_mul128(product, product);
        term = ck_mul256(&term, tail);
        ck_sub256(&w, &term);
        if (ck_bits256(&w) == 0) {                     /* S cannot vary: its own mean */
            out[0] = 0.0, out[1] = 1.0;
            return 1;
        }
        ck_u128 joint = same * p;
        int below = joint < product;
        ck_u128 deviation = below ? product - joint : joint - product;
        ck_u256 numerator = ck_mul128(deviation, deviation);
        numerator = ck_mul256(&numerator, tail);
        double z = sqrt(ck_quotient256(&numerator, &w));
        if (below) z = -z;
        out[0] = z;
        out[1] = 0.5 * erfc(z / sqrt(2.0));
        return 1;
    }

    /* The Rand index, float(a + d) / float(a + b + c + d) (classification's accuracy), for n
       below 2**31: both below 2**61. */
    static double ck_rand(uint64_t n, const ck_level *sums) {
        ck_u128 pairs = ck_pairs(n);
        if (!pairs) return 1.0;
        ck_u128 agree = pairs - sums[1].pairs - sums[2].pairs + 2 * sums[0].pairs;
        return (double)(uint64_t)agree / (double)(uint64_t)pairs;
    }
    """
    ctypedef struct ck_info:
        pass
    int ck_information(int64_t n, const ck_level *sums, ck_info *out) nogil
    double ck_information_ratio(const ck_info *info, int which, int64_t n) nogil
    double ck_adjusted_rand(uint64_t n, const ck_level *sums) nogil
    ctypedef struct ck_fine_info:
        pass
    int ck_fine_information(int64_t n, const ck_u256 *total, const ck_u256 *fine,
                            const ck_level *sums, ck_fine_info *out) nogil
    double ck_fine_ratio(const ck_fine_info *info, int which, int64_t n) nogil
    double ck_quotient256(const ck_u256 *num, const ck_u256 *den) nogil
    ck_u256 ck_big_fine[]
    uint64_t ck_big_fine_count[]
    double ck_rand(uint64_t n, const ck_level *sums) nogil
    int ck_ari_significance(int64_t n, const ck_level *sums, double *out) nogil
    double ck_share(uint64_t x, uint64_t y, double perl) nogil
    int ck_pair_counts(uint64_t n, const ck_level *sums, uint64_t *out) nogil

    void ck_step(ck_level *level, uint64_t old, uint64_t new_) nogil
    void ck_steps(ck_level *level, const int64_t *olds, const int64_t *changes, Py_ssize_t size) nogil
    uint64_t ck_hash(uint64_t key, int bits) nogil
    void ck_prefetch(const void *address) nogil
    void *ck_slots_alloc(size_t bytes) nogil
    PyObject *PyDict_GetItemWithError(object d, object key) except? NULL
    long long PyLong_AsLongLongAndOverflow(object value, int *overflow) except? -1

cdef extern from *:
    """
    static PyObject *ck_level_pairs(ck_level *l) { return ck_int(l->pairs); }

    /* An instance of a tuple subclass (TableSums) holding nine values, built as CPython's
       tuple_subtype_new builds one, without its intermediate tuple. */
    static PyObject *ck_tuple9(PyObject *type, PyObject *a, PyObject *b, PyObject *c,
                               PyObject *d, PyObject *e, PyObject *f, PyObject *g,
                               PyObject *h, PyObject *i) {
        PyTypeObject *t = (PyTypeObject *)type;
        PyObject *items[9] = {a, b, c, d, e, f, g, h, i};
        PyObject *result = t->tp_alloc(t, 9);
        if (result == NULL) return NULL;
        for (int k = 0; k < 9; k++) {
            Py_INCREF(items[k]);
            PyTuple_SET_ITEM(result, k, items[k]);
        }
        return result;
    }
    static PyObject *ck_level_triples(ck_level *l) { return ck_int192(l->triples); }
    static PyObject *ck_level_log(ck_level *l) { return ck_int(l->log); }
    """
    object ck_level_pairs(ck_level *l)
    object ck_level_triples(ck_level *l)
    object ck_level_log(ck_level *l)
    object ck_tuple9(object type, object a, object b, object c, object d, object e, object f,
                     object g, object h, object i)

ck_log_init()

#: The SHA-256 of the .pyx this module was compiled from (hatch_build.py passes it).
SOURCE_HASH = CONTINGENCY_KERNEL_SOURCE.decode("ascii")

cdef int64_t MAX_COUNT = 9223372036854775807
cdef uint64_t EMPTY = 0xFFFFFFFFFFFFFFFFULL
cdef uint32_t NARROW_EMPTY = 0xFFFFFFFFU
#: Codes stay below this, so that two make one 64-bit key.
cdef int64_t CODE_LIMIT = 0x7FFFFFFF
#: Below this N the pair scores are computed in C (every product of pair sums below 2**123).
cdef int64_t SMALL_N = 0x80000000
cdef double E = math.e


#: A slot of the hash table of cells: the key ``row << 32 | column`` (EMPTY if free) and its
#: count, side by side so that a look-up touches one cache line.
ctypedef struct Slot:
    uint64_t key
    int64_t count

#: A narrow slot, half the size, for a table whose keys and counts all fit it (KernelPairs while
#: every code is below 2**16 - 1 and every count below 2**32): the key ``row << 16 | column``
#: (NARROW_EMPTY if free) and its count.
ctypedef struct NarrowSlot:
    uint32_t key
    uint32_t count

#: Either layout: the functions of contingency/_kernel_slots.pxi serve both.
ctypedef fused AnySlot:
    Slot
    NarrowSlot

include "_kernel_slots.pxi"


#: The counts of a dense count, as :func:`dense_count` makes them (int32) or numpy's bincount (int64).
ctypedef fused dense_counts_t:
    int32_t
    int64_t


def label_ranges(const int64_t[::1] reference, const int64_t[::1] model):
    """``(min, max)`` of ``reference``, then of ``model`` (two int64 arrays of the same length,
    not empty), in one pass: what :func:`contingency._table.label_ranges_reference` gives."""
    cdef Py_ssize_t k, size = reference.shape[0]
    cdef int64_t low_r = reference[0], high_r = reference[0], low_m = model[0], high_m = model[0]
    cdef int64_t r, m
    for k in range(size):
        r, m = reference[k], model[k]
        low_r, high_r = min(low_r, r), max(high_r, r)
        low_m, high_m = min(low_m, m), max(high_m, m)
    return (low_r, high_r), (low_m, high_m)


def dense_count(const int64_t[::1] reference, const int64_t[::1] model, int64_t low_r,
                int64_t low_m, Py_ssize_t height, Py_ssize_t width):
    """The dense count of two int64 label arrays in one pass, what
    :func:`contingency._table.dense_count_reference` gives: ``table[(r - low_r) * width + (m -
    low_m)]`` counted in int32 (the caller passes fewer than 2**31 labels, within the ranges), and
    the row and column totals (int64).

    Half the memory of numpy's int64 bincount, and no array of keys made first: a table as
    large as the data is written at random places, and memory new to the process costs a page
    fault for every page first touched.
    """
    table_array = np.zeros(height * width, dtype=np.int32)
    row_totals_array = np.zeros(height, dtype=np.int64)
    column_totals_array = np.zeros(width, dtype=np.int64)
    cdef int32_t[::1] table = table_array
    cdef int64_t[::1] row_totals = row_totals_array, column_totals = column_totals_array
    cdef Py_ssize_t k, row, column, size = reference.shape[0]
    with nogil:
        for k in range(size):
            row, column = <Py_ssize_t>(reference[k] - low_r), <Py_ssize_t>(model[k] - low_m)
            table[row * width + column] += 1
            row_totals[row] += 1
            column_totals[column] += 1
    return table_array, row_totals_array, column_totals_array


cdef inline Py_ssize_t _dense_stretch(const dense_counts_t[::1] counts, Py_ssize_t start,
                                      Py_ssize_t end, Py_ssize_t width,
                                      const int64_t[::1] row_map, const int64_t[::1] column_map,
                                      Py_ssize_t *row, Py_ssize_t *column, uint64_t *keys,
                                      int64_t *values) noexcept nogil:
    """The non-zero entries of ``counts[start:end]`` (a dense count, at ``row``, ``column``,
    both moved on) as keys and values, gathered without a branch (zero or not at random, a
    branch on each mispredicted about half the time); returns how many."""
    cdef Py_ssize_t k, found = 0
    for k in range(start, end):
        keys[found] = <uint64_t>row_map[row[0]] << 32 | <uint64_t>column_map[column[0]]
        values[found] = counts[k]
        found += counts[k] != 0
        column[0] += 1
        if column[0] == width:
            row[0], column[0] = row[0] + 1, 0
    return found


cdef enum:
    CELLS = 0
    ROWS = 1
    COLUMNS = 2


cdef class _Side:
    """One side's labels: label -> code (a dict), code -> label (a list, None in a hole), totals."""

    cdef dict index
    cdef list labels
    cdef int64_t *totals
    cdef Py_ssize_t capacity
    cdef Py_ssize_t alive
    # Once the table keeps them (KernelTable.maxima_sum): each code's largest cell (capacity
    # entries, as totals), their sum, and whether a largest cell shrank since they were made
    # (then made again from the cells by the next read); NULL before.
    cdef int64_t *maxima
    cdef int64_t maxima_sum
    cdef bint maxima_stale

    def __cinit__(self):
        self.index = {}
        self.labels = []
        self.capacity = 16
        self.totals = <int64_t *>calloc(self.capacity, sizeof(int64_t))
        if self.totals is NULL:
            raise MemoryError()
        self.alive = 0

    def __dealloc__(self):
        free(self.totals)
        free(self.maxima)

    cdef int64_t code_of(self, object label) except -2:
        """The label's code, or -1 when it is not in the table (TypeError when unhashable)."""
        cdef PyObject *found = PyDict_GetItemWithError(self.index, label)
        if found is NULL:
            return -1
        return <int64_t>(<object>found)

    cdef int64_t add(self, object label) except -1:
        """Give a new label the next code."""
        cdef Py_ssize_t code = len(self.labels)
        cdef int64_t *grown
        if code >= CODE_LIMIT:
            raise OverflowError("contingency's kernel holds at most 2**31 - 1 labels per side")
        if code >= self.capacity:
            grown = <int64_t *>realloc(self.totals, 2 * self.capacity * sizeof(int64_t))
            if grown is NULL:
                raise MemoryError()
            self.totals = grown
            if self.maxima is not NULL:
                grown = <int64_t *>realloc(self.maxima, 2 * self.capacity * sizeof(int64_t))
                if grown is NULL:
                    raise MemoryError()
                self.maxima = grown
            self.capacity *= 2
        self.totals[code] = 0
        if self.maxima is not NULL:
            self.maxima[code] = 0
        self.labels.append(label)
        self.index[label] = code
        self.alive += 1
        return code

    cdef void forget(self, int64_t code):
        label = self.labels[code]
        del self.index[label]
        self.labels[code] = None
        self.alive -= 1

    cdef _Side copy(self):
        cdef _Side other = _Side.__new__(_Side)
        cdef int64_t *totals = <int64_t *>malloc(self.capacity * sizeof(int64_t))
        if totals is NULL:
            raise MemoryError()
        memcpy(totals, self.totals, len(self.labels) * sizeof(int64_t))
        free(other.totals)
        other.totals, other.capacity = totals, self.capacity
        other.index, other.labels, other.alive = dict(self.index), list(self.labels), self.alive
        return other

    cdef object renumbered(self):
        """Close the holes, keeping the order: the old code -> new code array (-1 for a hole)."""
        cdef Py_ssize_t size = len(self.labels), old, new = 0
        codes = np.full(size, -1, dtype=np.int64)
        cdef int64_t[::1] view = codes
        labels = []
        for old in range(size):
            label = self.labels[old]
            if label is None:  # a hole (None is never a label)
                continue
            view[old] = new
            self.totals[new] = self.totals[old]
            if self.maxima is not NULL:
                self.maxima[new] = self.maxima[old]
            self.index[label] = new
            labels.append(label)
            new += 1
        self.labels = labels
        return codes

    cdef object alive_codes(self):
        """The codes in use, in order."""
        cdef Py_ssize_t size = len(self.labels), code
        found = np.empty(self.alive, dtype=np.int64)
        cdef int64_t[::1] view = found
        cdef Py_ssize_t at = 0
        for code in range(size):
            if self.totals[code] != 0:
                view[at] = code
                at += 1
        return found

    cdef object totals_array(self):
        """The totals in use, in code order."""
        found = np.empty(self.alive, dtype=np.int64)
        cdef int64_t[::1] view = found
        cdef Py_ssize_t size = len(self.labels), code, at = 0
        for code in range(size):
            if self.totals[code] != 0:
                view[at] = self.totals[code]
                at += 1
        return found


cdef inline void _move_maximum(_Side side, int64_t code, int64_t old, int64_t new) noexcept:
    """One row's (column's) largest cell as one of its cells goes from ``old`` to ``new``."""
    if new > side.maxima[code]:
        side.maxima_sum += new - side.maxima[code]
        side.maxima[code] = new
    elif new < old and old == side.maxima[code]:
        side.maxima_stale = True


# The reads KernelTable._score computes in C, by number (pair-counting reads first).
cdef enum:
    READ_ARI, READ_RAND, READ_PRECISION, READ_RECALL, READ_F1, READ_JACCARD,
    READ_FOWLKES_MALLOWS, READ_NMI, READ_V, READ_HOMOGENEITY, READ_COMPLETENESS, READ_MI,
    READ_PURITY, READ_INVERSE_PURITY

cdef str _ARITHMETIC = "arithmetic"


@cython.auto_pickle(False)  # pickled as its cells: contingency._table.Table.__reduce__
cdef class KernelTable:
    """A reference-by-model table with its running sums, in C (see the module docstring)."""

    cdef _Side _rows, _columns
    cdef Slot *_slots
    cdef int _bits
    cdef Py_ssize_t _used
    cdef ck_level _sums[3]
    cdef readonly int64_t n_elements
    cdef bint _keep_fine  # whether the fine sums below are kept
    cdef ck_u256 _fine[3]  # sum fine_n_log_n(n) per level, modulo 2**256
    cdef uint64_t _changes  # changes so far: the key of the memo below
    cdef uint64_t _info_at  # the value of _changes the memo was taken at (EMPTY: none)
    cdef int _route  # then: 1 if the sums settled the information scores, 2 if the fine sums
    cdef ck_info _info  # did (route 1 and 2 of formulas/partition/_information.py), 0 if neither
    cdef ck_fine_info _fine_info  # the values of route 1, of route 2
    cdef uint64_t _ratio_at  # the value of _changes _ratio was read at (EMPTY: none)
    cdef object _ratio  # then: NMI (arithmetic mean) = V-measure (beta 1), the float read

    def __cinit__(self):
        self._rows, self._columns = _Side(), _Side()
        self._bits = 4
        self._allocate(self._bits)
        self._used = 0
        self.n_elements = 0
        self._keep_fine = False
        self._changes = 0
        self._info_at = self._ratio_at = EMPTY

    def __dealloc__(self):
        free(self._slots)

    cdef int _allocate(self, int bits) except -1:
        self._slots = slots_new(bits)
        return 0

    # The hash table of cells (contingency/_kernel_slots.pxi) ------------------------------------

    cdef inline Py_ssize_t _slot(self, uint64_t key) noexcept nogil:
        """The slot holding ``key``, or the empty slot where it would go."""
        return slots_find(self._slots, self._bits, key)

    cdef int _resize(self, int bits) except -1:
        """Move the cells to a table of ``2**bits`` slots."""
        self._slots = slots_moved(self._slots, self._bits, bits)
        self._bits = bits
        return 0

    cdef int _reserve(self, Py_ssize_t more) except -1:
        """Room for ``more`` cells beyond those held (:func:`slots_full`)."""
        cdef int bits = slots_bits_for(self._bits, self._used + more)
        if bits != self._bits:
            self._resize(bits)
        return 0

    cdef void _delete(self, Py_ssize_t at) noexcept nogil:
        """Empty a slot, shifting back the entries that probed past it."""
        slots_delete(self._slots, self._bits, at)
        self._used -= 1

    cdef int64_t _count(self, int64_t row, int64_t column) noexcept nogil:
        cdef Py_ssize_t at
        if row < 0 or column < 0:
            return 0
        at = self._slot(<uint64_t>row << 32 | <uint64_t>column)
        return 0 if self._slots[at].key == EMPTY else self._slots[at].count

    # Changes -----------------------------------------------------------------------------

    def step(self, reference, model, weight):
        """``weight`` elements labelled ``reference`` and ``model`` (negative: taken back)."""
        cdef int overflow = 0
        cdef int64_t w = PyLong_AsLongLongAndOverflow(weight, &overflow), row, column, n, a, b
        if overflow:
            return self._step_huge(reference, model, weight)
        if w > 0 and w > MAX_COUNT - self.n_elements:
            check_room(self.n_elements, weight, "elements")
        try:
            row = self._rows.code_of(reference)
            column = self._columns.code_of(model)
        except TypeError:
            check_pair(reference, model)  # names the unhashable label
            raise
        if row < 0 or column < 0:
            check_pair(reference, model)
        n = self._count(row, column)
        if n + w < 0:
            raise ValueError(f"remove: no element with reference {reference!r} and model "
                             f"{model!r} to remove")
        if w == 0:
            return
        if row < 0:
            row = self._rows.add(reference)
        if column < 0:
            column = self._columns.add(model)
        a, b = self._rows.totals[row], self._columns.totals[column]
        self._change_cell(row, column, w)
        self._change_total(self._rows, ROWS, row, w)
        self._change_total(self._columns, COLUMNS, column, w)
        self.n_elements += w
        self._changes += 1
        if self._keep_fine:
            self._fine_step(CELLS, n, n + w)
            self._fine_step(ROWS, a, a + w)
            self._fine_step(COLUMNS, b, b + w)
        if a + w == 0 or b + w == 0:
            self._renumber_if_sparse()

    cdef int _fine_step(self, int level, int64_t old, int64_t new) except -1:
        """A level's fine sum as one of its counts goes from ``old`` to ``new``."""
        cdef ck_u256 term
        _fine_term(<uint64_t>new, &term)
        ck_add256(&self._fine[level], &term)
        _fine_term(<uint64_t>old, &term)
        ck_sub256(&self._fine[level], &term)
        return 0

    def _step_huge(self, reference, model, weight):
        """A weight past int64: refused, with the message the reference gives."""
        if weight > 0:
            check_room(self.n_elements, weight, "elements")
        check_pair(reference, model)
        raise ValueError(f"remove: no element with reference {reference!r} and model "
                         f"{model!r} to remove")

    cdef int _change_cell(self, int64_t row, int64_t column, int64_t w) except -1:
        """A cell gains ``w`` (checked: it stays >= 0): its count and the cells' sums."""
        return self._change_key(<uint64_t>row << 32 | <uint64_t>column, w)

    @cython.final
    cdef inline int _change_key(self, uint64_t key, int64_t w) except -1:
        """The cell of ``key`` gains ``w`` (checked: it stays >= 0): :meth:`_change_keys` of one."""
        cdef int64_t old
        return self._change_keys(&key, &w, &old, 1)

    @cython.final
    cdef int _change_keys(self, const uint64_t *keys, const int64_t *changes, int64_t *olds,
                          Py_ssize_t size) except -1:
        """The cell of each ``keys[k]`` gains ``changes[k]`` (checked: each stays >= 0), in order:
        the one write of cells, one or a batch's stretch.

        Each count is written first (its slot found, taken or emptied; the slot of the key
        SLOTS_AHEAD further on asked for meanwhile), its old value kept in ``olds`` (room for
        ``size``); then the cells' sums move by each old and new count, in a loop of their own.
        (Kept apart, a batch's cache misses at random slots overlap: the sums' arithmetic between
        the writes held fewer of them in flight, and cost a third of a dense batch's writes.)
        """
        cdef Py_ssize_t k, at
        cdef int64_t old, new
        cdef uint64_t key
        for k in range(size):
            if k + SLOTS_AHEAD < size:
                slots_prefetch(self._slots, self._bits, keys[k + SLOTS_AHEAD])
            key = keys[k]
            at = self._slot(key)
            old = 0
            if self._slots[at].key == EMPTY:
                if slots_full(self._bits, self._used + 1):
                    try:
                        self._reserve(1)
                    except BaseException:
                        self._move_cell_sums(changes, olds, k)  # (the counts written so far)
                        if self._rows.maxima is not NULL:
                            self._move_maxima(keys, changes, olds, k)
                        raise
                    at = self._slot(key)
                self._slots[at].key, self._slots[at].count = key, 0
                self._used += 1
            else:
                old = self._slots[at].count
            new = old + changes[k]
            if new == 0:
                self._delete(at)
            else:
                self._slots[at].count = new
            olds[k] = old
        self._move_cell_sums(changes, olds, size)
        if self._rows.maxima is not NULL:
            self._move_maxima(keys, changes, olds, size)
        return 0

    cdef void _move_maxima(self, const uint64_t *keys, const int64_t *changes,
                           const int64_t *olds, Py_ssize_t size) noexcept:
        """Each row's and column's largest cell as ``size`` cells go from ``olds[k]`` to
        ``olds[k] + changes[k]``: a cell that grows past its row's largest is the new largest;
        one that shrinks from it leaves the side's maxima stale (made again by the next read)."""
        cdef Py_ssize_t k
        cdef int64_t old
        for k in range(size):
            old = olds[k]
            _move_maximum(self._rows, <int64_t>(keys[k] >> 32), old, old + changes[k])
            _move_maximum(self._columns, <int64_t>(keys[k] & 0xFFFFFFFF), old, old + changes[k])

    @cython.final
    cdef inline void _move_cell_sums(self, const int64_t *changes, const int64_t *olds,
                                     Py_ssize_t size) noexcept:
        """The cells' sums as ``size`` counts go from ``olds[k]`` to ``olds[k] + changes[k]``."""
        if size == 1:  # (one cell, as an element added: the step itself, no loop around it)
            ck_step(&self._sums[CELLS], <uint64_t>olds[0], <uint64_t>(olds[0] + changes[0]))
        else:
            ck_steps(&self._sums[CELLS], olds, changes, size)

    cdef int _change_total(self, _Side side, int level, int64_t code, int64_t w) except -1:
        """A row or column gains ``w`` (checked): its total and its level's sums; 0 forgets it."""
        cdef int64_t old = side.totals[code], new = old + w
        ck_step(&self._sums[level], <uint64_t>old, <uint64_t>new)
        side.totals[code] = new
        if new == 0:
            side.forget(code)
        return 0

    cdef int _renumber_if_sparse(self) except -1:
        """Close the holes forgotten labels left once they are most codes of a side (at least 1024).

        In order, so the codes keep the labels' arrival order; the cells are re-keyed.
        Called when a change is complete, never while one holds codes.
        """
        cdef _Side side
        for side in (self._rows, self._columns):
            if len(side.labels) > 1024 and 2 * side.alive < len(side.labels):
                break
        else:
            return 0
        rows = self._rows.renumbered()
        columns = self._columns.renumbered()
        cdef int64_t[::1] row_code = rows, column_code = columns
        cdef Slot *slots = self._slots
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i, at, row, column
        cdef uint64_t key
        self._allocate(self._bits)
        for i in range(size):
            if slots[i].key != EMPTY:
                row = <Py_ssize_t>(slots[i].key >> 32)
                column = <Py_ssize_t>(slots[i].key & 0xFFFFFFFF)
                key = <uint64_t>row_code[row] << 32 | <uint64_t>column_code[column]
                at = self._slot(key)
                self._slots[at].key, self._slots[at].count = key, slots[i].count
        free(slots)
        return 0

    def apply(self, cells, where):
        """A batch of cells (counts all of one sign), refused whole if any part of it would fail."""
        total = cells.total()
        check_room(self.n_elements, total, "elements")
        dense = None if self._keep_fine else cells.dense_count()
        if dense is not None:
            self._apply_dense(cells, dense[0], dense[1], total)
            return
        if cells.counts.dtype == object and not _fits_int64(cells.counts):
            self._refuse_huge_removal(cells, where)
        row_labels, column_labels = cells.row_labels, cells.column_labels
        rows_array = np.ascontiguousarray(cells.rows, dtype=np.int64)
        columns_array = np.ascontiguousarray(cells.columns, dtype=np.int64)
        counts_array = np.ascontiguousarray(cells.counts, dtype=np.int64)
        cdef int64_t[::1] rows = rows_array, columns = columns_array, counts = counts_array
        row_map_array = np.array([self._rows.index.get(label, -1) for label in row_labels],
                                 dtype=np.int64)
        column_map_array = np.array([self._columns.index.get(label, -1)
                                     for label in column_labels], dtype=np.int64)
        cdef int64_t[::1] row_map = row_map_array, column_map = column_map_array
        cdef Py_ssize_t size = counts.shape[0], k
        cdef int64_t have
        cdef bint removal = False
        for k in range(size):
            if counts[k] < 0:
                removal = True
                have = self._count(row_map[rows[k]], column_map[columns[k]])
                if have + counts[k] < 0:
                    raise ValueError(
                        f"{where}: cannot remove {-counts[k]} element(s) with reference "
                        f"{row_labels[rows[k]]!r} and model {column_labels[columns[k]]!r}: "
                        f"there are {have}")
        cdef ck_u256 change
        before = None
        if self._keep_fine:
            before = self._fine_levels(row_map_array, column_map_array, rows_array,
                                       columns_array)
        # New labels join in the order of the batch's label lists (those a cell uses).
        row_used = np.zeros(len(row_labels), dtype=np.int8)
        column_used = np.zeros(len(column_labels), dtype=np.int8)
        cdef signed char[::1] row_new = row_used, column_new = column_used
        for k in range(size):  # one pass in C (numpy's masks and fancy indexing took three)
            if counts[k] != 0:
                row_new[rows[k]] = 1
                column_new[columns[k]] = 1
        for k in range(row_map.shape[0]):
            if row_map[k] < 0 and row_new[k]:
                row_map[k] = self._rows.add(row_labels[k])
        for k in range(column_map.shape[0]):
            if column_map[k] < 0 and column_new[k]:
                column_map[k] = self._columns.add(column_labels[k])
        if not removal:
            self._reserve(size)  # one resize for the batch, not a doubling every so often
        row_change_array = np.zeros(len(row_labels), dtype=np.int64)
        column_change_array = np.zeros(len(column_labels), dtype=np.int64)
        cdef int64_t[::1] row_change = row_change_array, column_change = column_change_array
        cdef Py_ssize_t ahead
        for k in range(size):
            ahead = k + SLOTS_AHEAD  # the slot of a later cell, asked for while this one is written
            if ahead < size and counts[ahead] != 0:
                slots_prefetch(self._slots, self._bits, <uint64_t>row_map[rows[ahead]] << 32
                               | <uint64_t>column_map[columns[ahead]])
            if counts[k] == 0:
                continue
            self._change_key(<uint64_t>row_map[rows[k]] << 32 | <uint64_t>column_map[columns[k]],
                             counts[k])
            row_change[rows[k]] += counts[k]
            column_change[columns[k]] += counts[k]
        self._move_totals(row_change, column_change, row_map, column_map, total)
        if removal:
            self._renumber_if_sparse()
        if self._keep_fine:
            after = self._fine_levels(
                np.array([self._rows.index.get(label, -1) for label in row_labels], dtype=np.int64),
                np.array([self._columns.index.get(label, -1) for label in column_labels],
                         dtype=np.int64), rows_array, columns_array)
            for level in range(3):
                _set_256(&change, fine_n_log_n_sum(after[level]) - fine_n_log_n_sum(before[level]))
                ck_add256(&self._fine[level], &change)

    cdef int _move_totals(self, const int64_t[::1] row_change, const int64_t[::1] column_change,
                          const int64_t[::1] row_map, const int64_t[::1] column_map,
                          object total) except -1:
        """A batch's end: the totals of the rows and columns it changed (``row_change[i]`` for its
        row label ``i``, whose code is ``row_map[i]``), each moved once (their sums telescope),
        and N."""
        cdef Py_ssize_t k
        for k in range(row_change.shape[0]):
            if row_change[k]:
                self._change_total(self._rows, ROWS, row_map[k], row_change[k])
        for k in range(column_change.shape[0]):
            if column_change[k]:
                self._change_total(self._columns, COLUMNS, column_map[k], column_change[k])
        self.n_elements += int(total)
        self._changes += 1
        return 0

    cdef int _apply_dense(self, cells, object table, Py_ssize_t width, object total) except -1:
        """:meth:`apply` of the cells of a dense count (:meth:`Cells.from_table
        <contingency._table.Cells.from_table>`: every label has a cell, no count is negative;
        int32 as :func:`dense_count` makes it, or int64), read a stretch at a time: its non-zero
        entries gathered (:func:`_dense_stretch`), then written by the one write of cells
        (:meth:`_change_keys`), which asks for the slot SLOTS_AHEAD cells further on meanwhile."""
        cdef const int32_t[::1] counts32
        cdef const int64_t[::1] counts64
        cdef bint narrow = table.dtype == np.int32
        if narrow:
            counts32 = table
        else:
            counts64 = table
        row_labels, column_labels = cells.row_labels, cells.column_labels
        row_map_array = np.array([self._rows.index.get(label, -1) for label in row_labels],
                                 dtype=np.int64)
        column_map_array = np.array([self._columns.index.get(label, -1)
                                     for label in column_labels], dtype=np.int64)
        cdef int64_t[::1] row_map = row_map_array, column_map = column_map_array
        cdef Py_ssize_t k, start, end, found, size = len(table), row = 0, column = 0
        for k in range(row_map.shape[0]):  # new labels join in the order of the label lists
            if row_map[k] < 0:
                row_map[k] = self._rows.add(row_labels[k])
        for k in range(column_map.shape[0]):
            if column_map[k] < 0:
                column_map[k] = self._columns.add(column_labels[k])
        self._reserve(len(cells))  # one resize for the batch
        cdef uint64_t keys[DENSE_STRETCH]
        cdef int64_t values[DENSE_STRETCH]
        cdef int64_t olds[DENSE_STRETCH]
        for start in range(0, size, DENSE_STRETCH):
            end = min(start + DENSE_STRETCH, size)
            if narrow:
                found = _dense_stretch(counts32, start, end, width, row_map, column_map, &row,
                                       &column, keys, values)
            else:
                found = _dense_stretch(counts64, start, end, width, row_map, column_map, &row,
                                       &column, keys, values)
            for k in range(min(found, SLOTS_AHEAD)):
                slots_prefetch(self._slots, self._bits, keys[k])
            self._change_keys(keys, values, olds, found)  # (asks for the later slots itself)
        self._move_totals(np.ascontiguousarray(cells.row_totals, dtype=np.int64),
                          np.ascontiguousarray(cells.column_totals, dtype=np.int64), row_map,
                          column_map, total)
        return 0

    cdef object _fine_levels(self, row_map, column_map, rows, columns):
        """The counts a batch touches, per level (cells, rows, columns), as they stand."""
        cdef int64_t[::1] rmap = row_map, cmap = column_map, r = rows, c = columns
        cdef Py_ssize_t k
        cells = [self._count(rmap[r[k]], cmap[c[k]]) for k in range(r.shape[0])]
        totals_r = [self._rows.totals[rmap[k]] if rmap[k] >= 0 else 0 for k in range(rmap.shape[0])]
        totals_c = [self._columns.totals[cmap[k]] if cmap[k] >= 0 else 0
                    for k in range(cmap.shape[0])]
        return cells, totals_r, totals_c

    def _refuse_huge_removal(self, cells, where):
        """A batch count past int64 can only be a removal, and is refused: the reference's message."""
        for reference, model, count in cells.triples():
            row, column = self._rows.index.get(reference, -1), self._columns.index.get(model, -1)
            have = self._count(row, column)
            if have + count < 0:
                raise ValueError(f"{where}: cannot remove {-count} element(s) with reference "
                                 f"{reference!r} and model {model!r}: there are {have}")

    def maxima_sum(self, axis):
        """The sum of the largest cell of each column (``axis=0``) or row (``axis=1``): kept by
        the writes from the first read on (made then from the cells, and again by the read
        after a largest cell shrank)."""
        cdef _Side side = self._columns if axis == 0 else self._rows
        if side.maxima is NULL:
            for made in (self._rows, self._columns):
                (<_Side>made).maxima = <int64_t *>calloc((<_Side>made).capacity, sizeof(int64_t))
                if (<_Side>made).maxima is NULL:
                    raise MemoryError()
                (<_Side>made).maxima_stale = True
        if side.maxima_stale:
            self._make_maxima(side, axis == 0)
        return side.maxima_sum

    cdef int _make_maxima(self, _Side side, bint columns) except -1:
        """One side's maxima and their sum from the cells (O(cells))."""
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i
        cdef int64_t code, count
        memset(side.maxima, 0, side.capacity * sizeof(int64_t))
        side.maxima_sum = 0
        for i in range(size):
            if self._slots[i].key == EMPTY:
                continue
            code = <int64_t>(self._slots[i].key & 0xFFFFFFFF if columns
                             else self._slots[i].key >> 32)
            count = self._slots[i].count
            if count > side.maxima[code]:
                side.maxima_sum += count - side.maxima[code]
                side.maxima[code] = count
        side.maxima_stale = False
        return 0

    def keep_fine_sums(self):
        """From now on keep the fine ``n ln n`` sums too (computed here from the counts)."""
        if not self._keep_fine:
            cells = self.cells()
            _set_256(&self._fine[CELLS], fine_n_log_n_sum(cells.counts))
            _set_256(&self._fine[ROWS], fine_n_log_n_sum(self.row_totals()))
            _set_256(&self._fine[COLUMNS], fine_n_log_n_sum(self.column_totals()))
            self._keep_fine = True
            self._info_at = self._ratio_at = EMPTY  # the fine sums may settle what the sums did not

    def copy(self):
        """An independent table with the same counts and sums."""
        cdef KernelTable other = type(self)()
        free(other._slots)
        other._slots = NULL
        other._bits = self._bits
        other._slots = slots_copy(self._slots, self._bits)
        other._used = self._used
        other._rows, other._columns = self._rows.copy(), self._columns.copy()
        memcpy(other._sums, self._sums, sizeof(self._sums))
        other.n_elements = self.n_elements
        other._keep_fine = self._keep_fine
        memcpy(other._fine, self._fine, sizeof(self._fine))
        return other

    # Reads -------------------------------------------------------------------------------

    @property
    def n_rows(self):
        """Non-empty rows (reference clusters)."""
        return self._rows.alive

    @property
    def n_columns(self):
        """Non-empty columns (model clusters)."""
        return self._columns.alive

    def n_cells(self):
        """Non-empty cells."""
        return self._used

    def n_slots(self):
        """The slots of the cells' hash table (a power of two; the tests check its growth)."""
        return (<Py_ssize_t>1) << self._bits

    # Scores from the sums (contingency._table.Table's reads of the same names, which are
    # their specification and serve every case the C below does not) ----------------------

    @cython.final
    cdef int _settled(self) except -1:
        """How the information scores are settled in C: 1 from the sums (values in ``_info``), 2
        from the fine sums (in ``_fine_info``), 0 not (fewer than two clusters on a side, or
        the bounds not met); memoised per state."""
        cdef ck_u256 total
        if self._info_at != self._changes:
            self._route = 0
            if self._rows.alive > 1 and self._columns.alive > 1:
                if ck_information(self.n_elements, self._sums, &self._info):
                    self._route = 1
                elif self._keep_fine:
                    _fine_term(<uint64_t>self.n_elements, &total)
                    if ck_fine_information(self.n_elements, &total, self._fine, self._sums,
                                           &self._fine_info):
                        self._route = 2
            self._info_at = self._changes
        return self._route

    @cython.final
    cdef object _information_score(self, int which):
        """Score ``which`` of ck_information_ratio where C settles it, else None (ratio 0, read
        as NMI and as V-measure, memoised per state: the same float object)."""
        if which == 0 and self._ratio_at == self._changes:
            return self._ratio
        cdef int route = self._settled()
        if which == 0 and route != 0:
            self._ratio = (ck_information_ratio(&self._info, 0, self.n_elements) if route == 1
                           else ck_fine_ratio(&self._fine_info, 0, self.n_elements))
            self._ratio_at = self._changes
            return self._ratio
        if route == 1:
            return ck_information_ratio(&self._info, which, self.n_elements)
        if route == 2:
            return ck_fine_ratio(&self._fine_info, which, self.n_elements)
        return None

    @cython.final
    cdef object _score(self, int which, object arg):
        """Read ``which`` (a READ_* constant; ``arg`` its argument) where C settles it, else None.

        The one place the C reads are dispatched: the table's methods below and the compiled
        reads of PartitionComparison (:func:`compiled_partition_reads`) call it."""
        cdef uint64_t c[3]
        cdef int route
        cdef _Side side
        if which >= READ_PURITY:  # majority_share of the side's maxima, once kept and current
            side = self._columns if which == READ_PURITY else self._rows
            # (both counts below 2**53: exact as doubles, so their quotient is Python's)
            if side.maxima is NULL or side.maxima_stale or self.n_elements >= (<int64_t>1) << 53:
                return None
            if self.n_elements == 0:
                return 1.0
            return <double>side.maxima_sum / <double>self.n_elements
        if which == READ_ARI:
            if self.n_elements < SMALL_N:
                return ck_adjusted_rand(<uint64_t>self.n_elements, self._sums)
            return None
        if which == READ_RAND:
            if self.n_elements < SMALL_N:
                return ck_rand(<uint64_t>self.n_elements, self._sums)
            return None
        if which <= READ_FOWLKES_MALLOWS:
            if not ck_pair_counts(<uint64_t>self.n_elements, self._sums, c):
                return None
            if which == READ_PRECISION:
                return ck_share(c[0], c[2], 0.0 if c[1] else 1.0)
            if which == READ_RECALL:
                return ck_share(c[0], c[1], 0.0 if c[2] else 1.0)
            if which == READ_F1:
                return ck_share(2 * c[0], c[1] + c[2], 1.0)
            if which == READ_JACCARD:
                if c[0] + c[1] + c[2] == 0:
                    return 1.0
                return <double>c[0] / <double>(c[0] + c[1] + c[2])
            return (sqrt(ck_share(c[0], c[2], 0.0 if c[1] else 1.0))
                    * sqrt(ck_share(c[0], c[1], 0.0 if c[2] else 1.0)))
        # The information reads: one ratio of ck_information's values (memoised per state).
        if which == READ_NMI:
            if not (arg is _ARITHMETIC or type(arg) is str and arg == "arithmetic"):
                return None
            which = 0
        elif which == READ_V:
            if not (<double>arg == 1.0 if type(arg) is float else type(arg) is int and arg == 1):
                return None
            which = 0
        elif which == READ_MI:
            if not (type(arg) is float and <double>arg == E):
                return None
            which = 3
        else:
            which = 1 if which == READ_HOMOGENEITY else 2
        return self._information_score(which)

    cdef object _significance(self):
        """``(zscore, pvalue)`` of :func:`contingency.formulas.partition.ari_significance` where C
        computes it (4 to 2**22 - 1 elements), else None."""
        cdef double out[2]
        if ck_ari_significance(self.n_elements, self._sums, out):
            return (out[0], out[1])
        return None

    @cython.always_allow_keywords(False)
    def ari_significance(self):
        """``(zscore, pvalue)`` of the ARI where C computes it, else None."""
        return self._significance()

    @cython.always_allow_keywords(False)  # METH_NOARGS / METH_O: the cheapest call
    def adjusted_rand_index(self):
        """:meth:`Table.adjusted_rand_index <contingency._table.Table.adjusted_rand_index>`."""
        found = self._score(READ_ARI, None)
        return Table.adjusted_rand_index(self) if found is None else found

    @cython.always_allow_keywords(False)
    def rand_index(self):
        """:meth:`Table.rand_index <contingency._table.Table.rand_index>`."""
        found = self._score(READ_RAND, None)
        return Table.rand_index(self) if found is None else found

    @cython.always_allow_keywords(False)
    def precision(self):
        """:meth:`Table.precision <contingency._table.Table.precision>`."""
        found = self._score(READ_PRECISION, None)
        return Table.precision(self) if found is None else found

    @cython.always_allow_keywords(False)
    def recall(self):
        """:meth:`Table.recall <contingency._table.Table.recall>`."""
        found = self._score(READ_RECALL, None)
        return Table.recall(self) if found is None else found

    @cython.always_allow_keywords(False)
    def f1(self):
        """:meth:`Table.f1 <contingency._table.Table.f1>`."""
        found = self._score(READ_F1, None)
        return Table.f1(self) if found is None else found

    @cython.always_allow_keywords(False)
    def jaccard(self):
        """:meth:`Table.jaccard <contingency._table.Table.jaccard>`."""
        found = self._score(READ_JACCARD, None)
        return Table.jaccard(self) if found is None else found

    @cython.always_allow_keywords(False)
    def fowlkes_mallows(self):
        """:meth:`Table.fowlkes_mallows <contingency._table.Table.fowlkes_mallows>`."""
        found = self._score(READ_FOWLKES_MALLOWS, None)
        return Table.fowlkes_mallows(self) if found is None else found

    @cython.always_allow_keywords(False)
    def normalized_mutual_information(self, average_method):
        """:meth:`Table.normalized_mutual_information <contingency._table.Table.normalized_mutual_information>`."""
        found = self._score(READ_NMI, average_method)
        return (Table.normalized_mutual_information(self, average_method) if found is None
                else found)

    @cython.always_allow_keywords(False)
    def v_measure(self, beta):
        """:meth:`Table.v_measure <contingency._table.Table.v_measure>`."""
        found = self._score(READ_V, beta)
        return Table.v_measure(self, beta) if found is None else found

    @cython.always_allow_keywords(False)
    def homogeneity(self):
        """:meth:`Table.homogeneity <contingency._table.Table.homogeneity>`."""
        found = self._score(READ_HOMOGENEITY, None)
        return Table.homogeneity(self) if found is None else found

    @cython.always_allow_keywords(False)
    def completeness(self):
        """:meth:`Table.completeness <contingency._table.Table.completeness>`."""
        found = self._score(READ_COMPLETENESS, None)
        return Table.completeness(self) if found is None else found

    @cython.always_allow_keywords(False)
    def mutual_information(self, base):
        """:meth:`Table.mutual_information <contingency._table.Table.mutual_information>`."""
        found = self._score(READ_MI, base)
        return Table.mutual_information(self, base) if found is None else found

    def table_sums(self):
        """The sums the pair-counting and information scores take."""
        cdef ck_level *sums = self._sums
        return ck_tuple9(
            TableSums, self.n_elements, self._rows.alive, self._columns.alive,
            ck_level_pairs(&sums[CELLS]), ck_level_pairs(&sums[ROWS]),
            ck_level_pairs(&sums[COLUMNS]), ck_level_log(&sums[CELLS]),
            ck_level_log(&sums[ROWS]), ck_level_log(&sums[COLUMNS]))

    def triple_sums(self):
        """``sum C(n, 3)`` over the cells, the rows and the columns."""
        return (ck_level_triples(&self._sums[CELLS]), ck_level_triples(&self._sums[ROWS]),
                ck_level_triples(&self._sums[COLUMNS]))

    def fine_sums(self):
        """The fine ``n ln n`` sums, or None until :meth:`keep_fine_sums`."""
        if not self._keep_fine:
            return None
        return FineSums(ck_int256(&self._fine[CELLS]), ck_int256(&self._fine[ROWS]),
                        ck_int256(&self._fine[COLUMNS]))

    def cells(self):
        """The non-empty cells, labels in arrival order, by row then column in that order."""
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i, at = 0
        keys_array = np.empty(self._used, dtype=np.uint64)
        counts_array = np.empty(self._used, dtype=np.int64)
        cdef uint64_t[::1] keys = keys_array
        cdef int64_t[::1] counts = counts_array
        for i in range(size):
            if self._slots[i].key != EMPTY:
                keys[at], counts[at] = self._slots[i].key, self._slots[i].count
                at += 1
        rows = (keys_array >> np.uint64(32)).astype(np.int64)
        columns = (keys_array & np.uint64(0xFFFFFFFF)).astype(np.int64)
        width = len(self._columns.labels)
        slots = len(self._rows.labels) * width
        if self._used and dense_is_cheaper(slots, self._used):  # by row then column: placed
            table = np.zeros(slots, dtype=np.int64)
            table[rows * width + columns] = counts_array
            present = np.flatnonzero(table)
            counts_array = table[present]
            rows = present // width
            columns = present - rows * width
        else:  # sorted
            order = np.argsort(keys_array)
            rows, columns, counts_array = rows[order], columns[order], counts_array[order]
        row_codes, column_codes = self._rows.alive_codes(), self._columns.alive_codes()
        row_rank = np.zeros(len(self._rows.labels), dtype=np.int64)
        row_rank[row_codes] = np.arange(row_codes.size)
        column_rank = np.zeros(len(self._columns.labels), dtype=np.int64)
        column_rank[column_codes] = np.arange(column_codes.size)
        row_labels = [self._rows.labels[code] for code in row_codes.tolist()]
        column_labels = [self._columns.labels[code] for code in column_codes.tolist()]
        return Cells(row_labels, column_labels, row_rank[rows], column_rank[columns],
                     counts_array)

    def row_totals(self):
        """The row totals, in the order of :meth:`cells`' row labels."""
        return self._rows.totals_array()

    def column_totals(self):
        """The column totals, in the order of :meth:`cells`' column labels."""
        return self._columns.totals_array()


cdef bint _fits_int64(counts):
    return all(-MAX_COUNT - 1 <= count <= MAX_COUNT for count in counts.tolist())


#: The modulus of the fine sums' 256-bit words.
_MASK_256 = (1 << 256) - 1


cdef int _set_256(ck_u256 *out, object value) except -1:
    """``value`` modulo ``2**256`` into four words."""
    data = (value & _MASK_256).to_bytes(32, "little")
    memcpy(out, <const char *>data, 32)
    return 0


cdef int _fine_term(uint64_t n, ck_u256 *out) except -1:
    """``fine_n_log_n(n)`` (the formulas' definition) as four words, from the C tables when known."""
    cdef int place = n & 255
    if n < CK_FINE_CACHE:
        if ck_fine_known[n]:
            out[0] = ck_fine_cache[n]
            return 0
    elif ck_big_fine_count[place] == n:
        out[0] = ck_big_fine[place]
        return 0
    _set_256(out, fine_n_log_n(n))
    if n < CK_FINE_CACHE:
        ck_fine_cache[n] = out[0]
        ck_fine_known[n] = 1
    else:
        ck_big_fine[place] = out[0]
        ck_big_fine_count[place] = n
    return 0


# Slots read in place (PartitionComparison's reads, GroupedContingency.add_result) -------------

cdef extern from *:
    """
    #include <structmember.h>
    /* Where a __slots__ attribute lives in its class's instances: the offset its member
       descriptor reads (-1 for anything else). */
    static Py_ssize_t ck_slot_offset(PyObject *descriptor) {
        if (Py_TYPE(descriptor) != &PyMemberDescr_Type) return -1;
        PyMemberDef *member = ((PyMemberDescrObject *)descriptor)->d_member;
        if (member->type != T_OBJECT_EX || (member->flags & READONLY)) return -1;
        return member->offset;
    }
    /* The slot's value, borrowed; NULL while the slot is unset. */
    static inline PyObject *ck_slot(PyObject *instance, Py_ssize_t offset) {
        return *(PyObject **)((char *)instance + offset);
    }
    """
    Py_ssize_t ck_slot_offset(PyObject *descriptor) noexcept
    PyObject *ck_slot(object instance, Py_ssize_t offset) noexcept


cdef Py_ssize_t _slot_offset(type cls, str name):
    """The offset of ``cls``'s slot ``name`` in its instances (and its subclasses', which keep
    their bases' layout), or -1 if ``name`` is not a plain slot: the attribute ``name`` resolves
    to, the first class of ``cls``'s MRO that defines it (a memo's slot lives in a base class)."""
    for base in cls.__mro__:
        descriptor = base.__dict__.get(name)
        if descriptor is not None:
            return ck_slot_offset(<PyObject *>descriptor)
    return -1


def slot_offset(type cls, str name):
    """:func:`_slot_offset`, for the tests: every slot the kernel reads in place is found (a slot
    it misses is read by ``getattr`` at each call instead: right, and slower)."""
    return _slot_offset(cls, name)


cdef inline object _read_slot(object instance, Py_ssize_t offset, str name):
    """``getattr(instance, name)``, read from the slot at ``offset`` when it is set (what the
    slot's descriptor does, without looking the name up in the class)."""
    cdef PyObject *value
    if offset >= 0:
        value = ck_slot(instance, offset)
        if value is not NULL:
            return <object>value
    return getattr(instance, name)


# PartitionComparison's reads, compiled ----------------------------------------------------------
#
# Each read of PartitionComparison that the kernel computes, as the class's own method or
# property: the comparison's table read through KernelTable._score (no Python frame between
# the caller and C), and the method as written in Python (contingency/_partition.py, its
# reference: the same reads through the table's methods, with the formulas' fallbacks) called
# wherever C does not settle the value. compiled_partition_reads hands them to
# contingency._backend, which presents each as its reference.

cdef dict _PARTITION_REFERENCE = {}
# PartitionComparison and the offset of its ``_table`` slot (see _slot_offset): -1 until known.
cdef type _comparison_class = None
cdef Py_ssize_t _table_at = -1


cdef inline object _table_of(object comparison):
    """``comparison._table``, read in place from the slot of a PartitionComparison."""
    if _table_at >= 0 and isinstance(comparison, _comparison_class):
        return _read_slot(comparison, _table_at, "_table")
    return comparison._table


cdef inline object _partition_score(object comparison, int which, object arg):
    """The comparison's read ``which`` where C settles it, else None."""
    table = _table_of(comparison)
    if isinstance(table, KernelTable):
        return (<KernelTable>table)._score(which, arg)
    return None


def _read_without_argument(int which, str name):
    """The compiled read ``which`` that takes no argument (a property's getter), falling back on
    the reference read ``name``."""
    @cython.binding(True)
    def read(self):
        found = _partition_score(self, which, None)
        return _PARTITION_REFERENCE[name](self) if found is None else found
    return read


@cython.binding(True)
def _read_ari_significance(self):
    table = _table_of(self)
    if isinstance(table, KernelTable):
        found = (<KernelTable>table)._significance()
        if found is not None:  # AriSignificance(*found), as tuple.__new__(AriSignificance, found)
            arguments = (found,)
            return (<PyTypeObject *>tuple).tp_new(AriSignificance, <PyObject *>arguments, NULL)
    return _PARTITION_REFERENCE["ari_significance"](self)


@cython.binding(True)
def _read_normalized_mutual_information(self, average_method="arithmetic"):
    found = _partition_score(self, READ_NMI, average_method)
    if found is None:
        return _PARTITION_REFERENCE["normalized_mutual_information"](self, average_method)
    return found


@cython.binding(True)
def _read_v_measure(self, beta=1.0):
    found = _partition_score(self, READ_V, beta)
    return _PARTITION_REFERENCE["v_measure"](self, beta) if found is None else found


@cython.binding(True)
def _read_mutual_information(self, base=E):
    found = _partition_score(self, READ_MI, base)
    return _PARTITION_REFERENCE["mutual_information"](self, base) if found is None else found


def compiled_partition_reads(dict reference, type comparison=None):
    """The compiled reads by name, given PartitionComparison's reads as written in Python
    (``reference``, by the same names: properties' getters and methods) to fall back on; given
    the class too (``comparison``), they read its instances' ``_table`` slot in place."""
    global _comparison_class, _table_at
    _PARTITION_REFERENCE.clear()
    _PARTITION_REFERENCE.update(reference)
    _comparison_class = comparison
    _table_at = -1 if comparison is None else _slot_offset(comparison, "_table")
    found = {name: _read_without_argument(which, name) for name, which in (
        ("adjusted_rand_index", READ_ARI), ("accuracy", READ_RAND),
        ("precision", READ_PRECISION), ("recall", READ_RECALL), ("f1", READ_F1),
        ("jaccard", READ_JACCARD), ("fowlkes_mallows", READ_FOWLKES_MALLOWS),
        ("homogeneity", READ_HOMOGENEITY), ("completeness", READ_COMPLETENESS),
        ("purity", READ_PURITY), ("inverse_purity", READ_INVERSE_PURITY))}
    found.update(normalized_mutual_information=_read_normalized_mutual_information,
                 v_measure=_read_v_measure, mutual_information=_read_mutual_information,
                 ari_significance=_read_ari_significance)
    return {name: found[name] for name in reference}


def _quotient(num, den):
    """``num / den`` as the kernel's reads round it (for the tests: Python's ``num / den``).

    For ``0 <= num < 2**240`` and ``0 < den < 2**240``.
    """
    if not (0 <= num < 2**240 and 0 < den < 2**240):
        raise ValueError("_quotient takes 0 <= num < 2**240 and 0 < den < 2**240")
    cdef ck_u256 a, b
    _set_256(&a, num)
    _set_256(&b, den)
    return ck_quotient256(&a, &b)


include "_kernel_scores.pxi"
include "_kernel_counts.pxi"
include "_kernel_intervals.pxi"
include "_kernel_paired.pxi"
include "_kernel_grouped.pxi"
include "_kernel_coding.pxi"
