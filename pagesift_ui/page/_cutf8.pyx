# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""``charset.is_utf8`` compiled: whether bytes are well-formed UTF-8, without decoding them
(docs/DECISIONS.md, "the step, fourteenth pass"; issue 15).

A page declared UTF-8 that is valid UTF-8 is parsed as bytes (``extract``); the check is
all that is left of its decoding. Python has no check but the decoder, which builds the
whole ``str`` and ran at ~250 MB/s on bench_step's pages (slower once a page's first
character outside ASCII is met: 5% of a step). This reads eight bytes at a time while they
are ASCII, and checks each multi-byte sequence by the Unicode Standard's table of
well-formed UTF-8 byte sequences (§3.9, Table 3-7): no overlong forms, no surrogates,
nothing above U+10FFFF, as Python's strict decoder. Optional like the other compiled parts:
``charset`` decodes to check where the install did not build it; tests/test_extract_bytes.py
holds the two to the same answers.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

cdef uint64_t _HIGH_BITS = 0x8080808080808080ULL


cdef inline bint _continues(unsigned char byte) noexcept nogil:
    return (byte & 0xC0) == 0x80


cdef inline bint _continued(const unsigned char* at, const unsigned char* end, Py_ssize_t size,
                            unsigned char low, unsigned char high) noexcept nogil:
    """The ``size``-byte sequence led by ``at[0]`` is whole, its second byte in [``low``,
    ``high``] and the rest continuation bytes (Table 3-7)."""
    cdef Py_ssize_t index
    if end - at < size or not low <= at[1] <= high:
        return False
    for index in range(2, size):
        if not _continues(at[index]):
            return False
    return True


def is_utf8(bytes data not None):
    """True when ``data`` is well-formed UTF-8."""
    cdef const unsigned char* start = <const unsigned char*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t size = PyBytes_GET_SIZE(data)
    cdef bint valid
    with nogil:
        valid = _well_formed(start, size)
    return valid


cdef bint _well_formed(const unsigned char* at, Py_ssize_t size) noexcept nogil:
    cdef const unsigned char* end = at + size
    cdef unsigned char lead
    cdef uint64_t block
    while at < end:
        while end - at >= 8:
            memcpy(&block, at, 8)
            if block & _HIGH_BITS:
                break
            at += 8
        if at == end:
            break
        lead = at[0]
        if lead < 0x80:
            at += 1
            continue
        if lead < 0xC2:  # a continuation byte first, or an overlong two-byte form
            return False
        if lead < 0xE0:  # two bytes
            if not _continued(at, end, 2, 0x80, 0xBF):
                return False
            at += 2
            continue
        if lead < 0xF0:  # three bytes: not overlong (E0 A0..), no surrogate (ED ..9F)
            if not _continued(at, end, 3, 0xA0 if lead == 0xE0 else 0x80,
                              0x9F if lead == 0xED else 0xBF):
                return False
            at += 3
            continue
        if lead < 0xF5:  # four bytes: not overlong (F0 90..), not past U+10FFFF (F4 ..8F)
            if not _continued(at, end, 4, 0x90 if lead == 0xF0 else 0x80,
                              0x8F if lead == 0xF4 else 0xBF):
                return False
            at += 4
            continue
        return False
    return True
