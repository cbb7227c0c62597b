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
    cdef unsigned char lead, low, high
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
        if lead < 0xE0:
            if end - at < 2 or not _continues(at[1]):
                return False
            at += 2
            continue
        if lead < 0xF0:
            low, high = 0x80, 0xBF
            if lead == 0xE0:
                low = 0xA0  # overlong below
            elif lead == 0xED:
                high = 0x9F  # the surrogates above
            if end - at < 3 or not low <= at[1] <= high or not _continues(at[2]):
                return False
            at += 3
            continue
        if lead < 0xF5:
            low, high = 0x80, 0xBF
            if lead == 0xF0:
                low = 0x90  # overlong below
            elif lead == 0xF4:
                high = 0x8F  # above U+10FFFF
            if (end - at < 4 or not low <= at[1] <= high or not _continues(at[2])
                    or not _continues(at[3])):
                return False
            at += 4
            continue
        return False
    return True
