# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""``lxmltree._walk_tree`` compiled: the same walk over libxml2's ``xmlNode``s in C
(docs/DESIGN.md §2; docs/DECISIONS.md, "the step, ninth pass: the walk compiled").

The walk was the largest phase of a step left in Python (1.8 raw lxml parses of ~8; issue
15). This module is optional: ``lxmltree`` imports it when it was built (``setup.py``, with
Cython and lxml's public C API, nothing linked against libxml2) and walks in Python when it
was not; tests/test_compiled_walk.py holds the two to the same ``Page``.

The same events in the same order as the Python walk, with three differences the
``Collector`` cannot see: elements other than ``<a>``/``<img>`` are passed as None (the
Collector reads attributes of those two only, and compares ``<a>`` by identity); an ``<a>``
with no ``href`` or a fragment-only one gets no events, since both of its events are no-ops
for the Collector (``_may_link``); and
adjacent text pieces with the same ``content`` flag and no event between them are given
to ``Collector.text`` as one string when they fit in its ``text_room`` (``text`` is
additive until the cap; near the cap the pieces go one by one, as in the Python walk).
Attribute values that are not ASCII go to the Python check (``str.lower`` and
``str.split`` know characters this module does not: the Kelvin sign, no-break spaces).
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from cpython.ref cimport PyObject
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, strlen
from libc.stdint cimport uintptr_t

from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode, xmlAttr, const_xmlChar
from lxml.includes.etreepublic cimport import_lxml__etree, elementFactory, _Element, _Document

from pagesift_ui.page.collect cimport Collector as CompiledCollector

import_lxml__etree()

from pagesift_ui.page.markup import (
    BOILERPLATE_ROLES, BOILERPLATE_TAGS, BOILERPLATE_TOKENS, COLLECTED, PRESERVE_WHITESPACE,
    SKIPPED,
)

cdef extern from "etree_defs.h":
    bint _isElement(xmlNode* c_node) nogil

cdef enum:
    F_COLLECTED = 2
    F_SKIPPED = 4
    F_BOILER_TAG = 8
    F_HEADER = 16
    F_PRESERVE = 32
    F_PROXY = 64   # <a>, <img>: the Collector reads the element
    F_ANCHOR = 128  # <a>: given to the Collector only when it may be a link (_may_link)
    NAME_SLOTS = 1024
    NAME_MAX = 700
    MAX_WORDS = 64


# the token and role sets as C strings (kept alive by these lists)
cdef list _tok_bytes = [t.encode("ascii") for t in sorted(BOILERPLATE_TOKENS)]
cdef list _role_bytes = [t.encode("ascii") for t in sorted(BOILERPLATE_ROLES)]
cdef const char* _tok_ptr[MAX_WORDS]
cdef Py_ssize_t _tok_len[MAX_WORDS]
cdef int _tok_n = len(_tok_bytes)
cdef const char* _role_ptr[MAX_WORDS]
cdef Py_ssize_t _role_len[MAX_WORDS]
cdef int _role_n = len(_role_bytes)
assert _tok_n <= MAX_WORDS and _role_n <= MAX_WORDS
for _i, _b in enumerate(_tok_bytes):
    _tok_ptr[_i] = <const char*>_b
    _tok_len[_i] = len(_b)
for _i, _b in enumerate(_role_bytes):
    _role_ptr[_i] = <const char*>_b
    _role_len[_i] = len(_b)

cdef const char* _banner_ptr[1]
cdef Py_ssize_t _banner_len[1]
_banner_ptr[0] = "banner"
_banner_len[0] = 6



cdef inline bint _pyspace(unsigned char c) noexcept nogil:
    # str.isspace() for an ASCII character (str.split/strip without arguments)
    return c == 32 or (9 <= c <= 13) or (28 <= c <= 31)


cdef inline bint _in_words(const unsigned char* s, Py_ssize_t n,
                           const char** ptrs, Py_ssize_t* lens, int count) noexcept nogil:
    """``s[:n].lower() in words`` for ASCII ``s``."""
    cdef int i
    cdef Py_ssize_t j
    cdef unsigned char c
    for i in range(count):
        if lens[i] != n:
            continue
        for j in range(n):
            c = s[j]
            if 65 <= c <= 90:
                c += 32
            if c != <unsigned char>ptrs[i][j]:
                break
        else:
            return True
    return False


cdef inline bint _is_ascii(const unsigned char* s) noexcept nogil:
    while s[0]:
        if s[0] >= 128:
            return False
        s += 1
    return True


cdef inline bint _streq(const_xmlChar* a, const char* b) noexcept nogil:
    cdef const unsigned char* x = <const unsigned char*>a
    cdef const unsigned char* y = <const unsigned char*>b
    while x[0] and x[0] == y[0]:
        x += 1
        y += 1
    return x[0] == y[0]


cdef inline xmlNode* _text_or_skip(xmlNode* c_node) noexcept nogil:
    # lxml's _textNodeOrSkip: the text run that .text/.tail read
    while c_node is not NULL:
        if c_node.type == tree.XML_TEXT_NODE or c_node.type == tree.XML_CDATA_SECTION_NODE:
            return c_node
        elif c_node.type == tree.XML_XINCLUDE_START or c_node.type == tree.XML_XINCLUDE_END:
            c_node = c_node.next
        else:
            return NULL
    return NULL


cdef Py_ssize_t _count_a(xmlNode* c_node) noexcept nogil:
    """``sum(1 for _ in element.iter("a"))``."""
    cdef Py_ssize_t count = 0
    cdef xmlNode* child
    cdef const_xmlChar* name = c_node.name
    if (name[0] == b'a' and name[1] == 0
            and (c_node.ns is NULL or c_node.ns.href is NULL or c_node.ns.href[0] == 0)):
        count = 1
    child = c_node.children
    while child is not NULL:
        if child.type == tree.XML_ELEMENT_NODE:
            count += _count_a(child)
        child = child.next
    return count


cdef inline const unsigned char* _plain_value(xmlAttr* attr) noexcept nogil:
    """The attribute's value as lxml's ``get`` gives it (xmlGetNsProp): "" without children,
    one text child as it is; NULL when it is anything else (an entity node among texts),
    which the caller leaves to Python."""
    if attr.children is NULL:
        return <const unsigned char*>b""
    if (attr.children.next is NULL and attr.children.content is not NULL
            and (attr.children.type == tree.XML_TEXT_NODE
                 or attr.children.type == tree.XML_CDATA_SECTION_NODE)):
        return <const unsigned char*>attr.children.content
    return NULL


cdef bint _may_link(xmlNode* c_node) noexcept nogil:
    """False when ``Collector._open_link`` would open no link for this ``<a>``: it has no
    ``href``, or one that is a fragment (``href.strip().startswith("#")``, for an ASCII
    start). Such an ``<a>``'s start and end are no-ops for the Collector, so the walk does
    not give them (55% of the Python docs' ``<a>`` are headings' "¶" and in-page anchors;
    issue 15). Anything it cannot read plainly (an entity in the value, a start outside
    ASCII) is a possible link: the Collector decides."""
    cdef xmlAttr* attr = c_node.properties
    cdef const unsigned char* s
    while attr is not NULL:
        if (attr.type == tree.XML_ATTRIBUTE_NODE and attr.ns is NULL
                and _streq(attr.name, "href")):
            s = _plain_value(attr)
            if s is NULL:
                return True
            while s[0] and _pyspace(s[0]):
                s += 1
            return s[0] != 35  # '#' ("" is the page itself: a link)
        attr = attr.next
    return False  # no href: never a link


cdef class _Walker:
    cdef object collector, c_start, c_end, c_text
    # the collector when it is the compiled one (collect.pxd): called in C, its fields read
    # in C, where a Python collector (the reference, in tests) is called through Python
    cdef CompiledCollector fast
    cdef _Document doc
    cdef bint whole_body, full
    cdef Py_ssize_t room, not_walked
    # pending text: UTF-8 bytes, their characters, their content flag
    cdef char* pend
    cdef Py_ssize_t pend_len, pend_cap, pend_chars
    cdef bint pend_content
    cdef char* scratch
    cdef Py_ssize_t scratch_cap
    cdef xmlNode** roots
    cdef Py_ssize_t nroots
    cdef const_xmlChar* name_keys[NAME_SLOTS]
    cdef int name_flags[NAME_SLOTS]
    cdef PyObject* name_objs[NAME_SLOTS]
    cdef int name_count
    cdef list keep
    cdef object python_check  # lxmltree._is_boilerplate_element, for values not in ASCII

    def __cinit__(self):
        self.pend = NULL
        self.scratch = NULL
        self.roots = NULL

    def __dealloc__(self):
        free(self.pend)
        free(self.scratch)
        free(self.roots)

    cdef int _reserve(self, char** buf, Py_ssize_t* cap, Py_ssize_t need) except -1:
        cdef Py_ssize_t size
        cdef char* grown
        if need <= cap[0]:
            return 0
        size = cap[0] * 2 if cap[0] else 4096
        while size < need:
            size *= 2
        grown = <char*>realloc(buf[0], size)
        if grown is NULL:
            raise MemoryError()
        buf[0] = grown
        cap[0] = size
        return 0

    cdef inline int refresh(self) except -1:
        if self.fast is not None:
            self.room = self.fast.text_room
            self.full = self.fast.full
        else:
            self.room = self.collector.text_room
            self.full = self.collector.full
        return 0

    cdef int flush(self) except -1:
        if not self.pend_len:
            return 0
        value = PyUnicode_DecodeUTF8(self.pend, self.pend_len, NULL)
        self.pend_len = 0
        self.pend_chars = 0
        return self.deliver(value, self.pend_content)

    cdef int deliver(self, str value, bint content) except -1:
        if self.fast is not None:
            self.fast.text(value, content)
        else:
            self.c_text(value, content)
        return self.refresh()

    cdef int emit(self, const char* p, Py_ssize_t n, bint content, bint preserve) except -1:
        cdef Py_ssize_t i, chars = 0
        cdef bint blank = True, newline = False
        cdef unsigned char c
        if self.full:
            if self.not_walked < 0:
                self.not_walked = 0
            return 0
        for i in range(n):
            c = <unsigned char>p[i]
            if (c & 0xC0) != 0x80:
                chars += 1
            if blank:
                if c == 10:
                    newline = True
                elif not (c == 32 or c == 9 or c == 12 or c == 13):
                    blank = False
        if blank and not preserve:
            p = "\n" if newline else " "
            n = 1
            chars = 1
        if self.pend_len and content != self.pend_content:
            self.flush()
        if self.pend_chars + chars > self.room:
            # it may not fit: the pieces one by one, as the Python walk gives them
            self.flush()
            return self.deliver(PyUnicode_DecodeUTF8(p, n, NULL), content)
        self._reserve(&self.pend, &self.pend_cap, self.pend_len + n)
        memcpy(self.pend + self.pend_len, p, n)
        self.pend_len += n
        self.pend_chars += chars
        self.pend_content = content
        return 0

    cdef int emit_run(self, xmlNode* c_node, bint content, bint preserve) except -1:
        """Emit ``.text`` (``c_node`` = children) or ``.tail`` (``c_node`` = next)."""
        cdef xmlNode* first = _text_or_skip(c_node)
        cdef xmlNode* other
        cdef Py_ssize_t n, total
        if first is NULL:
            return 0
        other = _text_or_skip(first.next)
        if other is NULL:
            if first.content is NULL:
                return 0
            n = strlen(<const char*>first.content)
            if n:
                self.emit(<const char*>first.content, n, content, preserve)
            return 0
        total = 0
        other = first
        while other is not NULL:
            if other.content is not NULL:
                n = strlen(<const char*>other.content)
                self._reserve(&self.scratch, &self.scratch_cap, total + n)
                memcpy(self.scratch + total, other.content, n)
                total += n
            other = _text_or_skip(other.next)
        if total:
            self.emit(self.scratch, total, content, preserve)
        return 0

    cdef int flags_of(self, xmlNode* c_node, PyObject** name_out) except -1:
        cdef const_xmlChar* key = c_node.name
        cdef size_t slot
        cdef int flags
        if c_node.ns is not NULL and c_node.ns.href is not NULL:
            name_out[0] = NULL  # "{ns}name": in none of the sets
            return 0
        slot = ((<uintptr_t>key) >> 4) & (NAME_SLOTS - 1)
        while self.name_keys[slot] is not NULL:
            if self.name_keys[slot] == key:
                name_out[0] = self.name_objs[slot]
                return self.name_flags[slot]
            slot = (slot + 1) & (NAME_SLOTS - 1)
        name = PyUnicode_DecodeUTF8(<const char*>key, strlen(<const char*>key), NULL)
        flags = 0
        if name in COLLECTED:
            flags |= F_COLLECTED
        if name in SKIPPED:
            flags |= F_SKIPPED
        if name in BOILERPLATE_TAGS:
            flags |= F_BOILER_TAG
        if name == "header":
            flags |= F_HEADER
        if name in PRESERVE_WHITESPACE:
            flags |= F_PRESERVE
        if name == "a" or name == "img":
            flags |= F_PROXY
        if name == "a":
            flags |= F_ANCHOR
        self.keep.append(name)
        name_out[0] = <PyObject*>name
        if self.name_count < NAME_MAX:
            self.name_keys[slot] = key
            self.name_flags[slot] = flags
            self.name_objs[slot] = <PyObject*>name
            self.name_count += 1
        return flags

    cdef int is_boiler(self, xmlNode* c_node, int flags) except -1:
        """``_is_boilerplate_element``: in C for ASCII attribute values, else in Python."""
        cdef xmlAttr* attr
        cdef const_xmlChar* key
        cdef const unsigned char* value
        cdef const unsigned char* s
        cdef const unsigned char* t
        cdef int which
        if flags & F_BOILER_TAG or (self.whole_body and flags & F_HEADER):
            return 1
        attr = c_node.properties
        while attr is not NULL:
            if attr.type != tree.XML_ATTRIBUTE_NODE or (attr.ns is not NULL and attr.ns.href is not NULL):
                attr = attr.next
                continue
            key = attr.name
            if _streq(key, "hidden"):
                return 1
            if _streq(key, "class"):
                which = 1
            elif _streq(key, "id"):
                which = 2
            elif _streq(key, "aria-hidden"):
                which = 3
            elif _streq(key, "role"):
                which = 4
            else:
                attr = attr.next
                continue
            value = _plain_value(attr)
            if value is NULL:
                return self.python_boiler(c_node)
            if which == 3:
                if _streq(<const_xmlChar*>value, "true"):
                    return 1
            elif not _is_ascii(value):
                return self.python_boiler(c_node)
            elif which == 2:
                if _in_words(value, strlen(<const char*>value), _tok_ptr, _tok_len, _tok_n):
                    return 1
            elif which == 1:
                s = value
                while True:
                    while s[0] and _pyspace(s[0]):
                        s += 1
                    if not s[0]:
                        break
                    t = s
                    while t[0] and not _pyspace(t[0]):
                        t += 1
                    if _in_words(s, t - s, _tok_ptr, _tok_len, _tok_n):
                        return 1
                    s = t
            else:  # role, stripped and lowercased
                s = value
                while s[0] and _pyspace(s[0]):
                    s += 1
                t = s + strlen(<const char*>s)
                while t > s and _pyspace((t - 1)[0]):
                    t -= 1
                if _in_words(s, t - s, _role_ptr, _role_len, _role_n):
                    return 1
                if self.whole_body and _in_words(s, t - s, _banner_ptr, _banner_len, 1):
                    return 1
            attr = attr.next
        return 0

    cdef int python_boiler(self, xmlNode* c_node) except -1:
        # the tag was checked already: "" is in none of the tag sets
        return 1 if self.python_check("", elementFactory(self.doc, c_node), self.whole_body) else 0

    cdef inline bint is_root(self, xmlNode* c_node) noexcept:
        cdef Py_ssize_t i
        for i in range(self.nroots):
            if self.roots[i] == c_node:
                return True
        return False

    cdef int walk(self, xmlNode* c_node, int flags, object name,
                  bint in_root, bint boiler, bint preserve) except -1:
        cdef bint content, collected
        cdef object element = None
        cdef xmlNode* child
        cdef int child_flags
        cdef PyObject* child_name
        if self.nroots and self.is_root(c_node):
            in_root, boiler = True, False
        elif not boiler:
            boiler = self.is_boiler(c_node, flags)
        content = in_root and not boiler
        collected = (flags & F_COLLECTED) != 0
        if collected and flags & F_ANCHOR and not _may_link(c_node):
            collected = False
        if collected:
            if flags & F_PROXY:
                element = elementFactory(self.doc, c_node)
            self.flush()
            if self.fast is not None:
                self.fast.start(name, element, content)
            else:
                self.c_start(name, element, content)
            self.refresh()
        if flags & F_PRESERVE:
            preserve = True
        self.emit_run(c_node.children, content, preserve)
        child = c_node.children
        while child is not NULL:
            if _isElement(child):
                if self.full:
                    if self.not_walked < 0:
                        self.not_walked = 0
                    if child.type == tree.XML_ELEMENT_NODE:
                        self.not_walked += _count_a(child)
                elif child.type == tree.XML_ELEMENT_NODE:
                    child_flags = self.flags_of(child, &child_name)
                    if not (child_flags & F_SKIPPED):
                        self.walk(child, child_flags,
                                  <object>child_name if child_name is not NULL else None,
                                  in_root, boiler, preserve)
                self.emit_run(child.next, content, preserve)
            child = child.next
        if collected:
            self.flush()
            if self.fast is not None:
                self.fast.end(name, element, content)
            else:
                self.c_end(name, element, content)
            self.refresh()
        return 0


def walk_tree(body, main_roots, collector, python_check):
    """``lxmltree._walk_tree(body, main_roots, collector)`` in C; ``python_check`` is
    ``lxmltree._is_boilerplate_element``, asked about an element whose attribute values are
    not all ASCII. Returns what the Python walk returns: the links not walked, or -1."""
    cdef _Walker w = _Walker()
    cdef _Element root_element = <_Element?>body
    cdef Py_ssize_t i
    cdef PyObject* body_name
    w.python_check = python_check
    w.keep = []
    w.collector = collector
    w.c_start, w.c_end, w.c_text = collector.start, collector.end, collector.text
    w.fast = collector if type(collector) is CompiledCollector else None
    w.doc = root_element._doc
    w.whole_body = main_roots is None
    w.not_walked = -1
    if main_roots:
        w.roots = <xmlNode**>malloc(len(main_roots) * sizeof(xmlNode*))
        if w.roots is NULL:
            raise MemoryError()
        for element in main_roots:
            w.roots[w.nroots] = (<_Element?>element)._c_node
            w.nroots += 1
    w.refresh()
    flags = w.flags_of(root_element._c_node, &body_name)
    w.walk(root_element._c_node, flags, body.tag, w.whole_body, False, False)
    w.flush()
    return w.not_walked


# --------------------------------------------------------------------------- the head

cdef const char* _main_ptr[1]
cdef Py_ssize_t _main_len[1]
_main_ptr[0] = "main"
_main_len[0] = 4


cdef xmlNode* _next_element(xmlNode* c_node, xmlNode* top) noexcept nogil:
    """The element after ``c_node`` in document order inside ``top`` (NULL after the last):
    its first element child, else the next element sibling of it or of an ancestor below
    ``top``. The order of lxml's ``iter`` and of XPath's descendant axis."""
    cdef xmlNode* next_node = c_node.children
    while next_node is not NULL:
        if next_node.type == tree.XML_ELEMENT_NODE:
            return next_node
        next_node = next_node.next
    while c_node is not top and c_node is not NULL:
        next_node = c_node.next
        while next_node is not NULL:
            if next_node.type == tree.XML_ELEMENT_NODE:
                return next_node
            next_node = next_node.next
        c_node = c_node.parent
    return NULL


cdef inline bint _is_head_part(const_xmlChar* name) noexcept nogil:
    return (_streq(name, "title") or _streq(name, "base") or _streq(name, "meta")
            or _streq(name, "link") or _streq(name, "body"))


def head_parts(root):
    """``list(root.iter("title", "base", "meta", "link", "body"))``: the elements
    ``lxmltree.read_tree`` reads the head from, in document order, found in C where lxml's
    filtered iterator went through its own machinery for every element of the page (with
    the role search below, ~5% of ``read_tree`` on the Python docs; issue 15)."""
    cdef _Element root_element = <_Element?>root
    cdef xmlNode* top = root_element._c_node
    cdef xmlNode* c_node = top
    cdef list parts = []
    while c_node is not NULL:
        if c_node.ns is NULL and _is_head_part(c_node.name):
            parts.append(elementFactory(root_element._doc, c_node))
        c_node = _next_element(c_node, top)
    return parts


def main_by_role(body):
    """The first element below ``body`` whose ``role``, stripped and lower-cased, is
    "main" (what ``lxmltree.read_tree`` looks for by the XPath ``descendant::*/@role`` on a
    page with no ``<main>`` and no ``<article>``), or None; False when a role's value is not
    plain ASCII text (an entity in it, a character outside ASCII, whose case and white space
    are ``str``'s): the XPath decides then."""
    cdef _Element body_element = <_Element?>body
    cdef xmlNode* top = body_element._c_node
    cdef xmlNode* c_node = _next_element(top, top)
    cdef xmlAttr* attr
    cdef const unsigned char* value
    cdef const unsigned char* end
    while c_node is not NULL:
        attr = c_node.properties
        while attr is not NULL:
            if (attr.type == tree.XML_ATTRIBUTE_NODE and attr.ns is NULL
                    and _streq(attr.name, "role")):
                value = _plain_value(attr)
                if value is NULL or not _is_ascii(value):
                    return False
                while value[0] and _pyspace(value[0]):
                    value += 1
                end = value + strlen(<const char*>value)
                while end > value and _pyspace((end - 1)[0]):
                    end -= 1
                if _in_words(value, end - value, _main_ptr, _main_len, 1):
                    return elementFactory(body_element._doc, c_node)
            attr = attr.next
        c_node = _next_element(c_node, top)
    return None
