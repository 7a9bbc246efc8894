"""The project's one small HTTP server: h11 over trio, read-only pages and event streams.

:func:`serve_http` answers each connection's one request with a :data:`Handler` (the live
view's, :mod:`vvw.view.live`; the ladder's pages, :mod:`vvw.ladder.web`), then closes it.
It is meant to sit beside games without ever slowing them:

- a connection has :data:`REQUEST_TIME` seconds to send its request;
- at most ``connections`` are served at once: the next ones wait, unaccepted, in the
  kernel's queue (a crowd of browsers costs the process nothing until its turn);
- a browser that goes away or speaks nonsense ends only its own connection.

Only ``GET`` and ``HEAD`` are answered (405 otherwise), unless the server is told to take
``POST`` too (``vvw play``'s page sends the person's moves), with a body of at most
:data:`MAX_BODY` bytes. A handler answers once, with
:meth:`Exchange.respond` (a whole body) or :meth:`Exchange.stream` then
:meth:`Exchange.send` (server-sent events). Every server answers ``/favicon.ico`` itself
(:data:`FAVICON`, in the two species' colours), so a browser's console shows no error for
it.
"""

import errno
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from urllib.parse import parse_qs, urlsplit

import attrs
import h11
import trio

log = logging.getLogger(__name__)

REQUEST_TIME = 10.0
"""Seconds a browser has to send its request."""
CONNECTIONS = 128
"""Connections served at once by default."""
ACCEPT_RETRY = 0.1
"""Seconds to wait before accepting again when the process is out of file descriptors."""
READ_ONLY = ("GET", "HEAD")
"""The methods answered unless a server says otherwise (pages and event streams)."""
MAX_BODY = 64 * 1024
"""Bytes a POST's body may hold."""
FAVICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    b'<path d="M0 0H16L0 16Z" fill="#c62828"/><path d="M16 0V16H0Z" fill="#1565c0"/></svg>'
)
"""The pages' icon, a square half vampire red, half werewolf blue (SVG)."""
_OUT_OF_RESOURCES = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}
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


class Exchange:
    """One request, and the means to answer it."""

    def __init__(self, stream: trio.abc.Stream, conn: h11.Connection, request: Request) -> None:
        self._stream, self._conn = stream, conn
        self.request = request

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
        """Begin an answer of unknown length (then :meth:`send` each part)."""
        await self._head(200, kind, headers)

    async def send(self, data: bytes) -> None:
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


async def answer(
    stream: trio.abc.Stream, handler: Handler, methods: Sequence[str] = READ_ONLY
) -> None:
    """Answer one HTTP connection (one request; the connection closes after it); a method
    not among ``methods`` is refused (405)."""
    conn = h11.Connection(h11.SERVER)
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
        exchange = Exchange(stream, conn, request)
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
            await handler(exchange)
        else:
            await handler(exchange)
    except (trio.BrokenResourceError, trio.ClosedResourceError, h11.ProtocolError):
        pass  # the browser went away or spoke nonsense: nothing to do
    finally:
        await trio.aclose_forcefully(stream)


async def _accept(
    listener: trio.SocketListener,
    handler: Handler,
    methods: Sequence[str],
    slots: trio.Semaphore,
    nursery: trio.Nursery,
) -> None:
    """Accept a connection whenever a slot is free, and answer it in a task of its own."""

    async def one(stream: trio.SocketStream) -> None:
        try:
            await answer(stream, handler, methods)
        except Exception:  # one page must never bring the server down
            log.exception("answering an HTTP request failed")
        finally:
            slots.release()

    while True:
        await slots.acquire()
        try:
            stream = await listener.accept()
        except OSError as error:
            slots.release()
            if error.errno not in _OUT_OF_RESOURCES:
                raise
            log.warning("cannot accept a connection (%s): trying again", error)
            await trio.sleep(ACCEPT_RETRY)
            continue
        except BaseException:
            slots.release()
            raise
        nursery.start_soon(one, stream)


async def serve_http(
    handler: Handler,
    port: int,
    host: str = "127.0.0.1",
    *,
    connections: int = CONNECTIONS,
    methods: Sequence[str] = READ_ONLY,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve ``handler`` on ``host:port`` until cancelled, ``connections`` at once at most,
    answering ``methods`` (GET and HEAD unless told: POST for a page that sends, its body
    at most :data:`MAX_BODY`); tells ``task_status`` the port (``OSError`` if it cannot be
    listened on)."""
    listeners = await trio.open_tcp_listeners(port, host=host)
    slots = trio.Semaphore(connections)
    async with trio.open_nursery() as nursery:
        for listener in listeners:
            nursery.start_soon(_accept, listener, handler, methods, slots, nursery)
        task_status.started(listeners[0].socket.getsockname()[1])
