# Included by _kernel.pyx.
"""Python objects coded by a dictionary in one C pass: a list, tuple or 1-d object array to int64
codes in order of first occurrence, the distinct labels and whether a class of equal items holds
items of several types; and the first row of each code.

The reference is ``contingency._coding.code_objects_reference`` (read it first): ``dict.fromkeys``
over the items, then ``map`` of the index's look-up. This is one loop: a dict look-up per item,
the next code inserted on a miss (the item kept as the label: the first object met of its class
of equal ones, as the dict keeps its first key), an object array's item pointers read where they
lie, at any stride (no ``tolist``); on a hit, the item's type is compared with its label's (one pointer
each: ``mixed``). An unhashable item raises the dict's TypeError.
tests/test_coding_kernel.py runs both on the same inputs and compares codes and labels.

``first_rows`` (reference ``contingency._coding.first_rows_reference``) finds the first row of each
wanted code in one pass that stops once all are found: the order in which a batch meets its new
categories (``_coding.meeting_order``) and GroupedContingency's new groups.
"""

from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.object cimport Py_TYPE
from cpython.tuple cimport PyTuple_GET_ITEM


cdef inline int64_t _object_code(dict index, list labels, object item, bint *mixed) except -1:
    """The code of ``item``: its label's (``mixed`` set if their types differ), or the next one,
    given it as a new label."""
    cdef PyObject *found = PyDict_GetItemWithError(index, item)  # (TypeError: unhashable)
    cdef int64_t code_found
    cdef PyObject *label
    if found is not NULL:
        code_found = <int64_t>(<object>found)
        if not mixed[0]:  # (once set, never read again here)
            label = PyList_GET_ITEM(labels, code_found)
            if label is not <PyObject *>item and Py_TYPE(item) != Py_TYPE(<object>label):
                mixed[0] = True
        return code_found
    cdef Py_ssize_t code = len(labels)
    index[item] = code
    labels.append(item)
    return code


def code_objects(values):
    """``(codes, labels, mixed)`` of a list, tuple or 1-d object array: the int64 codes in order
    of first occurrence, the distinct labels and whether an item's type is not its label's, as
    ``code_objects_reference`` gives them."""
    cdef dict index = {}
    cdef bint mixed = False
    cdef list labels = []
    cdef Py_ssize_t n, i, stride
    cdef const char *data
    cdef PyObject *pointer
    cdef object item
    if type(values) is list or type(values) is tuple:
        n = len(values)
    elif type(values) is np.ndarray and values.dtype == object and values.ndim == 1:
        n = values.shape[0]
    else:
        raise ValueError(f"code_objects takes a list, tuple or 1-d object array, not "
                         f"{type(values).__name__}")
    codes_array = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] codes = codes_array
    if type(values) is list:
        for i in range(n):
            if i >= PyList_GET_SIZE(values):  # (an item's __eq__ or __hash__ shortened it)
                raise RuntimeError("a list of labels changed size while it was coded")
            item = <object>PyList_GET_ITEM(values, i)  # (held: an __eq__ may drop the list's)
            codes[i] = _object_code(index, labels, item, &mixed)
    elif type(values) is tuple:
        for i in range(n):
            item = <object>PyTuple_GET_ITEM(values, i)
            codes[i] = _object_code(index, labels, item, &mixed)
    else:
        data = <const char *><size_t>values.__array_interface__["data"][0]
        stride = values.strides[0]
        for i in range(n):
            memcpy(&pointer, data + i * stride, sizeof(PyObject *))  # (a field's may be unaligned)
            item = None if pointer is NULL else <object>pointer  # (numpy reads NULL as None)
            codes[i] = _object_code(index, labels, item, &mixed)
    return codes_array, labels, mixed


# The first row of each code (the order a batch meets new categories and groups) ------------

@cython.binding(True)
@cython.boundscheck(False)
@cython.wraparound(False)
def first_rows(codes, wanted):
    """``contingency._coding.first_rows_reference`` in C (read it first): one pass over the rows,
    stopped once every wanted code is found (no sort of prefixes)."""
    cdef const int64_t[::1] rows = np.ascontiguousarray(codes, dtype=np.int64)
    cdef const unsigned char[::1] asked = np.ascontiguousarray(wanted, dtype=np.bool_).view(np.uint8)
    first_array = np.full(len(wanted), -1, dtype=np.int64)
    cdef int64_t[::1] first = first_array
    cdef Py_ssize_t remaining = 0, row, size = rows.shape[0], count = first.shape[0]
    cdef int64_t code
    for row in range(count):
        remaining += asked[row] != 0
    for row in range(size):
        if not remaining:
            break
        code = rows[row]
        if code < 0 or code >= count:
            continue  # (no code: skipped, as the reference skips it)
        if asked[code] and first[code] < 0:
            first[code] = row
            remaining -= 1
    return first_array
