"""The ports a command listens on: all checked before it writes anything, and a port that
cannot be used named with what it was for (``127.0.0.1:5701 for the live view``)."""

import socket
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import attrs
import trio

from vvw.errors import UsageError


@attrs.frozen
class Listening:
    """A host and port to listen on, and what for (``the live view (--view-port)``)."""

    host: str
    port: int
    use: str


def _refused(place: Listening, error: OSError) -> UsageError:
    reason = error.strerror or str(error)
    return UsageError(f"cannot listen on {place.host}:{place.port} for {place.use}: {reason}")


def check_free(places: Iterable[Listening]) -> None:
    """:class:`UsageError` naming the first of ``places`` that cannot be listened on (in
    use, or given twice); port 0 (any free one) always can. Each is bound as trio binds
    it, and all are let go before returning."""
    held: list[socket.socket] = []
    try:
        for place in places:
            if place.port == 0:
                continue
            try:
                for family, kind, proto, _, address in socket.getaddrinfo(
                    place.host, place.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
                ):
                    sock = socket.socket(family, kind, proto)
                    held.append(sock)
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    if family == socket.AF_INET6:
                        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                    sock.bind(address)
                    sock.listen()
            except OSError as error:
                raise _refused(place, error) from None
    finally:
        for sock in held:
            sock.close()


async def start_listening(
    nursery: trio.Nursery,
    place: Listening,
    serving: Callable[..., Awaitable[Any]],
    *args: Any,
) -> int:
    """``nursery.start(serving, *args)`` for a task that listens on ``place`` and tells its
    port; a port taken since :func:`check_free` is a :class:`UsageError` naming ``place``."""
    try:
        port: int = await nursery.start(serving, *args)
    except OSError as error:
        raise _refused(place, error) from None
    return port
