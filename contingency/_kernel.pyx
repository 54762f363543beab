# cython: language_level=3
"""The compiled kernel of PartitionComparison (contingency/_backend.py loads it): so far, the hash of its source."""

cdef extern from *:
    """
    #ifndef CONTINGENCY_KERNEL_SOURCE
    #define CONTINGENCY_KERNEL_SOURCE "unknown"
    #endif
    """
    const char *CONTINGENCY_KERNEL_SOURCE

#: The SHA-256 of the .pyx this module was compiled from (hatch_build.py passes it).
SOURCE_HASH = CONTINGENCY_KERNEL_SOURCE.decode("ascii")
