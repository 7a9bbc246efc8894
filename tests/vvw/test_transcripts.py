"""Transcript files read back and followed: a followed file stops at its game's end, when
asked, or when the file is deleted before the end; never a wait without end."""

import queue
import threading
from pathlib import Path

import pytest

from engine import GameState, Kind
from protocol.reading import TranscriptError
from protocol.records import Header, Record, Skip
from server.settings import Settings
from server.transcript import Transcript
from vvw.transcripts import follow_transcript, read_transcript

TINY = GameState.from_cells(2, 3, {(0, 0): (Kind.VAMPIRES, 4), (2, 1): (Kind.WEREWOLVES, 4)})

WAIT = 30.0
"""Seconds a test waits for the follower's thread before calling it stuck (never reached
when all is well: the thread is told, or the file changes)."""


class Follower:
    """``follow_transcript`` in a thread: its records (then its end, or its error) on a queue."""

    def __init__(self, path: Path) -> None:
        self.stop = threading.Event()
        self.out: queue.Queue[Record | BaseException | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, args=(path,), daemon=True)
        self.thread.start()

    def _run(self, path: Path) -> None:
        try:
            for record in follow_transcript(path, self.stop, interval=0.01):
                self.out.put(record)
            self.out.put(None)
        except TranscriptError as error:
            self.out.put(error)

    def next(self) -> Record | BaseException | None:
        return self.out.get(timeout=WAIT)


def _started(path: Path) -> Transcript:
    transcript = Transcript(path)
    transcript.header("tiny.xml", TINY, Settings(), seed=7)
    return transcript


def test_a_followed_game_is_read_line_by_line_until_asked_to_stop(tmp_path):
    transcript = _started(tmp_path / "game.jsonl")
    follower = Follower(transcript.path)
    assert isinstance(follower.next(), Header)
    transcript.skip(Kind.WEREWOLVES, 1)
    assert isinstance(follower.next(), Skip)
    follower.stop.set()
    assert follower.next() is None
    follower.thread.join(WAIT)
    assert not follower.thread.is_alive()
    transcript.close()


def test_a_followed_file_deleted_before_its_game_ended_is_one_error(tmp_path):
    transcript = _started(tmp_path / "game.jsonl")
    follower = Follower(transcript.path)
    assert isinstance(follower.next(), Header)
    transcript.discard()
    error = follower.next()
    assert isinstance(error, TranscriptError)
    assert str(error) == f"{transcript.path} was deleted or replaced before its game ended"


def test_a_file_being_written_reads_as_far_as_its_last_whole_line(tmp_path):
    transcript = _started(tmp_path / "game.jsonl")
    with transcript.path.open("a") as file:
        file.write('{"type": "skip", "t": 1')
    assert [type(record) for record in read_transcript(transcript.path)] == [Header]
    transcript.close()


def test_an_empty_file_is_not_a_transcript(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    with pytest.raises(TranscriptError, match="is empty, not a transcript"):
        read_transcript(path)
