"""Transcript files read back: whole, as they are read, or followed while a game writes them.

The bytes go through :class:`protocol.transcript.TranscriptReader`, so every error is its
one-line :class:`~protocol.transcript.TranscriptError` (``OSError`` if the file cannot be
read). Following waits for new lines, looking again every :data:`FOLLOW_INTERVAL` seconds,
and stops at the first of: the record that ends the game
(:func:`~protocol.transcript.game_over`), the caller's ``stop`` event set, or the file
deleted or replaced with its game unfinished (a ``TranscriptError``).
"""

import os
import threading
from collections.abc import Iterator
from pathlib import Path

from protocol.reading import TranscriptError, TranscriptReader, game_over
from protocol.records import Record

CHUNK = 65536
"""Bytes read at a time."""
FOLLOW_INTERVAL = 0.2
"""Seconds between two looks at a followed file that has not grown."""


def iter_transcript(path: Path) -> Iterator[Record]:
    """The records of a transcript file as they are read (a cut last line left out)."""
    reader = TranscriptReader(str(path))
    with path.open("rb") as file:
        while data := file.read(CHUNK):
            yield from reader.feed(data)
    yield from reader.close()


def read_transcript(path: Path) -> list[Record]:
    """Every record of a transcript file (see :func:`iter_transcript`)."""
    return list(iter_transcript(path))


def follow_transcript(
    path: Path, stop: threading.Event | None = None, interval: float = FOLLOW_INTERVAL
) -> Iterator[Record]:
    """The records of a transcript as its game writes them, up to the one that ends the
    game; ends early, quietly, once ``stop`` is set (it is looked at while waiting)."""
    stop = stop if stop is not None else threading.Event()
    reader = TranscriptReader(str(path))
    with path.open("rb") as file:
        while not stop.is_set():
            data = file.read(CHUNK)
            for record in reader.feed(data):
                yield record
                if game_over(record, reader.header):
                    return
            if data:
                continue
            if _gone(path, os.fstat(file.fileno())):
                raise TranscriptError(f"{path} was deleted or replaced before its game ended")
            stop.wait(interval)


def _gone(path: Path, opened: os.stat_result) -> bool:
    """Whether ``path`` no longer names the file opened (deleted, or another in its place)."""
    try:
        now = path.stat()
    except FileNotFoundError:
        return True
    return (now.st_dev, now.st_ino) != (opened.st_dev, opened.st_ino)
