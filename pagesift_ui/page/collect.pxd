# The C types of ``collect.Collector``'s fields, for the compiled build of collect.py (Cython's
# pure Python mode: the .py stays the one source; setup.py).
cdef class _OpenLink:
    cdef public object node
    cdef public str url
    cdef public bint in_main
    cdef public bint nofollow
    cdef public object hreflang
    cdef public list parts
    cdef public list image_alts


cdef class Collector:
    cdef public str base
    cdef public bint page_nofollow
    cdef public Py_ssize_t text_room
    cdef public bint full
    cdef public list markdown_blocks
    cdef public list plain_blocks
    cdef public list headings
    cdef public list links
    cdef list _markdown
    cdef bint _markdown_shows
    cdef list _plain
    cdef str _prefix
    cdef Py_ssize_t _pre_depth
    cdef object _heading
    cdef list _open_links
    cdef list _lists
    cdef bint _term
    cdef Py_ssize_t _one_link_term
    cdef bint _definition

    cpdef text(self, str value, bint content)
    cpdef start(self, str name, object element, bint content)
    cpdef end(self, str name, object element, bint content)
    cpdef flush(self, bint end)
    cdef _start_block(self, str name, bint content)
    cdef _entry(self, str definition, str plain)
    cdef _flush_preformatted(self)
    cdef _open_link(self, object tag, bint content)
    cdef _close_link(self, bint content)
