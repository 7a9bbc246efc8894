"""What a server reports while it serves: typed events, given one by one to one sink.

:func:`server.serving.serve` tells its caller everything through one :data:`EventSink`
(a function of one :data:`ServerEvent`; a trio memory channel's ``send_nowait`` is one):
who was seated, who was dropped and why, each game as it begins, each line of its
transcript, and how it ended. Meaning travels in types, never in the wording of a
message: a :class:`Dropped` connection carries a :class:`DropReason`, a finished game its
:class:`~engine.result.GameResult` with its :class:`~engine.result.Termination`; the
``detail`` texts are for people and may be reworded freely.
"""

from collections.abc import Callable
from enum import Enum
from pathlib import Path

import attrs

from engine import GameResult, Kind, Termination
from protocol.records import Record


class DropReason(Enum):
    """Why a connection was dropped before it was seated."""

    HUNG_UP = "hung up"
    """Its connection closed before its NME."""
    GARBLED = "garbled"
    """It sent bytes that are not a valid message (a hang-up in the middle of one too)."""
    NOT_NME = "not NME"
    """Its first message was a valid message other than NME."""
    SILENT = "silent"
    """No NME within the connect time."""
    GAVE_WAY = "gave way"
    """No NME yet when too many newer connections were waiting for theirs."""
    GREETING_FAILED = "greeting failed"
    """Its NME came, but the greeting (SET, HUM, HME, MAP) could not be sent to it."""

    @property
    def termination(self) -> Termination:
        """How a bot dropped so loses the game it was to play."""
        match self:
            case DropReason.HUNG_UP | DropReason.GREETING_FAILED:
                return Termination.DISCONNECT
            case DropReason.GARBLED | DropReason.NOT_NME:
                return Termination.PROTOCOL_ERROR
            case DropReason.SILENT | DropReason.GAVE_WAY:
                return Termination.STALL


@attrs.frozen
class Dropped:
    """A connection dropped before it was seated."""

    peer: str
    reason: DropReason
    detail: str
    """What happened, for people (the bytes received, the seconds waited…)."""


@attrs.frozen
class Seated:
    """A bot sent its NME and was greeted: it holds the seat of ``species``."""

    species: Kind
    name: str
    peer: str


@attrs.frozen
class Unseated:
    """A seated bot's connection ended before its game began: the seat is free again."""

    species: Kind
    name: str
    peer: str
    detail: str


@attrs.frozen
class GameBegun:
    """Game ``number`` begins between the two seated bots."""

    number: int
    names: tuple[str, str]
    """The names the bots sent: (vampires, werewolves)."""


@attrs.frozen
class TranscriptLine:
    """One line of game ``number``'s transcript, as it is written: its typed record."""

    number: int
    record: Record


@attrs.frozen
class GameEnded:
    """Game ``number`` is over (an aborted game too: the server was stopped)."""

    number: int
    result: GameResult
    transcript: Path | None = None
    """Where its transcript was kept, if it was."""


ServerEvent = Seated | Dropped | Unseated | GameBegun | TranscriptLine | GameEnded
EventSink = Callable[[ServerEvent], None]
"""Where a server's events go, in the order they happen; it must not block."""


def ignore(_event: ServerEvent) -> None:
    """The sink of a caller that wants no events."""


def fan_out(*sinks: EventSink) -> EventSink:
    """One sink that gives each event to every one of ``sinks`` in turn."""

    def every(event: ServerEvent) -> None:
        for sink in sinks:
            sink(event)

    return every
