"""Content-Encoding undone in bounded memory, whatever the server sends.

RFC 9110 §8.4: ``Content-Encoding`` lists the codings in the order they were applied, so
they are undone from the last to the first. Each layer is a ``zlib.decompressobj`` asked for
at most ``STEP`` bytes per call (``max_length``), the rest of its input kept in
``unconsumed_tail``, and every piece goes on to the next layer before more is inflated. What
one network read can cost is then a few ``STEP``\\ s, not what a chain of decoders would make
of a whole chunk: 1,827 bytes of ``gzip, gzip`` inflate to 2 GiB, which httpx's chained
decoders held in memory at once before any size cap could look at it.

Only gzip (and its alias x-gzip, §8.4.1.3), deflate (§8.4.1.2: the zlib format; raw deflate
is accepted too, as browsers do) and identity are decoded, and at most ``MAX_CODINGS``
layers: the fetcher asks for ``gzip, deflate`` only (``Accept-Encoding``), and no honest
server compresses twice over.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

__all__ = ["MAX_CODINGS", "STEP", "ContentDecoder", "DecodingError"]

#: The most content codings undone on one body.
MAX_CODINGS = 2
#: At most this many bytes come out of one decoder call.
STEP = 64 * 1024

_ALIASES = {"gzip": "gzip", "x-gzip": "gzip", "deflate": "deflate"}
_WBITS = {"gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}


class DecodingError(ValueError):
    """A body that cannot be decoded; the message says why in words for a person."""


class _Layer:
    """One content coding undone in pieces of at most ``STEP`` bytes."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self._inflater = zlib.decompressobj(_WBITS[coding])
        self._started = False

    def undo(self, data: bytes) -> Iterator[bytes]:
        """The decoded pieces ``data`` gives, each at most ``STEP`` bytes long."""
        pending = data
        while not self._inflater.eof:
            try:
                piece = self._inflater.decompress(pending, STEP)
            except zlib.error as exc:
                if self.coding == "deflate" and not self._started:
                    # RFC 9110 says zlib format; some servers send raw deflate (RFC 1951).
                    self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._started = True
                    continue
                raise DecodingError(f"not valid {self.coding} data ({exc})") from exc
            self._started = True
            pending = self._inflater.unconsumed_tail
            if piece:
                yield piece
            # a full piece may leave output inside the inflater even when the input is used up
            if not pending and len(piece) < STEP:
                return
        # anything after the end of the stream (trailing garbage) is ignored, as browsers do


class ContentDecoder:
    """Undoes a response's content codings, piece by piece (see the module docstring)."""

    def __init__(self, codings: list[str]) -> None:
        self.codings = tuple(codings)
        self._layers = [_Layer(coding) for coding in reversed(codings)]

    @classmethod
    def for_header(cls, value: str | None) -> ContentDecoder:
        """The decoder for a ``Content-Encoding`` header value (None: not encoded).

        Raises ``DecodingError`` for a coding not decoded here or more than two of them.
        """
        codings = []
        for raw in (value or "").split(","):
            name = raw.strip().lower()
            if name in ("", "identity"):
                continue
            if name not in _ALIASES:
                raise DecodingError(
                    f"Content-Encoding {raw.strip()} is not supported (only gzip and deflate, "
                    "as the request's Accept-Encoding said)"
                )
            codings.append(_ALIASES[name])
        if len(codings) > MAX_CODINGS:
            raise DecodingError(
                f"Content-Encoding stacks {len(codings)} codings ({', '.join(codings)}); at "
                f"most {MAX_CODINGS} are decoded"
            )
        return cls(codings)

    def feed(self, data: bytes) -> Iterator[bytes]:
        """The decoded pieces of the next raw bytes, each at most ``STEP`` bytes long (a body
        that is not encoded passes through as it came)."""
        yield from self._through(0, data)

    def _through(self, index: int, data: bytes) -> Iterator[bytes]:
        if index == len(self._layers):
            if data:
                yield data
            return
        for piece in self._layers[index].undo(data):
            yield from self._through(index + 1, piece)
