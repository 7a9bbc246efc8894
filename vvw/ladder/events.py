"""What the ladder's server tells as it serves, typed: the server's own events
(:mod:`server.events`) and the ladder's, about connections and analyses."""

from collections.abc import Callable

import attrs

from server.events import ServerEvent
from vvw.ladder.analysing import Analysed
from vvw.ladder.refusals import Refusal


@attrs.frozen
class Refused:
    """A connection refused before any game; ``team`` is the one its ``NME`` named."""

    peer: str
    refusal: Refusal
    team: str | None = None


@attrs.frozen
class Joined:
    """A team's connection was admitted: it waits for a game."""

    team: str
    peer: str


@attrs.frozen
class Left:
    """A team's connection closed while it waited (no game lost)."""

    team: str
    peer: str


LadderEvent = ServerEvent | Joined | Refused | Left | Analysed
LadderSink = Callable[[LadderEvent], None]
