"""Play and luck that add up: every ply's change in winning chances split in two, exactly.

As backgammon analysers do, a ply's change in the mover's chances is its **play** (the
ply's expected chance against the best ply's) plus its **luck** (what the dice gave
against what they gave on average), so at every ply

    chance before = chance after − play − luck

holds exactly, and the chances before and after are the game's curve (the chance after a
ply is the next position's chance before, from the other side). For one ply:

* every outcome of a ply (one board, or the exact distribution of a ply with random
  battles) is valued by searching it as a position is searched (:mod:`vvw.analysis.search`);
  the outcome that happened is valued by the curve itself (its position's chance);
* the ply's **expected chance** is the mean over its outcomes, the one that happened
  counted at the curve's value (when outcomes are searched less deep than a position,
  their mean is moved by what the deeper look changed for the one that happened);
* the **best ply's** expected chance is valued the same way (the search's best ply);
* the **chance before** is the best ply's: play is 0 for the search's own ply, so the
  chance before it is the chance after it (when both sides play the search's plies, the
  chances do not move), unless it turned out lost or drawn for sure, which the search did
  not see (the chance before is then the search's own). A ply that turns out better than
  the search's best (a deeper look along the game) has a positive play;
* **luck** = chance after − the ply's expected chance: 0 without random battles.

The searches of one turn (:func:`search_turn`) need nothing from other turns, so turns are
searched in any order over any number of processes; :func:`judged_turns` then puts them
together from the last turn back, since a chance before needs the chance after.
"""

from collections.abc import Sequence
from fractions import Fraction

import attrs

from engine import GameState, Kind, Ply, ply_outcomes
from vvw.analysis.game import PlayedGame, PlayedTurn
from vvw.analysis.judging import drop
from vvw.analysis.luck import BattleLuck, battle_luck
from vvw.analysis.search import PositionSearch, Searched

CERTAIN = (0.0, 0.5, 1.0)
"""The chances of a finished game."""
Scored = tuple[tuple[Fraction, GameState, float], ...]
"""A ply's outcomes: probability, board, the mover's expected score there."""


@attrs.frozen
class TurnSearch:
    """What one turn's searches found, before the turns are put together."""

    turn: PlayedTurn
    searched: Searched
    """The position before the turn."""
    best_expected: float | None
    """The mover's expected chance after the best ply, its outcomes searched as positions
    are; ``None`` when the ply played is the best (or leads where it does)."""
    outcomes: Scored = ()
    """A ply with random battles: its outcomes, scored."""
    after_chance: float | None = None
    """The mover's chance on the board after the turn, when no later turn starts from it."""
    battles: tuple[BattleLuck, ...] = ()


@attrs.frozen
class TurnAnalysis:
    """One turn analysed. Chances are expected scores (0 to 1) for the mover."""

    number: int
    side: Kind
    before: GameState
    score: float
    """The mover's chance before the turn (on the curve)."""
    best: Ply
    depth: int
    how: str
    played: Ply | None = None
    """``None`` for a skipped turn."""
    after: float | None = None
    """The mover's chance after the turn (on the curve; ``None``: not judged)."""
    battles: tuple[BattleLuck, ...] = ()
    think: float | None = None
    value: float | None = None
    """The search's own score of the position, or a solved endgame's exact chance."""
    expected: float | None = None
    """The ply's expected chance (``None``: not judged); ``after`` when no battle."""
    luck: float = 0.0
    """``after − expected``: what the dice gave the mover (a share of a game)."""

    @property
    def play(self) -> float:
        """``expected − score``: what the ply gained against the best (lost: negative)."""
        return 0.0 if self.expected is None else self.expected - self.score

    @property
    def drop(self) -> float:
        """Points (0 to 100) the ply played lost against the best."""
        return 0.0 if self.expected is None else drop(self.score, self.expected)

    @property
    def judged(self) -> bool:
        return self.expected is not None


def _outcomes(search: PositionSearch, state: GameState, ply: Ply | None) -> list[GameState]:
    if ply is None:  # a skipped turn: the board as it was, the other side to move
        return [state.with_ply(state.ply + 1)]
    return [after for _, after in ply_outcomes(state, ply, search.rules, exact=True)]


def _expected(scored: Scored) -> float:
    return float(sum(p * Fraction(chance) for p, _, chance in scored))


def search_turn(search: PositionSearch, turn: PlayedTurn, next_known: bool) -> TurnSearch:
    """One turn's searches; ``next_known``: a later turn starts from the board after it."""
    searched = search.position(turn.before)
    if turn.illegal:
        return TurnSearch(turn, searched, None)
    mover = turn.side
    played = _outcomes(search, turn.before, turn.ply)
    outcomes: Scored = ()
    battles: tuple[BattleLuck, ...] = ()
    after_board = turn.after
    if len(played) > 1:
        assert turn.ply is not None
        outcomes = tuple(search.outcomes(turn.before, turn.ply))
        if after_board is not None:
            battles = tuple(
                battle_luck(turn.number, turn.before, turn.ply, after_board, outcomes, search.rules)
            )
    elif after_board is None:
        after_board = played[0]
    after_chance = None
    if not next_known and after_board is not None:
        after_chance = search.chance_for(after_board, mover)
    best_expected = None
    if searched.best != turn.ply:
        best = _outcomes(search, turn.before, searched.best)
        if best != played or len(best) > 1:
            best_expected = _expected(tuple(search.outcomes(turn.before, searched.best)))
    return TurnSearch(turn, searched, best_expected, outcomes, after_chance, battles)


def _after_chance(found: TurnSearch, following: TurnAnalysis | None) -> float | None:
    """The mover's chance after the turn: the next position's on the curve, if a later turn
    starts from the board after it, else what the turn's own search found."""
    turn = found.turn
    if following is not None and turn.after is not None and following.before == turn.after:
        return following.score if following.side == turn.side else 1.0 - following.score
    return found.after_chance


def judged(found: TurnSearch, following: TurnAnalysis | None) -> TurnAnalysis:
    """A turn put together (see the module docstring); ``following``: the next turn's."""
    turn, searched = found.turn, found.searched
    if turn.illegal:  # it lost the game: not judged
        return _turn(found, searched.score, searched.best)
    after = _after_chance(found, following)
    luck = 0.0
    if found.outcomes:
        mean = _expected(found.outcomes)
        happened = [c for _, state, c in found.outcomes if state == turn.after]
        if after is None or not happened:  # the dice's outcome was not seen
            expected = after = mean
        else:
            luck = happened[0] - mean
            expected = after - luck
    else:
        assert after is not None
        expected = after
    best = found.best_expected
    if best is None:  # the search's own ply: it loses nothing…
        best = expected
        if expected in CERTAIN and expected < 1.0:  # …unless found lost or drawn for sure
            best = searched.score
    return attrs.evolve(
        _turn(found, best, searched.best),
        after=after,
        battles=found.battles,
        expected=expected,
        luck=luck,
    )


def _turn(found: TurnSearch, score: float, best: Ply) -> TurnAnalysis:
    turn, searched = found.turn, found.searched
    return TurnAnalysis(
        turn.number,
        turn.side,
        turn.before,
        score,
        best,
        searched.depth,
        searched.how,
        played=turn.ply,
        think=turn.think,
        value=searched.value,
    )


def judged_turns(game: PlayedGame, found: Sequence[TurnSearch]) -> tuple[TurnAnalysis, ...]:
    """Every turn put together, from the last back (a chance before needs the one after)."""
    turns: list[TurnAnalysis] = []
    following: TurnAnalysis | None = None
    for one in reversed(found):
        following = judged(one, following)
        turns.append(following)
    return tuple(reversed(turns))


def next_known(game: PlayedGame, index: int) -> bool:
    """Whether a later turn of ``game`` starts from the board after turn ``index``."""
    turns = game.turns
    after = turns[index].after
    return index + 1 < len(turns) and after is not None and turns[index + 1].before == after
