"""The fetch policy: what the fetcher may do, and which addresses it may connect to.

``FetchPolicy`` holds the settings (validated once, here). The address rules below turn a
host name into an IP the fetcher may dial.

The fetcher resolves a host itself, checks the address here, and then connects to that
address (not the name), so a second DNS answer cannot swap in a forbidden address between
the check and the connect (DNS rebinding).

RFC 6761 §6.3: ``localhost`` and every name ending in ``.localhost`` are loopback names that
must resolve to loopback without asking DNS. The demo web lives on such names
(``www.uni.localhost``), served by name-based virtual hosts on 127.0.0.1.

Loopback and private addresses are the machine's and the intranet's own services (an admin
page on 127.0.0.1:8080, a router at 192.168.1.1). A crawl may reach one only at **the seed's
own origin** — the seed's scheme and port at an address of the seed's host, that is the very
socket the seed is served from, under any host name (the demo's ``*.localhost`` sites share
127.0.0.1 and one port) — or when the user sets ``allow_private``. A page that redirects to
127.0.0.1 on another port, or to another private address, is refused.
"""

from __future__ import annotations

import enum
import ipaddress
import logging
import socket
from collections.abc import Callable, Collection
from dataclasses import dataclass
from urllib.parse import urlsplit

from pagesift_ui.errors import BlockedByPolicy, ConfigError, ConnectFailed, shown
from pagesift_ui.frontier.checks import is_count, is_number

__all__ = [
    "DEFAULT_USER_AGENT",
    "AddressKind",
    "CheckedAddress",
    "FetchPolicy",
    "Origin",
    "Resolver",
    "check_host",
    "classify_address",
    "home_addresses",
    "is_localhost_name",
    "system_resolver",
]

logger = logging.getLogger(__name__)

Resolver = Callable[[str], list[str]]
"""Maps an ASCII (IDNA) host name to its IP addresses, in preference order."""

LOOPBACK_ADDRESS = "127.0.0.1"
#: How the crawler names itself (the default of ``CrawlConfig.user_agent``).
DEFAULT_USER_AGENT = "pagesift-ui/0.1 (+https://github.com/pagesift/pagesift-ui)"


@dataclass(frozen=True, slots=True, kw_only=True)
class FetchPolicy:
    """How the fetcher behaves. Every field is required: the defaults, polite for the open
    web, are ``CrawlConfig``'s, and ``CrawlConfig.fetch_policy()`` builds the policy of a crawl.

    ``delay_s`` is the minimum time between two requests to one host (0 on loopback);
    ``max_body_bytes`` caps the *decoded* body; ``allow_private`` permits loopback and
    RFC 1918/4193/6598 addresses anywhere, while without it only ``seed_url``'s own origin
    may be on one (see the module docstring; None: no origin is exempt).
    ``fetch_deadline_s`` bounds one HTTP exchange from the request to the body's last byte
    (each redirect hop and each robots.txt download is one), whatever the read timeout lets
    a dripping server do. A ``Crawl-delay`` or ``Retry-After`` longer than
    ``max_crawl_delay_s`` / ``max_retry_after_s`` is waited only that long. ``concurrency``
    is the most fetches the fetcher runs at once (its prefetch threads), ``per_host`` the most
    requests to one host at a time (1: one, as a polite crawler does unless told otherwise;
    docs/DESIGN.md §11.14). The checks here
    are what the fetcher needs to work at all; ``CrawlConfig`` narrows them to the ranges a
    user may choose.
    """

    user_agent: str
    delay_s: float
    respect_robots: bool
    connect_timeout_s: float
    read_timeout_s: float
    fetch_deadline_s: float
    max_redirects: int
    max_body_bytes: int
    allow_private: bool
    seed_url: str | None
    max_crawl_delay_s: float
    max_retry_after_s: float
    concurrency: int
    per_host: int

    def __post_init__(self) -> None:
        ua = self.user_agent
        if not isinstance(ua, str) or not ua.strip() or not ua.isprintable() or not ua.isascii():
            raise ConfigError(
                "user_agent", f"must be a non-empty printable ASCII string, got {shown(ua)}"
            )
        for name in ("delay_s", "max_crawl_delay_s", "max_retry_after_s"):
            value = getattr(self, name)
            if not is_number(value) or value < 0:
                raise ConfigError(name, f"must be a finite number ≥ 0, got {shown(value)}")
        for name in ("connect_timeout_s", "read_timeout_s", "fetch_deadline_s"):
            value = getattr(self, name)
            if not is_number(value) or value <= 0:
                raise ConfigError(name, f"must be a finite number > 0, got {shown(value)}")
        if not is_count(self.max_redirects) or self.max_redirects < 0:
            raise ConfigError(
                "max_redirects", f"must be an integer ≥ 0, got {shown(self.max_redirects)}"
            )
        for name in ("concurrency", "per_host"):
            value = getattr(self, name)
            if not is_count(value) or value < 1:
                raise ConfigError(name, f"must be an integer ≥ 1, got {shown(value)}")
        if not is_count(self.max_body_bytes) or self.max_body_bytes <= 0:
            raise ConfigError(
                "max_body_bytes", f"must be an integer > 0, got {shown(self.max_body_bytes)}"
            )
        for name in ("respect_robots", "allow_private"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(name, f"must be True or False, got {shown(getattr(self, name))}")
        if self.seed_url is not None:
            try:
                Origin.of(self.seed_url)
            except ValueError as exc:
                raise ConfigError("seed_url", str(exc)) from exc


@dataclass(frozen=True, slots=True)
class Origin:
    """An origin as RFC 6454 §4 has it: scheme, host (lower case, no trailing dot), port."""

    scheme: str
    host: str
    port: int

    @classmethod
    def of(cls, url: str) -> Origin:
        """The origin of an absolute http(s) URL; ValueError for anything else."""
        if not isinstance(url, str):
            raise ValueError(f"{url!r} is not a URL")
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{url!r} is not an absolute http(s) URL")
        port = parts.port  # ValueError for a port out of range
        default = 443 if scheme == "https" else 80
        return cls(scheme, parts.hostname.lower().rstrip("."), port or default)


class AddressKind(enum.Enum):
    """What an IP address is, as far as the network policy cares."""

    LOOPBACK = "loopback"
    PUBLIC = "public"
    PRIVATE = "private"
    LINK_LOCAL = "link-local"
    UNSPECIFIED = "unspecified"
    MULTICAST = "multicast"
    RESERVED = "reserved"


@dataclass(frozen=True, slots=True)
class CheckedAddress:
    """A host name together with the address the policy allowed for it.

    ``host`` is the lower-case ASCII name from the URL (what goes in ``Host`` and SNI);
    ``address`` is the IP to connect to; ``kind`` says why it was allowed.
    """

    host: str
    address: str
    kind: AddressKind


def is_localhost_name(host: str) -> bool:
    """True for ``localhost`` and any ``*.localhost`` name (RFC 6761 §6.3)."""
    name = host.lower().rstrip(".")
    return name == "localhost" or name.endswith(".localhost")


#: RFC 6052 §2.1: the NAT64 well-known prefix; the IPv4 address is the last 32 bits.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
#: RFC 8215: NAT64 prefixes for local use, whatever IPv4 they translate to.
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")


def classify_address(address: str) -> AddressKind:
    """Classify an IP address string; raises ValueError when it is not one.

    An IPv6 address that carries an IPv4 address on the way to it is judged by that IPv4
    address: IPv4-mapped ``::ffff:0:0/96`` (RFC 4291 §2.5.5.2), 6to4 ``2002::/16``
    (RFC 3056 §2), NAT64 ``64:ff9b::/96`` (RFC 6052 §2.1) and Teredo ``2001::/32``
    (RFC 4380 §4: server and client), so ``2002:a9fe:a9fe::1`` is 169.254.169.254,
    link-local, not public. When two are embedded, the first one that is not public decides.
    """
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _NAT64_LOCAL:
            return AddressKind.PRIVATE
        embedded = _embedded_ipv4(ip)
        if embedded:
            kinds = [_classify(inner) for inner in embedded]
            return next((k for k in kinds if k is not AddressKind.PUBLIC), AddressKind.PUBLIC)
    return _classify(ip)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        server, client = ip.teredo
        return [client, server]
    if ip in _NAT64:
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    return []


def _classify(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> AddressKind:
    if ip.is_loopback:
        return AddressKind.LOOPBACK
    if ip.is_unspecified:
        return AddressKind.UNSPECIFIED
    if ip.is_link_local:
        return AddressKind.LINK_LOCAL
    if ip.is_multicast:
        return AddressKind.MULTICAST
    if ip.is_reserved:
        return AddressKind.RESERVED
    # not is_global also catches shared address space such as 100.64.0.0/10 (RFC 6598).
    if ip.is_private or not ip.is_global:
        return AddressKind.PRIVATE
    return AddressKind.PUBLIC


def system_resolver(host: str) -> list[str]:
    """Resolve ``host`` with the operating system (``socket.getaddrinfo``)."""
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def check_host(
    url: str,
    host: str,
    *,
    resolver: Resolver,
    allow_private: bool,
    home: Collection[str] = (),
    where: str = "",
) -> CheckedAddress:
    """Resolve ``host`` and return the first address the network policy allows.

    Public addresses are always allowed. Loopback and private ones (RFC 1918, RFC 4193,
    RFC 6598) only with ``allow_private``, or when the address is in ``home``: the caller
    passes the seed host's addresses when the URL has the seed's scheme and port (the
    seed's own origin, see the module docstring), else nothing. Link-local (cloud metadata
    lives at 169.254.169.254), unspecified, multicast and reserved addresses are never
    allowed: no web page is served there that a crawler should read. ``where`` (the URL's
    host and port) is what the message names, ``host`` by default.

    Raises
    ------
    ConnectFailed
        The name does not resolve. ``url`` is named in the message.
    BlockedByPolicy
        No address of the host is allowed.
    """
    name = host.lower().rstrip(".")
    addresses = _addresses_for(url, name, resolver)
    judged = [(address, _kind_or_none(address)) for address in addresses]
    # a name with public and local addresses is reached at a public one: the local address
    # in its DNS answer is not its owner's to offer
    allowed = [
        CheckedAddress(host=name, address=address, kind=kind)
        for address, kind in judged
        if kind is not None and _is_allowed(kind, allow_private or address in home)
    ]
    if allowed:
        return next((a for a in allowed if a.kind is AddressKind.PUBLIC), allowed[0])
    address, kind = judged[0]
    what = f"a {kind.value} address" if kind is not None else "not an IP address"
    hint = ""
    if kind in (AddressKind.LOOPBACK, AddressKind.PRIVATE):
        hint = (" that is not the seed's own origin (set allow_private to crawl local or "
                "intranet services)")
    raise BlockedByPolicy(
        url, f"{url} was not fetched: {where or name} is at {address}, {what}{hint}"
    )


def _addresses_for(url: str, name: str, resolver: Resolver) -> list[str]:
    if _kind_or_none(name) is not None:
        return [name]
    if is_localhost_name(name):
        return [LOOPBACK_ADDRESS]
    try:
        addresses = resolver(name)
    except (OSError, UnicodeError) as exc:
        raise ConnectFailed(
            url, f"{url} could not be fetched: {name} did not resolve ({exc})"
        ) from exc
    if not addresses:
        raise ConnectFailed(url, f"{url} could not be fetched: {name} has no addresses")
    logger.debug("resolved %s to %s", name, addresses)
    return addresses


def _kind_or_none(address: str) -> AddressKind | None:
    try:
        return classify_address(address)
    except ValueError:
        return None


def _is_allowed(kind: AddressKind, local_ok: bool) -> bool:
    if kind is AddressKind.PUBLIC:
        return True
    return kind in (AddressKind.LOOPBACK, AddressKind.PRIVATE) and local_ok


def home_addresses(seed: Origin, resolver: Resolver) -> frozenset[str]:
    """The addresses of the seed's host: with the seed's scheme and port, its own origin.

    A seed host that does not resolve has none (its own fetch then fails as it would).
    """
    try:
        return frozenset(_addresses_for(seed.host, seed.host, resolver))
    except ConnectFailed:
        return frozenset()
