"""Which browser requests the web server answers: the Host they name and the Origin they come from.

Two attacks from an ordinary web page the player happens to visit, both against a server on
the player's own machine or network (``serve --web`` has no passwords):

- **Cross-site websocket hijacking.** Browsers let any page open a websocket to any address;
  the only sign of where it came from is the ``Origin`` header. A websocket is accepted only
  from the game page's own origin (the request's ``Host``), the ``--public-url``'s origin, or
  an origin named with ``--allow-origin``. ``Origin: null`` (sandboxed frames, files) and a
  missing Origin are refused too: every browser sends one.
- **DNS rebinding.** A page at ``evil.example`` points that name at 127.0.0.1 a moment later;
  its requests then reach us as same-origin (``Host: evil.example:8000``, ``Origin:
  http://evil.example:8000``), so the Origin check alone would pass. So every request's ``Host``
  must also be a name this server answers to: an IP address (a rebinding needs a name),
  ``localhost`` and ``*.localhost`` (browsers resolve those to loopback themselves), this
  machine's host name (and ``NAME.local``), and the host names of ``--public-url`` and the
  ``--allow-origin`` origins. Any other name gets HTTP 403 and one line saying which flag
  adds it.

A ``Host`` that is not ``name[:port]`` or ``[IPv6][:port]`` is refused (HTTP 400) before it is
used anywhere: it goes into the page's URLs, so nothing but a plain host and port may pass.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
# RFC 1123 labels (and "_", which some LAN names use), dot-separated, an optional final dot.
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
_HOST = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[^:\[\]]+)(?::(?P<port>[0-9]{1,5}))?")
MAX_HOST = 255


class Refused(ValueError):
    """A request this server does not answer: the message is for the client, ``why`` a few
    words for the log, ``status`` the HTTP status to refuse it with."""

    def __init__(self, message: str, why: str, status: int = 403) -> None:
        super().__init__(message)
        self.why, self.status = why, status


@dataclass(frozen=True)
class Address:
    """A host (lower case, IPv6 without brackets) and its port (None: the scheme's default)."""

    host: str
    port: int | None

    @property
    def is_ip(self) -> bool:
        try:
            ipaddress.ip_address(self.host)
        except ValueError:
            return False
        return True

    def netloc(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port is None else f"{host}:{self.port}"


def parse_host(header: str | None) -> Address:
    """The request's ``Host`` header as an Address; Refused (400) unless it is plain."""
    text = (header or "").strip()
    match = _HOST.fullmatch(text) if 0 < len(text) <= MAX_HOST else None
    if match is None:
        raise Refused("no usable Host header", "bad host header", 400)
    host, port = match["host"].lower(), match["port"]
    if host.startswith("["):
        try:
            host = str(ipaddress.IPv6Address(host[1:-1]))
        except ValueError:
            raise Refused("the Host header's IPv6 address is not one", "bad host header", 400) from None
    elif not _NAME.fullmatch(host):
        raise Refused("the Host header is not a host name", "bad host header", 400)
    number = None if port is None else int(port)
    if number is not None and not 0 < number <= 65535:
        raise Refused("the Host header's port is not one", "bad host header", 400)
    return Address(host.rstrip("."), number)


def parse_origin(text: str) -> tuple[str, Address]:
    """``scheme://host[:port]`` as (scheme, Address with an explicit port); ValueError if not one."""
    scheme, address, path = _split_url(text, "an origin like https://games.example.org")
    if path:
        raise ValueError(f"{text!r} is not an origin: it has a path")
    return scheme, address


def parse_public_url(url: str) -> tuple[str, Address, str]:
    """``--public-url``: (scheme, Address with an explicit port, path prefix without a final /)."""
    return _split_url(url, "a URL like https://games.example.org or http://192.0.2.7:8000")


def _split_url(text: str, what: str) -> tuple[str, Address, str]:
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password:
        raise ValueError(f"{text!r} is not {what}")
    if parts.query or parts.fragment:
        raise ValueError(f"{text!r} is not {what}: no query or fragment")
    port = parts.port or DEFAULT_PORTS[parts.scheme]  # ValueError for a port out of range
    host = parts.hostname.lower()
    if ":" in host:
        host = str(ipaddress.IPv6Address(host))  # ValueError if it is not one
    elif not _NAME.fullmatch(host):
        raise ValueError(f"{text!r} is not {what}: {host!r} is not a host name")
    path = parts.path.rstrip("/")
    if path and not re.fullmatch(r"(/[A-Za-z0-9._~-]+)+", path):
        raise ValueError(f"{text!r}: a path may hold only letters, digits, '.', '_', '~', '-' and '/'")
    return parts.scheme, Address(host.rstrip("."), port), path


def origin_text(scheme: str, address: Address) -> str:
    """The origin as a browser serialises it (no default port)."""
    port = None if address.port == DEFAULT_PORTS[scheme] else address.port
    return f"{scheme}://{Address(address.host, port).netloc()}"


def machine_names() -> set[str]:
    """This machine's own names: what a browser on the network may call it."""
    name = socket.gethostname().lower().rstrip(".")
    names = {name, f"{name.split('.')[0]}.local"} if name else set()
    return names


class Gate:
    """The decisions of the module docstring, for one server's ``--public-url`` and
    ``--allow-origin`` list."""

    def __init__(self, public_url: str | None = None, allow_origins: tuple[str, ...] | list[str] = (),
                 names: set[str] | None = None) -> None:
        self.origins: set[tuple[str, Address]] = set()
        self.names = set(machine_names() if names is None else names)
        self.public: tuple[str, Address, str] | None = None
        if public_url:
            scheme, address, prefix = parse_public_url(public_url)
            self.public = (scheme, address, prefix)
            self.origins.add((scheme, address))
            self.names.add(address.host)
        for origin in allow_origins:
            scheme, address = parse_origin(origin)
            self.origins.add((scheme, address))
            self.names.add(address.host)

    def check_host(self, header: str | None) -> Address:
        """The request's Host if this server answers to it, else Refused (400 or 403)."""
        address = parse_host(header)
        host = address.host
        if address.is_ip or host == "localhost" or host.endswith(".localhost") or host in self.names:
            return address
        raise Refused(f"this server does not answer to the name {host!r} (a guard against DNS rebinding); "
                      f"give it with --public-url or --allow-origin to use it", "unknown host name")

    def check_origin(self, origin: str | None, host: Address) -> None:
        """Refused unless a websocket from ``origin`` may drive a game here (``host`` is the
        request's checked Host)."""
        if not origin or origin.strip() == "null":
            raise Refused("a game starts only from this server's own page", "no origin")
        try:
            scheme, address = parse_origin(origin)
        except ValueError:
            raise Refused("a game starts only from this server's own page", "bad origin") from None
        if (scheme, address) in self.origins:
            return
        # The page's own origin: the same host and port the browser asked for. A Host without a
        # port means the scheme's default (a proxy in front terminating TLS on 443, say).
        same_port = address.port == (host.port if host.port is not None else DEFAULT_PORTS[scheme])
        if address.host == host.host and same_port:
            return
        raise Refused("a game starts only from this server's own page (or an --allow-origin)", "foreign origin")

