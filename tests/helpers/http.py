"""One HTTP request over loopback, as a browser would send it, and its whole answer."""

import trio


async def fetch(
    port: int, target: str, method: str = "GET", body: bytes = b"", headers: str = ""
) -> bytes:
    """The raw answer to ``METHOD target`` on ``127.0.0.1:port`` (the server closes); a
    ``body`` is sent with its length, ``headers`` (``"name: value\r\n"`` lines) as given."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    length = f"Content-Length: {len(body)}\r\n" if body else ""
    head = f"{method} {target} HTTP/1.1\r\nHost: x\r\n{length}{headers}\r\n"
    await stream.send_all(head.encode() + body)
    data = b""
    with trio.fail_after(10):
        while chunk := await stream.receive_some():
            data += chunk
    await stream.aclose()
    return data


async def get(port: int, target: str) -> tuple[int, dict[str, str], bytes]:
    """The status, headers (names in lower case) and body of ``GET target``."""
    head, _, body = (await fetch(port, target)).partition(b"\r\n\r\n")
    status, *fields = head.decode("latin-1").split("\r\n")
    headers = dict(field.lower().split(": ", 1) for field in fields)
    return int(status.split()[1]), headers, body
