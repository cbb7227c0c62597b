# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Passes over a page's text, compiled: the duplicate check's (and its MinHash minima), the
relevance's word classes and the reading by meaning (``WordRows``) (docs/DECISIONS.md, "the
step, twelfth pass" to "fourteenth pass"; issue 15).

The two text functions read the text once, character by character, in C, where the Python
references (``textpass._fingerprint_texts_in_python`` and ``_word_hashes_in_python``) split
it into one ``str`` per word and join, translate, lower or look up each: about half a raw
lxml parse of a docs page between them. ``min_hashes`` is the signature's arithmetic in one
pass a row, where the reference (``textpass._min_hashes_in_python``) makes three numpy passes
over a scratch block. ``WordClasses`` reads a text's words for the relevance, each by a
class kept by its bytes, where ``contentwords._read_in_python`` makes a str a word. This
module is optional: ``textpass`` and ``contentwords`` import it when the install built it
(``setup.py``) and run the references when it did not; tests/frontier/test_textpass.py and
test_contentwords.py hold the two to the same bytes, hashes and counts.

White space is ``str.split``'s (``Py_UNICODE_ISSPACE``), a digit is the regex ``\\d``'s
(``Py_UNICODE_ISDECIMAL``: Unicode's Nd), and text is encoded as UTF-8 with
``surrogatepass`` (a lone surrogate as its three bytes), as the references do.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.unicode cimport (
    PyUnicode_DATA, PyUnicode_DecodeASCII, PyUnicode_KIND, PyUnicode_READ,
)
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.math cimport sqrt
from libc.string cimport memcmp, memcpy, memset

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch) nogil
    bint Py_UNICODE_ISDECIMAL(Py_UCS4 ch) nogil

#: FNV-1a's 64-bit offset basis and prime (Fowler, Noll, Vo)
cdef uint64_t _FNV_BASIS = 0xcbf29ce484222325ULL
cdef uint64_t _FNV_PRIME = 0x100000001b3ULL


cdef void* _allocate(Py_ssize_t size) except NULL:
    """``size`` bytes from malloc, or MemoryError."""
    cdef void* block = malloc(size)
    if block == NULL:
        raise MemoryError()
    return block


cdef inline Py_ssize_t _put_utf8(char* out, Py_ssize_t at, uint32_t ch) noexcept nogil:
    """``ch`` as UTF-8 at ``out[at]``; the position after it."""
    if ch < 0x80:
        out[at] = <char>ch
        return at + 1
    if ch < 0x800:
        out[at] = <char>(0xC0 | (ch >> 6))
        out[at + 1] = <char>(0x80 | (ch & 0x3F))
        return at + 2
    if ch < 0x10000:  # a surrogate too: what surrogatepass writes
        out[at] = <char>(0xE0 | (ch >> 12))
        out[at + 1] = <char>(0x80 | ((ch >> 6) & 0x3F))
        out[at + 2] = <char>(0x80 | (ch & 0x3F))
        return at + 3
    out[at] = <char>(0xF0 | (ch >> 18))
    out[at + 1] = <char>(0x80 | ((ch >> 12) & 0x3F))
    out[at + 2] = <char>(0x80 | ((ch >> 6) & 0x3F))
    out[at + 3] = <char>(0x80 | (ch & 0x3F))
    return at + 4


cdef str _exact(object value):
    """``value`` as an exact ``str`` (the value of a subclass, whose type Cython's ``str``
    arguments refuse), or TypeError."""
    if type(value) is str:
        return <str>value
    if isinstance(value, str):
        return str.__str__(value)
    raise TypeError(f"a str is needed, not {type(value).__name__}")


def fingerprint_texts(object value):
    """The UTF-8 of ``" ".join(text.split())`` and of the same words with every decimal
    digit removed and the words left empty dropped: what ``urls.text_fingerprints`` hashes."""
    cdef str text = _exact(value)
    cdef Py_ssize_t length = len(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t room = 4 * length + 1, exact_end = 0, digitless_end = 0, at
    # one block for both outputs: a character is at most four bytes of UTF-8
    cdef char* exact = <char*>_allocate(2 * room)
    cdef char* digitless = exact + room
    cdef bint in_word = False, in_digitless_word = False
    cdef uint32_t ch
    try:
        for at in range(length):
            ch = PyUnicode_READ(kind, data, at)
            if Py_UNICODE_ISSPACE(ch):
                in_word = False
                continue
            if not in_word:
                if exact_end:
                    exact[exact_end] = 32
                    exact_end += 1
                in_word = True
                in_digitless_word = False
            exact_end = _put_utf8(exact, exact_end, ch)
            # ASCII's digits by comparison: Py_UNICODE_ISDECIMAL is a call into Unicode's
            # tables for every character (the pass on 150 library pages: 12.4 -> 8.3 ms)
            if (48 <= ch <= 57) if ch < 0x80 else Py_UNICODE_ISDECIMAL(ch):
                continue
            if not in_digitless_word:
                if digitless_end:
                    digitless[digitless_end] = 32
                    digitless_end += 1
                in_digitless_word = True
            digitless_end = _put_utf8(digitless, digitless_end, ch)
        return (PyBytes_FromStringAndSize(exact, exact_end),
                PyBytes_FromStringAndSize(digitless, digitless_end))
    finally:
        free(exact)


# The word hashes already computed, by word: an open-addressing table keyed by the word's
# FNV-1a hash, each entry holding the word's bytes (in the arena: a hit compares them, so two
# words never share an entry) and its ``textpass.word_hash``. Bounded like the Python
# reference's dict: emptied when its words or their bytes would not fit.
cdef enum:
    _SLOTS = 1 << 17  # a power of two, twice the words: probes stay short
    _MAX_WORDS = 1 << 16  # textpass.WORD_HASH_CACHE_SIZE
    _ARENA_BYTES = 1 << 22
    _LONGEST_CACHED = 1 << 12  # a longer "word" (a base64 blob) is hashed, not kept

cdef uint32_t _slots[_SLOTS]  # 0: empty; else an entry's index + 1
cdef uint64_t _entry_key[_MAX_WORDS]
cdef uint64_t _entry_hash[_MAX_WORDS]
cdef uint32_t _entry_start[_MAX_WORDS]
cdef uint32_t _entry_size[_MAX_WORDS]
cdef unsigned char _arena[_ARENA_BYTES]
cdef Py_ssize_t _words = 0
cdef Py_ssize_t _arena_used = 0


cdef inline uint64_t _fnv1a(const unsigned char* word, Py_ssize_t size) noexcept nogil:
    cdef uint64_t value = _FNV_BASIS
    cdef Py_ssize_t at
    for at in range(size):
        value ^= word[at]
        value *= _FNV_PRIME
    return value


def clear_word_cache():
    """Forget every word hash (the benchmark's cold caches; tests)."""
    global _words, _arena_used
    memset(_slots, 0, sizeof(_slots))
    _words = 0
    _arena_used = 0


def cached_words():
    """How many words the cache holds."""
    return _words


cdef inline Py_ssize_t _probe(
    const uint32_t* slots, Py_ssize_t mask, const uint64_t* keys, const uint32_t* sizes,
    const uint32_t* starts, const unsigned char* arena, const unsigned char* word,
    Py_ssize_t size, uint64_t key,
) noexcept nogil:
    """The slot of ``word`` (its UTF-8, ``size`` bytes, FNV-1a ``key``) in an open-addressing
    table of ``mask + 1`` slots, each 0 (empty) or an entry's index + 1, or the empty slot
    where it would go; a hit compares the entry's bytes in ``arena``, so two words never
    share an entry. The three tables of this module probe alike."""
    cdef Py_ssize_t slot = key & mask
    cdef uint32_t entry
    while slots[slot]:
        entry = slots[slot] - 1
        if (keys[entry] == key and sizes[entry] == size
                and memcmp(arena + starts[entry], word, size) == 0):
            return slot
        slot = (slot + 1) & mask
    return slot


cdef Py_ssize_t _slot_of(const unsigned char* word, Py_ssize_t size, uint64_t key) noexcept nogil:
    """The word's slot in the table, or the empty slot where it would go."""
    return _probe(_slots, _SLOTS - 1, _entry_key, _entry_size, _entry_start, _arena, word, size,
                  key)


cdef uint64_t _cached_hash(const unsigned char* word, Py_ssize_t size, object text,
                           object hash_word) except? 0:
    """The hash of the word whose UTF-8 is ``word``: from the cache, or ``hash_word(text)``
    (``text`` is the word as a str, or None to decode it from ``word``) and kept."""
    global _words, _arena_used
    cdef uint64_t key = _fnv1a(word, size)
    cdef Py_ssize_t slot = _slot_of(word, size, key)
    cdef uint64_t value
    if _slots[slot]:
        return _entry_hash[_slots[slot] - 1]
    if text is None:
        text = PyUnicode_DecodeASCII(<const char*>word, size, NULL)
    value = hash_word(text)
    if size > _LONGEST_CACHED:
        return value
    # hash_word is Python: another thread may have kept words (or emptied the table) since
    # the slot was found, so it is found again
    slot = _slot_of(word, size, key)
    if _slots[slot]:
        return value
    if _words == _MAX_WORDS or _arena_used + size > _ARENA_BYTES:
        clear_word_cache()
        slot = key & (_SLOTS - 1)
    memcpy(_arena + _arena_used, word, size)
    _entry_key[_words] = key
    _entry_hash[_words] = value
    _entry_start[_words] = <uint32_t>_arena_used
    _entry_size[_words] = <uint32_t>size
    _slots[slot] = <uint32_t>(_words + 1)
    _words += 1
    _arena_used += size
    return value


def word_hashes(object value, object hash_word):
    """``hash_word`` of each word of ``text.lower().split()``, in order, as native uint64
    bytes: called once per word new to the cache, with the word as a str. A word with a
    character outside ASCII is lowered by ``str.lower`` (Unicode's full case mapping) and
    encoded in Python; the others in C."""
    cdef str text = _exact(value)
    cdef Py_ssize_t length = len(text), at = 0, start, count = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    # one block: the hashes (a word and its separator take two characters at least, the
    # last word one), then the word being lowered
    cdef Py_ssize_t room = 8 * (length // 2 + 1)
    cdef uint64_t* hashes = <uint64_t*>_allocate(room + length + 1)
    cdef unsigned char* lowered = <unsigned char*>hashes + room
    cdef uint32_t ch
    cdef bint ascii
    cdef object word
    cdef bytes encoded
    try:
        while at < length:
            ch = PyUnicode_READ(kind, data, at)
            if Py_UNICODE_ISSPACE(ch):
                at += 1
                continue
            start = at
            ascii = True
            while at < length:
                ch = PyUnicode_READ(kind, data, at)
                if Py_UNICODE_ISSPACE(ch):
                    break
                if ch >= 0x80:
                    ascii = False
                elif 0x41 <= ch <= 0x5A:  # A-Z: str.lower's mapping within ASCII
                    ch += 32
                lowered[at - start] = <unsigned char>ch
                at += 1
            if ascii:
                hashes[count] = _cached_hash(lowered, at - start, None, hash_word)
            else:
                word = text[start:at].lower()
                encoded = word.encode("utf-8", "surrogatepass")
                hashes[count] = _cached_hash(
                    <const unsigned char*>PyBytes_AS_STRING(encoded), len(encoded), word,
                    hash_word)
            count += 1
        return PyBytes_FromStringAndSize(<char*>hashes, 8 * count)
    finally:
        free(hashes)


def min_hashes(const uint64_t[::1] hashes, const uint64_t[::1] multipliers,
               const uint64_t[::1] keys, uint64_t[::1] signature):
    """Each row r's minimum over ``hashes`` of ``multipliers[r] · (h ⊕ keys[r])`` mod 2⁶⁴,
    written to ``signature[r]``: the MinHash signature ``neardup.minhash`` takes.

    One row at a time over the hashes, with four running minima (independent, so the
    multiplies overlap): about one 64-bit multiply a cycle, where numpy's xor, multiply and
    minimum were three passes over a scratch block (issue 15)."""
    cdef Py_ssize_t count = hashes.shape[0], rows = multipliers.shape[0], row, at
    cdef uint64_t multiplier, key, least0, least1, least2, least3, value0, value1, value2, value3
    cdef const uint64_t* values
    if count == 0:
        raise ValueError("no hashes: a minimum needs one at least")
    if keys.shape[0] != rows or signature.shape[0] != rows:
        raise ValueError("multipliers, keys and signature must have one value a row each")
    values = &hashes[0]
    with nogil:
        for row in range(rows):
            multiplier = multipliers[row]
            key = keys[row]
            least0 = least1 = least2 = least3 = 0xFFFFFFFFFFFFFFFFULL
            at = 0
            while at + 4 <= count:
                value0 = (values[at] ^ key) * multiplier
                value1 = (values[at + 1] ^ key) * multiplier
                value2 = (values[at + 2] ^ key) * multiplier
                value3 = (values[at + 3] ^ key) * multiplier
                if value0 < least0:
                    least0 = value0
                if value1 < least1:
                    least1 = value1
                if value2 < least2:
                    least2 = value2
                if value3 < least3:
                    least3 = value3
                at += 4
            while at < count:
                value0 = (values[at] ^ key) * multiplier
                if value0 < least0:
                    least0 = value0
                at += 1
            if least1 < least0:
                least0 = least1
            if least3 < least2:
                least2 = least3
            signature[row] = least2 if least2 < least0 else least0


# --------------------------------------------------------------------------- word classes

cdef enum:
    _CLASS_SLOTS = 1 << 17  # a power of two, twice the words: probes stay short
    _CLASS_WORDS = 1 << 16  # tokens.CLASSED_WORDS
    _CLASS_ARENA = 1 << 20
    _LONGEST_CLASSED = 64  # a longer word is classified, not kept
    _MAX_SEPARATORS = 64


cdef class WordClasses:
    """The words of texts read as ``tokens.words`` reads them, each by its class:
    ``classify(word)`` of a word met for the first time, kept by the word's UTF-8 bytes, so a
    word met before costs no str, where ``words`` makes one a word (issue 15: the relevance's
    words and the link texts' term masks were ~10% of a step).

    A class is ``bits << 1 | uncounted``: the word's bits (a query's term bits) and whether
    it is left out of the count (a stop word). ``read`` counts, ``union`` ors the bits.

    ``words`` reads an ASCII text as runs of ``a-z`` and ``0-9`` after ASCII lower-casing,
    and ``separators`` (``tokens.ASCII_SEPARATORS``: characters outside ASCII that are
    neither letters nor digits) as spaces; any other text by its Unicode rule,
    ``unicode_words(text)`` (the runs of ``[^\\W_]`` in ``text.casefold()``). Case folding
    maps each character alone, and a character outside a word (an ASCII one that is no
    letter or digit, a separator) folds to one outside a word, so the text between two such
    characters reads alike alone or in the whole: each run holding another character outside
    ASCII is given to ``unicode_words``, the rest is read here.
    """

    cdef uint32_t* _slots  # 0: empty; else an entry's index + 1
    cdef uint64_t* _keys
    cdef int64_t* _classes
    cdef uint32_t* _starts
    cdef uint32_t* _sizes
    cdef unsigned char* _arena
    cdef Py_ssize_t _words
    cdef Py_ssize_t _arena_used
    cdef object _classify
    cdef object _unicode_words
    cdef uint32_t _separators[_MAX_SEPARATORS]
    cdef Py_ssize_t _separator_count

    def __cinit__(self, object classify, object unicode_words, str separators):
        if len(separators) > _MAX_SEPARATORS:
            raise ValueError(f"at most {_MAX_SEPARATORS} separators")
        self._classify = classify
        self._unicode_words = unicode_words
        self._separator_count = len(separators)
        cdef Py_ssize_t at
        for at in range(self._separator_count):
            self._separators[at] = <uint32_t>ord(separators[at])
        self._slots = <uint32_t*>_allocate(_CLASS_SLOTS * sizeof(uint32_t))
        memset(self._slots, 0, _CLASS_SLOTS * sizeof(uint32_t))
        self._keys = <uint64_t*>_allocate(_CLASS_WORDS * sizeof(uint64_t))
        self._classes = <int64_t*>_allocate(_CLASS_WORDS * sizeof(int64_t))
        self._starts = <uint32_t*>_allocate(_CLASS_WORDS * sizeof(uint32_t))
        self._sizes = <uint32_t*>_allocate(_CLASS_WORDS * sizeof(uint32_t))
        self._arena = <unsigned char*>_allocate(_CLASS_ARENA)

    def __dealloc__(self):
        free(self._slots)
        free(self._keys)
        free(self._classes)
        free(self._starts)
        free(self._sizes)
        free(self._arena)

    def __len__(self):
        """How many words are kept."""
        return self._words

    def clear(self):
        """Forget every word kept."""
        memset(self._slots, 0, _CLASS_SLOTS * sizeof(uint32_t))
        self._words = 0
        self._arena_used = 0

    cdef Py_ssize_t _slot_of(self, const unsigned char* word, Py_ssize_t size,
                             uint64_t key) noexcept nogil:
        """The word's slot, or the empty slot where it would go."""
        return _probe(self._slots, _CLASS_SLOTS - 1, self._keys, self._sizes, self._starts,
                      self._arena, word, size, key)

    cdef int64_t _class_of(self, const unsigned char* word, Py_ssize_t size,
                           object text) except? -1:
        """The class of the word whose UTF-8 is ``word``: kept, or ``classify(text)`` (the
        word as a str; None to decode it from ``word``, ASCII) and kept."""
        cdef uint64_t key = _fnv1a(word, size)
        cdef Py_ssize_t slot = self._slot_of(word, size, key)
        cdef int64_t value
        if self._slots[slot]:
            return self._classes[self._slots[slot] - 1]
        if text is None:
            text = PyUnicode_DecodeASCII(<const char*>word, size, NULL)
        value = self._classify(text)
        if value < 0:
            raise ValueError(f"a word's class is 0 or more, got {value}")
        if size > _LONGEST_CLASSED:
            return value
        # classify is Python: the table may have changed meanwhile (a word kept, the table
        # cleared), so the slot is found again
        slot = self._slot_of(word, size, key)
        if self._slots[slot]:
            return value
        if self._words == _CLASS_WORDS or self._arena_used + size > _CLASS_ARENA:
            self.clear()
            slot = key & (_CLASS_SLOTS - 1)
        memcpy(self._arena + self._arena_used, word, size)
        self._keys[self._words] = key
        self._classes[self._words] = value
        self._starts[self._words] = <uint32_t>self._arena_used
        self._sizes[self._words] = <uint32_t>size
        self._slots[slot] = <uint32_t>(self._words + 1)
        self._words += 1
        self._arena_used += size
        return value

    cdef bint _separates(self, uint32_t ch) noexcept:
        cdef Py_ssize_t at
        for at in range(self._separator_count):
            if self._separators[at] == ch:
                return True
        return False

    cdef bint _bounds(self, uint32_t ch) noexcept:
        """True for a character outside every word that folds to one: an ASCII character
        other than a letter or a digit, or a separator."""
        if ch < 0x80:
            return not (0x61 <= (ch | 0x20) <= 0x7A or 0x30 <= ch <= 0x39)
        return self._separates(ch)

    cdef int _scan(self, str text, list positions, list classes, Py_ssize_t* counts,
                   int64_t* union) except -1:
        """Read ``text``: ``counts`` gets its words and the counted ones, and ``union`` the
        or of all their bits; with ``positions`` and ``classes``, each counted word with bits
        adds its place among the counted words and its bits."""
        cdef Py_ssize_t length = len(text), at = 0, size = 0, start = 0, end
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        cdef uint32_t ch
        cdef int64_t word_class
        cdef bytes encoded
        cdef unsigned char* word = <unsigned char*>_allocate(length + 1)
        cdef list unicode_words
        cdef Py_ssize_t taken, count
        try:
            while at <= length:
                ch = PyUnicode_READ(kind, data, at) if at < length else 32
                if ch < 0x80:
                    if 0x41 <= ch <= 0x5A:  # A-Z: ASCII's lower case
                        ch += 32
                    if 0x61 <= ch <= 0x7A or 0x30 <= ch <= 0x39:
                        if not size:
                            start = at
                        word[size] = <unsigned char>ch
                        size += 1
                        at += 1
                        continue
                elif not self._separates(ch):
                    # a run words() reads by the Unicode rule: from the word this character
                    # is in (or starts) to the next character outside every word
                    end = at + 1
                    while end < length and not self._bounds(PyUnicode_READ(kind, data, end)):
                        end += 1
                    unicode_words = self._unicode_words(text[start if size else at:end])
                    count = len(unicode_words)
                    for taken in range(count):
                        encoded = (<str>unicode_words[taken]).encode("utf-8", "surrogatepass")
                        self._count(self._class_of(<const unsigned char*>PyBytes_AS_STRING(
                            encoded), len(encoded), unicode_words[taken]),
                            positions, classes, counts, union)
                    size = 0
                    at = end
                    continue
                if size:
                    self._count(self._class_of(word, size, None), positions, classes, counts,
                                union)
                    size = 0
                at += 1
            return 0
        finally:
            free(word)

    cdef inline int _count(self, int64_t word_class, list positions, list classes,
                           Py_ssize_t* counts, int64_t* union) except -1:
        cdef int64_t bits = word_class >> 1
        counts[0] += 1
        union[0] |= bits
        if not word_class & 1:
            if bits and positions is not None:
                positions.append(counts[1])
                classes.append(bits)
            counts[1] += 1
        return 0

    def read(self, object value):
        """``(words, counted, positions, bits)`` of the text: how many words it has, how many
        of them are counted, and for each counted word with bits its position among those
        counted and its bits, in order."""
        cdef Py_ssize_t counts[2]
        cdef int64_t union = 0
        cdef list positions = [], classes = []
        counts[0] = counts[1] = 0
        self._scan(_exact(value), positions, classes, counts, &union)
        return counts[0], counts[1], positions, classes

    def union(self, object value):
        """The bitwise or of the bits of the text's words, counted or not."""
        cdef Py_ssize_t counts[2]
        cdef int64_t union = 0
        counts[0] = counts[1] = 0
        self._scan(_exact(value), None, None, counts, &union)
        return union


# --------------------------------------------------------------------------- meaning

cdef enum:
    _LONGEST_ROW_WORD = 64  # a vocabulary word is at most this long (the shipped: 22)


cdef class WordRows:
    """A vocabulary of lowercase ASCII words, each found by its bytes: the rows of
    ``meaning.WordVectors``, whose texts are read as the runs of ``a-z`` in their lower
    case (``meaning._words``).

    ``cosine`` reads a text's words and sums their rows in one pass, where the reference
    lower-cases, encodes, translates and splits the text, makes a str a word and looks each
    up in a dict, then calls numpy three times (issue 15). Lower-casing is ASCII's, save for
    the two characters outside ASCII whose lower case holds an ASCII letter (``str.lower``:
    KELVIN SIGN is "k"; LATIN CAPITAL LETTER I WITH DOT ABOVE is "i" and a combining dot,
    which ends the word); every other character outside ASCII lowers to characters outside
    ASCII, which separate words.
    """

    cdef uint32_t* _slots  # 0: empty; else a row + 1
    cdef uint64_t* _keys  # by row
    cdef uint32_t* _starts  # by row, into the arena
    cdef uint32_t* _sizes  # by row
    cdef unsigned char* _arena
    cdef Py_ssize_t _mask
    cdef Py_ssize_t _rows

    def __cinit__(self, list words):
        cdef Py_ssize_t rows = len(words), slots = 16, row, size, used = 0, slot
        cdef bytes word
        cdef const unsigned char* data
        cdef uint64_t key
        encoded = []
        for text in words:
            word = _exact(text).encode("ascii", "replace")
            if len(word) > _LONGEST_ROW_WORD or len(word) == 0:
                raise ValueError(f"a vocabulary word has 1 to {_LONGEST_ROW_WORD} "
                                 f"characters, got {text!r}")
            encoded.append(word)
            used += len(word)
        while slots < 2 * rows:
            slots *= 2
        self._rows = rows
        self._mask = slots - 1
        self._slots = <uint32_t*>_allocate(slots * sizeof(uint32_t))
        memset(self._slots, 0, slots * sizeof(uint32_t))
        self._keys = <uint64_t*>_allocate(max(rows, 1) * sizeof(uint64_t))
        self._starts = <uint32_t*>_allocate(max(rows, 1) * sizeof(uint32_t))
        self._sizes = <uint32_t*>_allocate(max(rows, 1) * sizeof(uint32_t))
        self._arena = <unsigned char*>_allocate(max(used, 1))
        used = 0
        for row in range(rows):
            word = encoded[row]
            data = <const unsigned char*>PyBytes_AS_STRING(word)
            size = len(word)
            key = _fnv1a(data, size)
            memcpy(self._arena + used, data, size)
            self._keys[row] = key
            self._starts[row] = <uint32_t>used
            self._sizes[row] = <uint32_t>size
            used += size
            slot = self._slot_of(data, size, key)
            # a word twice: the later row, as the reference's dict keeps it
            self._slots[slot] = <uint32_t>(row + 1)

    def __dealloc__(self):
        free(self._slots)
        free(self._keys)
        free(self._starts)
        free(self._sizes)
        free(self._arena)

    def __len__(self):
        return self._rows

    cdef Py_ssize_t _slot_of(self, const unsigned char* word, Py_ssize_t size,
                             uint64_t key) noexcept nogil:
        """The word's slot, or the empty slot where it would go."""
        return _probe(self._slots, self._mask, self._keys, self._sizes, self._starts,
                      self._arena, word, size, key)

    def row(self, str word):
        """The row of ``word`` (as the vocabulary holds it), or -1."""
        cdef bytes data = word.encode("utf-8", "surrogatepass")
        cdef Py_ssize_t slot = self._slot_of(<const unsigned char*>PyBytes_AS_STRING(data),
                                             len(data), _fnv1a(
                                                 <const unsigned char*>PyBytes_AS_STRING(data),
                                                 len(data)))
        return <Py_ssize_t>self._slots[slot] - 1

    def cosine(self, object value, const signed char[:, ::1] codes,
               const double[::1] scales, const double[::1] query):
        """The cosine with ``query`` of the sum of the rows ``scales[r] · codes[r]`` of the
        text's known words, in their order; None when none is known or the sum is zero:
        ``meaning.WordVectors``' vector, then its dot with the query.

        The sum is numpy's to the bit: each product rounded to a double, the rows added one
        after another per dimension, as ``np.multiply(...).sum(axis=0)`` adds a C-ordered
        array's rows (the extension is built with ``-ffp-contract=off``, so no multiply and
        add are fused into one rounding). The norm and the dot are plain loops, not BLAS's:
        they may differ from numpy's in the last bits, which the six decimals a cosine is
        kept to absorb (docs/DESIGN.md §11.12)."""
        cdef str text = _exact(value)
        cdef Py_ssize_t dimensions = codes.shape[1], length = len(text), at, row, size = 0
        cdef Py_ssize_t known = 0, dimension
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        cdef uint32_t ch
        cdef bint ends
        cdef unsigned char word[_LONGEST_ROW_WORD]
        cdef double scale, norm = 0.0, dot = 0.0
        cdef double* summed
        if codes.shape[0] != self._rows or scales.shape[0] != self._rows:
            raise ValueError("need one row of codes and one scale a vocabulary word")
        if query.shape[0] != dimensions:
            raise ValueError("need a query of the rows' dimensions")
        summed = <double*>_allocate(max(dimensions, 1) * sizeof(double))
        try:
            memset(summed, 0, dimensions * sizeof(double))
            for at in range(length + 1):
                ends = True
                if at < length:
                    ch = <uint32_t>PyUnicode_READ(kind, data, at)
                    if 0x41 <= ch <= 0x5A:
                        ch += 0x20
                    elif ch == 0x212A:  # KELVIN SIGN: "k"
                        ch = 0x6B
                    elif ch == 0x130:  # "i", then a combining dot: a separator
                        if size < _LONGEST_ROW_WORD:
                            word[size] = 0x69
                        size += 1
                        ch = 0x20
                    if 0x61 <= ch <= 0x7A:
                        if size < _LONGEST_ROW_WORD:
                            word[size] = <unsigned char>ch
                        size += 1
                        ends = False
                if ends and size:
                    if size <= _LONGEST_ROW_WORD:
                        row = <Py_ssize_t>self._slots[self._slot_of(word, size,
                                                                     _fnv1a(word, size))] - 1
                        if row >= 0:
                            scale = scales[row]
                            for dimension in range(dimensions):
                                summed[dimension] = (summed[dimension]
                                                     + <double>codes[row, dimension] * scale)
                            known += 1
                    size = 0
            if known == 0:
                return None
            for dimension in range(dimensions):
                norm = norm + summed[dimension] * summed[dimension]
                dot = dot + summed[dimension] * query[dimension]
            if norm == 0.0:
                return None
            return dot / sqrt(norm)
        finally:
            free(summed)
