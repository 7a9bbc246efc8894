"""Argument types for the command lines: numbers checked where they are read.

A bad value is then one line from argparse (``argument --port: 99999 is not a port
number (0..65535)``) instead of a traceback or a surprise later.
"""

import argparse
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def _read(kind: Callable[[str], T], text: str, what: str) -> T:
    """``text`` read as ``kind``; else one line: ``'x' is not WHAT``."""
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    value = _read(int, text, "a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is below 1")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a number of seconds above 0."""
    value = _read(float, text, "a number")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a number of seconds above 0")
    return value


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0..65535 (0: any free port)."""
    value = _read(int, text, "a port number")
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port number (0..65535)")
    return value


def address(text: str) -> tuple[str, int]:
    """An argparse type: ``HOST:PORT`` (``PORT`` alone means 127.0.0.1; ``[::1]:PORT``)."""
    host, colon, port = text.rpartition(":")
    if not colon:
        host, port = "127.0.0.1", text
    return host.strip("[]") or "127.0.0.1", port_number(port)
