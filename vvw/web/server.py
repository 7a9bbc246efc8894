"""The project's one small HTTP server: h11 over trio, read-only pages and event streams.

:func:`serve_http` answers each connection's one request with a :data:`Handler` (the live
view's, :mod:`vvw.web.live`; the ladder's pages, :mod:`vvw.ladder.web`), then closes it.
It is meant to sit beside games without ever slowing them:

- a connection has :data:`REQUEST_TIME` seconds to send its request, and
  :data:`SEND_TIME` to take each part of its answer;
- at most ``connections`` are served at once: the next ones wait, unaccepted, in the
  kernel's queue (a crowd of browsers costs the process nothing until its turn); the
  accepting is :func:`trio.serve_listeners`' (which waits and tries again when the process
  is out of file descriptors);
- event streams (answers of unknown length) are bounded in all (half the connections by
  default) and per address, so that pages are always answered beside them: one more is
  refused (503); a stream whose browser closes is ended at once, its slot free;
- a browser that goes away or speaks nonsense ends only its own connection.

Only ``GET`` and ``HEAD`` are answered (405 otherwise), unless the server is told to take
``POST`` too (``vvw play``'s page sends the person's moves), with a body of at most
:data:`MAX_BODY` bytes. A handler answers once, with
:meth:`Exchange.respond` (a whole body) or :meth:`Exchange.stream` then
:meth:`Exchange.send` (server-sent events). Every server answers ``/favicon.ico`` itself
(:data:`FAVICON`, in the two species' colours), so a browser's console shows no error for
it.
"""

import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from urllib.parse import parse_qs, urlsplit

import attrs
import h11
import trio

from vvw.web.html import element
from vvw.web.palette import PALETTE

log = logging.getLogger(__name__)

REQUEST_TIME = 10.0
"""Seconds a browser has to send its request."""
CONNECTIONS = 128
"""Connections served at once by default."""
READ_ONLY = ("GET", "HEAD")
"""The methods answered unless a server says otherwise (pages and event streams)."""
MAX_BODY = 64 * 1024
"""Bytes a POST's body may hold."""
SEND_TIME = 60.0
"""Seconds a browser has to take each part of an answer (one that stops reading is let go)."""
STREAMS = CONNECTIONS // 2
"""Event streams open at once by default, in all: the other connections are for pages."""
STREAMS_PER_ADDRESS = 16
"""Event streams open at once by default from one address."""
FAVICON = element(
    "svg",
    element("path", d="M0 0H16L0 16Z", fill=PALETTE["vampires"]),
    element("path", d="M16 0V16H0Z", fill=PALETTE["werewolves"]),
    xmlns="http://www.w3.org/2000/svg",
    viewBox="0 0 16 16",
).encode()
"""The pages' icon, a square half vampire red, half werewolf blue (SVG)."""
Headers = Sequence[tuple[str, str]]


@attrs.frozen
class Request:
    """What was asked: the method, the path (percent-encoded, as sent), the query, the
    headers (names in lower case) and the body (a POST's, where POST is answered)."""

    method: str
    path: str
    query: Mapping[str, Sequence[str]]
    headers: Mapping[str, str] = attrs.field(factory=dict)
    body: bytes = b""

    def parameter(self, name: str) -> str | None:
        """The first value of the query's ``name``, if given."""
        values = self.query.get(name)
        return values[0] if values else None


class StreamsBusy(Exception):
    """An event stream was refused (503 sent): too many open, in all or from its address."""


@attrs.define
class StreamSlots:
    """The event streams open, by address: at most ``total`` in all and ``per_address``
    from one address."""

    total: int = STREAMS
    per_address: int = STREAMS_PER_ADDRESS
    open: dict[str, int] = attrs.field(factory=dict)

    def take(self, address: str) -> str | None:
        """Count one more stream from ``address``; else why not (nothing counted)."""
        if sum(self.open.values()) >= self.total:
            return f"too many live event streams open ({self.total}): try again later"
        if self.open.get(address, 0) >= self.per_address:
            return (
                f"too many live event streams open from your address ({self.per_address}):"
                " close some pages"
            )
        self.open[address] = self.open.get(address, 0) + 1
        return None

    def give_back(self, address: str) -> None:
        self.open[address] -= 1
        if not self.open[address]:
            del self.open[address]


class Exchange:
    """One request, and the means to answer it. ``address`` is the browser's (its IP
    address as text; empty when not over TCP)."""

    def __init__(
        self,
        stream: trio.abc.Stream,
        conn: h11.Connection,
        request: Request,
        address: str = "",
        slots: StreamSlots | None = None,
    ) -> None:
        self._stream, self._conn = stream, conn
        self.request = request
        self.address = address
        self._slots = slots or StreamSlots()
        self.streaming = trio.Event()
        """Set once an event stream has begun (and holds one of the slots)."""

    async def _head(self, status: int, kind: str, headers: Headers) -> None:
        fields = [("content-type", kind), ("cache-control", "no-store"), ("connection", "close")]
        response = h11.Response(status_code=status, headers=[*fields, *headers])
        await self._stream.send_all(self._conn.send(response))

    async def respond(self, status: int, kind: str, body: bytes, headers: Headers = ()) -> None:
        """Answer with ``body`` of the content type ``kind``."""
        await self._head(status, kind, [("content-length", str(len(body))), *headers])
        if self.request.method != "HEAD":
            await self.send(body)
        await self.end()

    async def stream(self, kind: str, headers: Headers = ()) -> None:
        """Begin an answer of unknown length (then :meth:`send` each part); if too many
        streams are open, answer 503 instead and raise :class:`StreamsBusy`."""
        refusal = self._slots.take(self.address)
        if refusal is not None:
            await self.respond(503, "text/plain; charset=utf-8", f"{refusal}\n".encode())
            raise StreamsBusy(refusal)
        self.streaming.set()
        await self._head(200, kind, headers)

    def close_stream(self) -> None:
        """Give back the stream's slot, if it took one (the connection is closing)."""
        if self.streaming.is_set():
            self._slots.give_back(self.address)

    async def send(self, data: bytes) -> None:
        with trio.fail_after(SEND_TIME):
            await self._stream.send_all(self._conn.send(h11.Data(data=data)))

    async def end(self) -> None:
        """End an answer begun with :meth:`stream` (its last part sent)."""
        await self._stream.send_all(self._conn.send(h11.EndOfMessage()))


Handler = Callable[[Exchange], Awaitable[None]]
"""Answers one request."""


async def _read_request(stream: trio.abc.Stream, conn: h11.Connection) -> h11.Request | None:
    with trio.move_on_after(REQUEST_TIME):
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(bytes(await stream.receive_some(65536)))
                continue
            return event if isinstance(event, h11.Request) else None
    return None


async def _read_body(stream: trio.abc.Stream, conn: h11.Connection) -> bytes | None:
    """The request's body; ``None`` if it is longer than :data:`MAX_BODY` or not all sent
    within :data:`REQUEST_TIME`."""
    body = b""
    with trio.move_on_after(REQUEST_TIME):
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(bytes(await stream.receive_some(65536)))
            elif isinstance(event, h11.Data):
                body += event.data
                if len(body) > MAX_BODY:
                    return None
            elif isinstance(event, h11.EndOfMessage):
                return body
            else:
                return None
    return None


def _address(stream: trio.abc.Stream) -> str:
    """The browser's IP address, if ``stream`` is a TCP connection."""
    if not isinstance(stream, trio.SocketStream):
        return ""
    peer = stream.socket.getpeername()
    return str(peer[0]) if isinstance(peer, tuple) else str(peer)


async def _until_hung_up(stream: trio.abc.Stream, exchange: Exchange) -> None:
    """Return once the browser of an event stream has closed its connection (whatever it
    sends meanwhile is ignored: one request a connection)."""
    await exchange.streaming.wait()
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        while await stream.receive_some(4096):
            pass


async def _handle(stream: trio.abc.Stream, handler: Handler, exchange: Exchange) -> None:
    """Run ``handler``; an event stream ends as soon as its browser hangs up. What the
    handler raises is raised as it is (not in a group)."""
    failure: Exception | None = None
    async with trio.open_nursery() as nursery:

        async def watch() -> None:
            await _until_hung_up(stream, exchange)
            nursery.cancel_scope.cancel()

        nursery.start_soon(watch)
        try:
            await handler(exchange)
        except Exception as error:
            failure = error
        finally:
            nursery.cancel_scope.cancel()
    if failure is not None:
        raise failure


async def answer(
    stream: trio.abc.Stream,
    handler: Handler,
    methods: Sequence[str] = READ_ONLY,
    slots: StreamSlots | None = None,
) -> None:
    """Answer one HTTP connection (one request; the connection closes after it); a method
    not among ``methods`` is refused (405); its event stream, if it asks for one, takes
    one of ``slots``."""
    conn = h11.Connection(h11.SERVER)
    exchange: Exchange | None = None
    try:
        asked = await _read_request(stream, conn)
        if asked is None:
            return
        url = urlsplit(asked.target.decode("latin-1"))
        headers = {
            name.decode("latin-1").lower(): value.decode("latin-1") for name, value in asked.headers
        }
        method = asked.method.decode("ascii", "replace")
        request = Request(method, url.path, parse_qs(url.query), headers)
        exchange = Exchange(stream, conn, request, _address(stream), slots)
        if method not in methods:
            allowed = ", ".join(methods)
            await exchange.respond(
                405, "text/plain", f"only {allowed}\n".encode(), [("allow", allowed)]
            )
        elif url.path == "/favicon.ico" and method in READ_ONLY:
            await exchange.respond(200, "image/svg+xml", FAVICON)
        elif method == "POST":
            body = await _read_body(stream, conn)
            if body is None:
                await exchange.respond(413, "text/plain", b"request too long or too slow\n")
                return
            exchange.request = attrs.evolve(request, body=body)
            await _handle(stream, handler, exchange)
        else:
            await _handle(stream, handler, exchange)
    except (trio.BrokenResourceError, trio.ClosedResourceError, h11.ProtocolError):
        pass  # the browser went away or spoke nonsense: nothing to do
    except (trio.TooSlowError, StreamsBusy):
        pass  # the browser stopped reading, or its stream was refused: it is told so
    finally:
        if exchange is not None:
            exchange.close_stream()
        await trio.aclose_forcefully(stream)


class _Bounded(trio.abc.Listener[trio.SocketStream]):
    """A listener that accepts a connection only while one of ``slots`` is free (the next
    ones wait, unaccepted, in the kernel's queue); the connection's handler gives its slot
    back."""

    def __init__(self, listener: trio.SocketListener, slots: trio.Semaphore) -> None:
        self._listener, self._slots = listener, slots

    async def accept(self) -> trio.SocketStream:
        await self._slots.acquire()
        try:
            return await self._listener.accept()
        except BaseException:  # out of file descriptors (trio tries again), or cancelled
            self._slots.release()
            raise

    async def aclose(self) -> None:
        await self._listener.aclose()


async def serve_http(
    handler: Handler,
    port: int,
    host: str = "127.0.0.1",
    *,
    connections: int = CONNECTIONS,
    streams: StreamSlots | None = None,
    methods: Sequence[str] = READ_ONLY,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve ``handler`` on ``host:port`` until cancelled, ``connections`` at once at most,
    of which event ``streams`` (by default half of them, :data:`STREAMS_PER_ADDRESS` from
    one address), answering ``methods`` (GET and HEAD unless told: POST for a page that
    sends, its body at most :data:`MAX_BODY`); tells ``task_status`` the port (``OSError``
    if it cannot be listened on)."""
    listeners = await trio.open_tcp_listeners(port, host=host)
    slots = trio.Semaphore(connections)
    if streams is None:
        half = max(1, connections // 2)
        streams = StreamSlots(half, min(STREAMS_PER_ADDRESS, half))

    async def one(stream: trio.SocketStream) -> None:
        try:
            await answer(stream, handler, methods, streams)
        except Exception:  # one page must never bring the server down
            log.exception("answering an HTTP request failed")
        finally:
            slots.release()

    task_status.started(listeners[0].socket.getsockname()[1])
    await trio.serve_listeners(one, [_Bounded(listener, slots) for listener in listeners])
