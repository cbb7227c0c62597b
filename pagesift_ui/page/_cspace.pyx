# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""``markup.normalise`` compiled: a text's white space collapsed in one pass in C
(docs/DECISIONS.md, "the step, twelfth pass"; issue 15).

``" ".join(text.split())`` makes one str a word and joins them; the collector calls it for
every block, heading and anchor of a page. This writes the characters kept into one buffer
of the text's own width instead. White space is ``str.split``'s (``Py_UNICODE_ISSPACE``).
Optional like the walk: ``markup`` takes it where the install built it (``setup.py``) and
joins in Python where it did not; tests/test_compiled_walk.py holds the two to the same str.
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_KIND, PyUnicode_READ
from libc.stdint cimport uint32_t
from libc.stdlib cimport free, malloc

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch) nogil
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    void PyUnicode_WRITE(int kind, void* data, Py_ssize_t index, Py_UCS4 value) nogil


def normalise(object value):
    """``" ".join(value.split())``: the words of ``value`` with one space between them, a
    ``str`` (a subclass's value too: bs4's and lxml's strings are ``str`` subclasses)."""
    cdef str text
    if not isinstance(value, str):
        raise TypeError(f"normalise() needs a str, not {type(value).__name__}")
    text = value if type(value) is str else str.__str__(value)
    cdef Py_ssize_t length = len(text), at, kept = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef void* out
    cdef uint32_t ch
    cdef bint space = False
    # nothing to collapse (the common case: a text node already written with single spaces)
    for at in range(length):
        ch = PyUnicode_READ(kind, data, at)
        if Py_UNICODE_ISSPACE(ch) and (
                ch != 0x20 or space or at == 0 or at == length - 1):
            break
        space = ch == 0x20
    else:
        return text
    out = malloc(length * kind + 1)
    if out == NULL:
        raise MemoryError()
    space = False
    try:
        for at in range(length):
            ch = PyUnicode_READ(kind, data, at)
            if Py_UNICODE_ISSPACE(ch):
                space = kept > 0
                continue
            if space:
                PyUnicode_WRITE(kind, out, kept, 0x20)
                kept += 1
                space = False
            PyUnicode_WRITE(kind, out, kept, ch)
            kept += 1
        # the narrowest str for what is kept (white space outside Latin-1 may have been the
        # widest character), as the join makes it
        return PyUnicode_FromKindAndData(kind, out, kept)
    finally:
        free(out)
