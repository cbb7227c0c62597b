"""The fetch policy: what the fetcher may do, and which addresses it may connect to.

``FetchPolicy`` holds the settings (validated once, here). The address rules below turn a
host name into an IP the fetcher may dial.

The fetcher resolves a host itself, checks the address here, and then connects to that
address (not the name), so a second DNS answer cannot swap in a forbidden address between
the check and the connect (DNS rebinding).

RFC 6761 §6.3: ``localhost`` and every name ending in ``.localhost`` are loopback names that
must resolve to loopback without asking DNS. The demo web lives on such names
(``www.uni.localhost``), served by name-based virtual hosts on 127.0.0.1.
"""

from __future__ import annotations

import enum
import ipaddress
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass

from pagesift_ui.errors import BlockedByPolicy, ConfigError, ConnectFailed
from pagesift_ui.frontier.checks import is_count, is_number

__all__ = [
    "DEFAULT_USER_AGENT",
    "AddressKind",
    "CheckedAddress",
    "FetchPolicy",
    "Resolver",
    "check_host",
    "classify_address",
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
    ``max_body_bytes`` caps the *decoded* body; ``allow_private`` permits RFC 1918/4193
    addresses (loopback is always allowed). The checks here are what the fetcher needs to
    work at all; ``CrawlConfig`` narrows them to the ranges a user may choose.
    """

    user_agent: str
    delay_s: float
    respect_robots: bool
    connect_timeout_s: float
    read_timeout_s: float
    max_redirects: int
    max_body_bytes: int
    allow_private: bool

    def __post_init__(self) -> None:
        ua = self.user_agent
        if not isinstance(ua, str) or not ua.strip() or not ua.isprintable() or not ua.isascii():
            raise ConfigError(
                "user_agent", f"must be a non-empty printable ASCII string, got {ua!r}"
            )
        if not is_number(self.delay_s) or self.delay_s < 0:
            raise ConfigError("delay_s", f"must be a finite number ≥ 0, got {self.delay_s!r}")
        for name in ("connect_timeout_s", "read_timeout_s"):
            value = getattr(self, name)
            if not is_number(value) or value <= 0:
                raise ConfigError(name, f"must be a finite number > 0, got {value!r}")
        if not is_count(self.max_redirects) or self.max_redirects < 0:
            raise ConfigError(
                "max_redirects", f"must be an integer ≥ 0, got {self.max_redirects!r}"
            )
        if not is_count(self.max_body_bytes) or self.max_body_bytes <= 0:
            raise ConfigError(
                "max_body_bytes", f"must be an integer > 0, got {self.max_body_bytes!r}"
            )
        for name in ("respect_robots", "allow_private"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(name, f"must be True or False, got {getattr(self, name)!r}")


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


def classify_address(address: str) -> AddressKind:
    """Classify an IP address string; raises ValueError when it is not one."""
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address)
    # ::ffff:10.0.0.1 reaches 10.0.0.1, so judge the IPv4 address it wraps (RFC 4291 §2.5.5.2).
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
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


def check_host(url: str, host: str, *, resolver: Resolver, allow_private: bool) -> CheckedAddress:
    """Resolve ``host`` and return the first address the network policy allows.

    Loopback and public addresses are always allowed; private ones (RFC 1918, RFC 4193,
    RFC 6598) only with ``allow_private``. Link-local (cloud metadata lives at
    169.254.169.254), unspecified, multicast and reserved addresses are never allowed:
    no web page is served there that a crawler should read.

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
    for address, kind in judged:
        if kind is not None and _is_allowed(kind, allow_private):
            return CheckedAddress(host=name, address=address, kind=kind)
    address, kind = judged[0]
    what = f"a {kind.value} address" if kind is not None else "not an IP address"
    hint = " (set allow_private to crawl an intranet)" if kind is AddressKind.PRIVATE else ""
    raise BlockedByPolicy(url, f"{url} was not fetched: {name} is at {address}, {what}{hint}")


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


def _is_allowed(kind: AddressKind, allow_private: bool) -> bool:
    if kind in (AddressKind.LOOPBACK, AddressKind.PUBLIC):
        return True
    return kind is AddressKind.PRIVATE and allow_private
