"""The flow of one game, sans I/O: whose turn, a ply or a skipped turn, the limits, the end.

A :class:`Game` is told what happened and says what it makes of it, the way a protocol
state machine is fed bytes: the caller owns the clocks and the players, the game owns the
rules of the match. The referee drives one from two byte streams, the in-process arena by
calling two bots; both therefore play exactly the same game::

    game = Game(state, names=("alice", "bob"), seed=7)
    while game.result is None:
        ply, think = ...                      # ask game.to_move, measuring the reply
        game.reply(ply, think, elapsed)       # or game.no_reply(elapsed), game.lose(...)
    game.result                               # the GameResult, with one Termination

What a game decides, in order, for each turn of ``game.to_move``:

- no reply, or one later than ``move_time``: the turn is skipped (the course server's way)
  or lost (:attr:`OnTimeout.FORFEIT`); a late ply is never played;
- a ply that breaks a rule loses (:class:`~engine.legality.IllegalPly` names the rule and
  the move); so does a ply after which the next UPD would list more than
  :data:`MAX_UPDATE_CELLS` cells (its count is one byte);
- a legal ply is played with the game's seeded ``random.Random``;
- after the turn, the board may end the game (elimination, the ply limit); if not, after
  the werewolves' turn, ``game_time`` seconds elapsed (by the caller's clock) end it with
  the winner by count.

Faults only the caller can see (a connection lost, bytes that are no message, a bot that
crashed) end the game through :meth:`Game.lose`; :meth:`Game.abort` stops it with no winner.
"""

import random
from collections.abc import Sequence
from enum import Enum
from typing import NamedTuple

import attrs

from engine.battle import BattleOutcome
from engine.ending import end_of_game, winner_by_count
from engine.kinds import VAMPIRES, WEREWOLVES, Kind, opponent
from engine.legality import IllegalPly, check_ply
from engine.resolution import Battle, apply_ply
from engine.result import GameResult, PlayerRecord, Termination
from engine.rules import DEFAULT_RULES, Rules
from engine.state import GameState, Move, Ply

MAX_UPDATE_CELLS = 255
"""Cells one UPD can list (its count is one byte): a ply whose UPD would need more loses.

A UPD lists the cells of both players' last plies (sources and targets), each once."""


class OnTimeout(Enum):
    """What a late reply costs."""

    SKIP = "skip"
    """The reference server's way: the turn is skipped, the late ply is discarded."""
    FORFEIT = "forfeit"
    """The chess match runners' way: the late player loses."""


@attrs.frozen
class Limits:
    """The clocks of a match: per reply and per game, and what a late reply costs.

    The ply limit belongs to the rules (:attr:`engine.rules.Rules.max_plies`)."""

    move_time: float = 2.0
    """Seconds a player has to reply (the specification's 2 s)."""
    game_time: float = 300.0
    """Seconds a game may last, checked after the werewolves' turn."""
    on_timeout: OnTimeout = OnTimeout.SKIP


DEFAULT_LIMITS = Limits()


class Turn(NamedTuple):
    """One turn that was played out: a ply, or a skipped turn (``ply`` is ``None``).

    The next UPD lists the cells of both sides' last turns' plies (none for a skip)."""

    species: Kind
    number: int
    """The ply number of this turn (0 for the vampires' first)."""
    ply: Ply | None
    state: GameState
    """The board after the turn."""
    battles: tuple[tuple[Battle, BattleOutcome], ...] = ()
    """Each random battle of the ply, with the outcome drawn."""


class Game:
    """One game from its first turn to its :class:`GameResult`; no clocks, no I/O.

    ``names`` are the players' names (vampires, werewolves) for the record; ``labels``
    (by default the names) are how a result's detail names them, e.g. with an address.
    A start that is already over (a board without one species) ends the game at once.
    """

    def __init__(
        self,
        start: GameState,
        *,
        names: tuple[str, str] = ("", ""),
        labels: tuple[str, str] | None = None,
        rules: Rules = DEFAULT_RULES,
        limits: Limits = DEFAULT_LIMITS,
        seed: int = 0,
        map_name: str = "",
    ) -> None:
        self.state = start
        self.rules, self.limits, self.seed, self.map_name = rules, limits, seed, map_name
        self.result: GameResult | None = None
        self._names = {VAMPIRES: names[0], WEREWOLVES: names[1]}
        labels = labels if labels is not None else names
        self._labels = {VAMPIRES: labels[0], WEREWOLVES: labels[1]}
        self._rng = random.Random(seed)
        self._thinks: dict[Kind, list[float]] = {VAMPIRES: [], WEREWOLVES: []}
        self._skipped = {VAMPIRES: 0, WEREWOLVES: 0}
        self._touched: dict[Kind, set[tuple[int, int]]] = {VAMPIRES: set(), WEREWOLVES: set()}
        """The cells each side's last turn changed (the next UPD lists them all)."""
        ending = end_of_game(start, rules)
        if ending is not None:
            self._end(ending.winner, Termination.of(ending.reason), ending.reason.value)

    @property
    def to_move(self) -> Kind:
        """The species whose turn it is."""
        return self.state.to_move

    def reply(self, ply: Sequence[Move], think: float, elapsed: float) -> Turn | None:
        """The player to move answered with ``ply`` after ``think`` seconds, ``elapsed``
        seconds into the game. The turn played (``None`` if the reply lost the game)."""
        mover = self._playing()
        self._thinks[mover].append(think)
        if think > self.limits.move_time:
            return self._late(mover, f" (replied after {think:.3f} s)", elapsed)
        try:
            check_ply(self.state, ply)
        except IllegalPly as error:
            self.lose(mover, Termination.ILLEGAL_PLY, _illegal_text(error))
            return None
        touched = {move.source for move in ply} | {move.target for move in ply}
        changed = len(touched | self._touched[opponent(mover)])
        if changed > MAX_UPDATE_CELLS:
            self.lose(
                mover,
                Termination.ILLEGAL_PLY,
                f"the UPD after this ply would list {changed} cells, and UPD counts them"
                f" in one byte (at most {MAX_UPDATE_CELLS}); a ply may touch fewer cells",
            )
            return None
        number = self.state.ply
        self.state, battles = apply_ply(self.state, ply, self._rng, self.rules, check=False)
        self._touched[mover] = touched
        return self._after(Turn(mover, number, tuple(ply), self.state, battles), elapsed)

    def no_reply(self, elapsed: float) -> Turn | None:
        """The player to move sent nothing within ``move_time``; ``elapsed`` seconds into
        the game. The skipped turn (``None`` if the game forfeits on time)."""
        return self._late(self._playing(), "", elapsed)

    def lose(self, species: Kind, termination: Termination, detail: str) -> GameResult:
        """``species`` loses for a fault the caller saw (``detail`` says what, without the
        player's label, which is put in front)."""
        self._playing()
        return self._end(opponent(species), termination, f"{self._labels[species]}: {detail}")

    def abort(self, detail: str) -> GameResult:
        """Stop the game before it ends: no winner (:attr:`Termination.ABORTED`)."""
        self._playing()
        return self._end(None, Termination.ABORTED, detail)

    def _playing(self) -> Kind:
        if self.result is not None:
            raise RuntimeError(f"the game is over: {self.result.summary()}")
        return self.state.to_move

    def _late(self, mover: Kind, how: str, elapsed: float) -> Turn | None:
        self._skipped[mover] += 1
        if self.limits.on_timeout is OnTimeout.FORFEIT:
            self.lose(
                mover, Termination.TIME_FORFEIT, f"no MOV within {self.limits.move_time:g} s{how}"
            )
            return None
        number = self.state.ply
        self.state = self.state.with_ply(number + 1)
        self._touched[mover] = set()
        return self._after(Turn(mover, number, None, self.state), elapsed)

    def _after(self, turn: Turn, elapsed: float) -> Turn:
        """End the game if the board or the game clock says so after ``turn``."""
        ending = end_of_game(self.state, self.rules)
        if ending is not None:
            self._end(ending.winner, Termination.of(ending.reason), ending.reason.value)
        elif turn.species == WEREWOLVES and elapsed >= self.limits.game_time:
            self._end(
                winner_by_count(self.state),
                Termination.TIME_LIMIT,
                f"{self.limits.game_time:g} s passed",
            )
        return turn

    def _end(self, winner: Kind | None, termination: Termination, detail: str) -> GameResult:
        def record(species: Kind) -> PlayerRecord:
            thinks = tuple(self._thinks[species])
            return PlayerRecord(
                species,
                self._names[species],
                self.state.total(species),
                max(thinks, default=None),
                self._skipped[species],
                thinks,
            )

        self.result = GameResult(
            winner,
            termination,
            detail,
            self.state.ply,
            record(VAMPIRES),
            record(WEREWOLVES),
            self.map_name,
            self.seed,
        )
        return self.result


def _illegal_text(error: IllegalPly) -> str:
    """The rule broken and the move that broke it."""
    return str(error) if error.move is None else f"{error} [move {error.move}]"
