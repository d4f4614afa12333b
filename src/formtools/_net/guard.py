"""The target guard: which URLs may be fetched and which addresses may be connected to.

A URL is parsed the way a browser parses it (the WHATWG URL standard, through ``ada_url``), so
every spelling of an IPv4 address a browser accepts (``2130706433``, ``0177.0.0.1``,
``0x7f.1``, ``127.1``, ``127.0.0.1.``) is already ``127.0.0.1`` when the guard sees it, and a
zone id (``[fe80::1%25eth0]``) is no valid URL at all. Only ``http`` and ``https`` are fetched.

A host is resolved once, every address it resolves to is classified, and the caller connects
to those checked addresses only (see :mod:`formtools._net.transport`): a name that answers a
public address to the check and a private one to the connection (DNS rebinding) gets nowhere.
IPv6 addresses that carry an IPv4 address (IPv4-mapped, -compatible and -translated, 6to4, NAT64)
are judged by the IPv4 address they reach: ``::ffff:0:7f00:1`` (SIIT's IPv4-translated form, RFC
2765) counted as public, as Python's ``is_global`` has it, where a translator takes it to 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from typing import Any

import ada_url

from formtools._net.errors import BadURL, shown
from formtools.errors import quoted
from formtools._spec.limits import MAX_URL_CHARS

__all__ = ["ALLOWED_SCHEMES", "Refusal", "Target", "check_url", "checked", "classify", "connect_address", "resolved"]

ALLOWED_SCHEMES = ("http", "https")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_V4 = ipaddress.IPv4Network
_V6 = ipaddress.IPv6Network

# (range, why it is refused); the first match names the reason. Ordered most specific first.
_IPV4_RANGES: tuple[tuple[ipaddress.IPv4Network, str], ...] = (
    (_V4("255.255.255.255/32"), "broadcast"),
    (_V4("0.0.0.0/8"), "unspecified ('this network')"),
    (_V4("127.0.0.0/8"), "loopback"),
    (_V4("10.0.0.0/8"), "private"),
    (_V4("172.16.0.0/12"), "private"),
    (_V4("192.168.0.0/16"), "private"),
    (_V4("100.64.0.0/10"), "shared (carrier-grade NAT)"),
    (_V4("169.254.0.0/16"), "link-local"),
    (_V4("192.0.0.0/24"), "reserved (IETF protocol assignments)"),
    (_V4("192.0.2.0/24"), "documentation"),
    (_V4("198.51.100.0/24"), "documentation"),
    (_V4("203.0.113.0/24"), "documentation"),
    (_V4("198.18.0.0/15"), "benchmarking"),
    (_V4("192.88.99.0/24"), "reserved (6to4 relay anycast)"),
    (_V4("224.0.0.0/4"), "multicast"),
    (_V4("240.0.0.0/4"), "reserved"),
)

_IPV6_RANGES: tuple[tuple[ipaddress.IPv6Network, str], ...] = (
    (_V6("::/128"), "unspecified"),
    (_V6("::1/128"), "loopback"),
    (_V6("64:ff9b:1::/48"), "local-use NAT64"),
    (_V6("2001::/32"), "Teredo"),
    (_V6("2001:2::/48"), "benchmarking"),
    (_V6("2001:db8::/32"), "documentation"),
    (_V6("3fff::/20"), "documentation"),
    (_V6("100::/64"), "reserved (discard-only)"),
    (_V6("5f00::/16"), "reserved (SRv6 segment identifiers)"),
    (_V6("fc00::/7"), "private (unique local)"),
    (_V6("fe80::/10"), "link-local"),
    (_V6("fec0::/10"), "site-local"),
    (_V6("ff00::/8"), "multicast"),
)

# IPv6 prefixes whose addresses carry an IPv4 address: (prefix, where the IPv4 bits start)
_EMBEDDING: tuple[tuple[ipaddress.IPv6Network, int, str], ...] = (
    (_V6("::ffff:0:0/96"), 96, "IPv4-mapped"),
    (_V6("::ffff:0:0:0/96"), 96, "IPv4-translated"),
    (_V6("::/96"), 96, "IPv4-compatible"),
    (_V6("64:ff9b::/96"), 96, "NAT64"),
    (_V6("2002::/16"), 16, "6to4"),
)


def _embedded(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, str] | None:
    for network, start, name in _EMBEDDING:
        if address in network:
            bits = (int(address) >> (128 - start - 32)) & 0xFFFFFFFF
            return ipaddress.IPv4Address(bits), name
    return None


def classify(address: str | Address) -> str | None:
    """Why ``address`` must not be connected to (``"loopback"``, ``"private"``, …), or ``None``
    for a public address. An IPv6 address with a zone id is refused whatever it is (a zone
    names an interface of this machine); one that carries an IPv4 address is judged by it."""
    if isinstance(address, str):
        address = ipaddress.ip_address(address)
    if isinstance(address, ipaddress.IPv4Address):
        for network4, why in _IPV4_RANGES:
            if address in network4:
                return why
        return None if address.is_global else "reserved"
    if address.scope_id:
        return f"interface-scoped (zone id %{address.scope_id})"
    for network6, why in _IPV6_RANGES[:2]:  # :: and ::1 before the IPv4-compatible range
        if address in network6:
            return why
    inner = _embedded(address)
    if inner is not None:
        ipv4, name = inner
        why4 = classify(ipv4)
        return None if why4 is None else f"{why4} ({name} {ipv4})"
    for network6, why in _IPV6_RANGES[2:]:
        if address in network6:
            return why
    return None if address.is_global else "reserved"


def check_url(url: str, *, base: str | None = None) -> ada_url.URL:
    """``url`` (resolved against ``base``) parsed as a browser parses it; :class:`BadURL` unless
    it is a valid http or https URL."""
    try:
        parsed = ada_url.URL(url, base) if base is not None else ada_url.URL(url)
    except ValueError:
        raise BadURL(f"Could not fetch {quoted(url)}: it is not a valid URL.", url=shown(url)) from None
    if parsed.protocol[:-1] not in ALLOWED_SCHEMES:
        raise BadURL(
            f"Refused to fetch {quoted(parsed.href)}: only http and https URLs are fetched.",
            url=shown(parsed.href),
        )
    if len(parsed.href) > MAX_URL_CHARS:  # Chromium loads no such page, follows no such redirect
        raise BadURL(
            f"Could not fetch {quoted(parsed.href)}: it is {len(parsed.href):,} characters long once parsed, "
            f"past {MAX_URL_CHARS:,}, the longest URL Chromium goes to.",
            url=shown(parsed.href),
        )
    return parsed


class Refusal(Exception):
    """Raised where a connection is about to be made (no URL is known there); the fetch turns
    it into :class:`~formtools._net.errors.Blocked` naming the URL."""

    def __init__(self, host: str, address: str, reason: str) -> None:
        super().__init__(host, address, reason)
        self.host = host
        self.address = address
        self.reason = reason

    def __str__(self) -> str:
        article = "an" if self.reason[:1].lower() in "aeiou" else "a"
        if self.host.strip("[]") == self.address:
            return f"{self.address} is {article} {self.reason} address"
        return f"{self.host} resolves to {self.address}, {article} {self.reason} address"


#: ``(family, sockaddr)`` pairs, as ``getaddrinfo`` gives them, ready to connect to.
Target = tuple[int, Any]


def resolved(host: str, port: int) -> list[Target]:
    """Every address ``host`` stands for, looked up once. An IP literal is taken as it is (no
    lookup at all); a name goes through ``socket.getaddrinfo`` (looked up at call time, so a
    patched resolver is the one used)."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        literal = ipaddress.ip_address(bare)
    except ValueError:
        literal = None
    if isinstance(literal, ipaddress.IPv4Address):
        return [(socket.AF_INET, (str(literal), port))]
    if isinstance(literal, ipaddress.IPv6Address):
        return [(socket.AF_INET6, (bare, port, 0, 0))]
    infos = socket.getaddrinfo(bare, port, type=socket.SOCK_STREAM)
    found: list[Target] = []
    for family, _type, _proto, _name, sockaddr in infos:
        if family in (socket.AF_INET, socket.AF_INET6) and (family, sockaddr) not in found:
            found.append((family, sockaddr))
    if not found:
        raise socket.gaierror(f"{bare} has no IPv4 or IPv6 address")
    return found


def _address_of(target: Target) -> Address:
    family, sockaddr = target
    text = str(sockaddr[0])
    if family == socket.AF_INET6:
        scope = sockaddr[3] if len(sockaddr) > 3 else 0
        if scope and "%" not in text:
            text = f"{text}%{scope}"
    return ipaddress.ip_address(text)


def checked(host: str, targets: Sequence[Target], *, allow_private: bool) -> list[Target]:
    """``targets`` when every one of them is public (or ``allow_private``); else a
    :class:`Refusal` naming the first that is not. One bad address refuses the host: which
    address a connection ends up using must not be the attacker's choice."""
    if allow_private:
        return list(targets)
    for target in targets:
        address = _address_of(target)
        why = classify(address)
        if why is not None:
            raise Refusal(host, str(address), why)
    return list(targets)


def connect_address(target: Target) -> str:
    """The host string to hand a connector for ``target``: the numeric address (with its zone,
    for a scoped IPv6 address), so that connecting involves no name lookup."""
    return str(_address_of(target))

