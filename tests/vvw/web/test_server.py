"""The project's HTTP server (vvw/web/server.py) over loopback: bounded, one request a
connection."""

import trio
import trio.testing

from tests.helpers.http import fetch
from vvw.web.server import FAVICON, MAX_BODY, Exchange, StreamSlots, serve_http


async def _ask(stream: trio.SocketStream, path: str) -> bytes:
    """``GET path`` on a connection opened before, and the whole answer."""
    await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    data = b""
    with trio.fail_after(10):
        while chunk := await stream.receive_some():
            data += chunk
    return data


async def _serve(nursery: trio.Nursery, handler, connections: int = 8) -> int:
    return await nursery.start(
        lambda task_status: serve_http(handler, 0, connections=connections, task_status=task_status)
    )


async def test_a_second_connection_is_served_only_once_the_first_is_done():
    served: list[str] = []

    async def handler(exchange: Exchange) -> None:
        served.append(exchange.request.path)
        await exchange.respond(200, "text/plain", b"ok")

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, handler, connections=1)
        first = await trio.open_tcp_stream("127.0.0.1", port)
        second = await trio.open_tcp_stream("127.0.0.1", port)
        answers: dict[str, bytes] = {}

        async def ask(stream: trio.SocketStream, path: str) -> None:
            answers[path] = await _ask(stream, path)

        async with trio.open_nursery() as clients:
            clients.start_soon(ask, second, "/second")  # its request is sent first…
            await trio.testing.wait_all_tasks_blocked()
            clients.start_soon(ask, first, "/first")
        assert served == ["/first", "/second"]  # …but it waited for the first's slot
        assert all(answer.startswith(b"HTTP/1.1 200") for answer in answers.values())
        nursery.cancel_scope.cancel()


async def test_a_handler_that_fails_ends_only_its_connection():
    async def handler(exchange: Exchange) -> None:
        if exchange.request.path == "/boom":
            raise RuntimeError("a bug in one page")
        await exchange.respond(200, "text/plain", b"fine")

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, handler, connections=1)
        boom = await fetch(port, "/boom")
        assert boom == b""
        fine = await fetch(port, "/x?a=1")
        assert fine.startswith(b"HTTP/1.1 200") and fine.endswith(b"fine")
        nursery.cancel_scope.cancel()


async def test_only_get_and_head_are_answered_and_head_has_no_body():
    async def handler(exchange: Exchange) -> None:
        assert exchange.request.parameter("game") == "7"
        await exchange.respond(200, "text/plain", b"the body")

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, handler)
        answers = {
            method: await fetch(port, "/?game=7", method) for method in ("POST", "HEAD", "GET")
        }
        nursery.cancel_scope.cancel()
    assert answers["POST"].startswith(b"HTTP/1.1 405") and b"allow: GET, HEAD" in answers["POST"]
    assert answers["HEAD"].startswith(b"HTTP/1.1 200") and answers["HEAD"].endswith(b"\r\n\r\n")
    assert b"content-length: 8" in answers["HEAD"]
    assert answers["GET"].endswith(b"\r\n\r\nthe body")


async def test_a_server_that_takes_post_hands_over_its_body_and_headers_and_bounds_it():
    seen: list[tuple[str, str | None, bytes]] = []

    async def handler(exchange: Exchange) -> None:
        request = exchange.request
        seen.append((request.method, request.headers.get("x-token"), request.body))
        await exchange.respond(200, "text/plain", b"taken")

    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            lambda task_status: serve_http(
                handler, 0, methods=("GET", "HEAD", "POST"), task_status=task_status
            )
        )
        taken = await fetch(port, "/move", "POST", b'{"moves": []}', "X-Token: abc\r\n")
        too_long = await fetch(port, "/move", "POST", b"x" * (MAX_BODY + 1))
        put = await fetch(port, "/move", "PUT", b"x")
        nursery.cancel_scope.cancel()
    assert taken.endswith(b"taken") and seen == [("POST", "abc", b'{"moves": []}')]
    assert too_long.startswith(b"HTTP/1.1 413")
    assert put.startswith(b"HTTP/1.1 405") and b"allow: GET, HEAD, POST" in put


async def test_every_server_answers_the_browsers_icon_request_itself():
    asked: list[str] = []

    async def handler(exchange: Exchange) -> None:
        asked.append(exchange.request.path)
        await exchange.respond(404, "text/plain", b"no such page")

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, handler)
        icon = await fetch(port, "/favicon.ico")
        other = await fetch(port, "/other")
        nursery.cancel_scope.cancel()
    assert icon.startswith(b"HTTP/1.1 200") and b"content-type: image/svg+xml" in icon
    assert icon.endswith(b"\r\n\r\n" + FAVICON)
    assert other.startswith(b"HTTP/1.1 404")
    assert asked == ["/other"]


def test_event_streams_are_bounded_in_all_and_per_address():
    slots = StreamSlots(total=3, per_address=2)
    assert slots.take("10.0.0.1") is None and slots.take("10.0.0.1") is None
    assert "from your address (2)" in (slots.take("10.0.0.1") or "")
    assert slots.take("10.0.0.2") is None
    assert "open (3)" in (slots.take("10.0.0.3") or "")
    slots.give_back("10.0.0.1")
    assert slots.take("10.0.0.3") is None and slots.open == {
        "10.0.0.1": 1,
        "10.0.0.2": 1,
        "10.0.0.3": 1,
    }
