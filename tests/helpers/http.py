"""One HTTP request over loopback, as a browser would send it, and its whole answer."""

import trio


async def fetch(port: int, target: str, method: str = "GET") -> bytes:
    """The raw answer to ``METHOD target`` on ``127.0.0.1:port`` (the server closes)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(f"{method} {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
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
