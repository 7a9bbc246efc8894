"""Draws that are exact ties of mirrored races: what a run's maps leave a bot to win.

    python -m benchmarks.mirror_races RESULTS [--player NAME]

RESULTS is a ``vvw tournament`` results file written with ``--keep-transcripts``. The
generated maps are centrally symmetric (a half turn maps each house and each start onto
the other side's). Two bots that both take the houses they reach first then often split
them as mirror images: each side converts the image of every house the other converts,
the totals are level once the last house is gone, and no battle between the two equal
armies is worth starting (between equal groups it is a coin flip for the game). The ply
limit draws. A game is counted as such a *mirrored tie* when all of that holds: the start
is its own image, the houses were split as images, the totals stayed level from the last
house to the end, and it was drawn.

Prints each draw, whether it was a mirrored tie, the maps drawn as both sides, and the
best score ``--player`` (the first participant by default) could have had had it won
every game that was not a mirrored tie.
"""

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import attrs

from engine import GameState, Kind
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.mapgen import mirror
from protocol.reading import TranscriptError
from vvw.analysis.game import PlayedGame, game_from_file
from vvw.errors import CommandError, InputFileError
from vvw.records.results import GameLine, read_results


@attrs.frozen
class Race:
    """How one game's houses were shared out."""

    symmetric: bool
    """The start is its own image under a half turn (houses, both starts)."""
    mirrored: bool
    """Each converted house's image was converted by the other side."""
    last_house: int | None
    """The ply that converted the last house (``None``: humans were left at the end)."""
    level_since: bool
    """The totals were level from the last house to the end of the game."""
    final: tuple[int, int]
    """The vampires' and the werewolves' creatures at the end."""

    @property
    def why_not(self) -> str | None:
        """Why a draw of this race is not a mirrored tie (``None``: it is one)."""
        if not self.symmetric:
            return "the map is not centrally symmetric"
        if not self.mirrored:
            return "the houses were not split as mirror images"
        if self.last_house is None:
            return "humans were left at the end"
        if not self.level_since:
            return "the totals differed after the last house"
        return None

    @property
    def tie(self) -> bool:
        """Whether the game is a mirrored tie, if it was drawn (see the module docstring)."""
        return self.why_not is None


def _image(state: GameState, x: int, y: int) -> tuple[int, int]:
    return mirror(x, y, state.cols, state.rows)


def is_symmetric(start: GameState) -> bool:
    """Whether a half turn maps the houses onto houses of the same size and each side's
    groups onto the other's."""
    cells = {
        (x, y): (kind, n)
        for kind in (HUMANS, VAMPIRES, WEREWOLVES)
        for x, y, n in start.groups(kind)
    }
    swap = {HUMANS: HUMANS, VAMPIRES: WEREWOLVES, WEREWOLVES: VAMPIRES}
    return all(
        cells.get(_image(start, x, y)) == (swap[kind], n) for (x, y), (kind, n) in cells.items()
    )


def race(game: PlayedGame) -> Race:
    """The :class:`Race` of a game (its turns must show the board after each)."""
    start = game.start
    takers: dict[tuple[int, int], Kind] = {}
    last_house = None
    level_since = True
    before = start
    houses = {(x, y) for x, y, _ in start.groups(HUMANS)}
    for turn in game.turns:
        after = turn.after
        if after is None:
            raise ValueError(f"the transcript does not show the board after ply {turn.number}")
        left = {(x, y) for x, y, _ in after.groups(HUMANS)}
        for cell in houses - left:
            takers[cell] = turn.side
        if houses and not left:
            last_house = turn.number
        if last_house is not None and after.total(VAMPIRES) != after.total(WEREWOLVES):
            level_since = False
        before, houses = after, left
    mirrored = all(
        takers.get(_image(start, x, y)) not in (None, side) for (x, y), side in takers.items()
    )
    return Race(
        is_symmetric(start),
        mirrored,
        last_house,
        level_since and last_house is not None,
        (before.total(VAMPIRES), before.total(WEREWOLVES)),
    )


@attrs.frozen
class Summary:
    """A player's games of a run, and how many of its draws were mirrored ties."""

    player: str
    games: int
    wins: int
    draws: int
    ties: int
    """Draws that were mirrored ties."""
    unread: int
    """Draws whose transcript could not be read (not counted as ties)."""
    both_sides: tuple[str, ...]
    """Maps whose two games were both mirrored ties."""

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games

    @property
    def best(self) -> float:
        """The score had every game but the mirrored ties been won."""
        return (self.games - self.ties / 2) / self.games


def summarise(player: str, games: Iterable[tuple[GameLine, Race | None]]) -> Summary:
    """The :class:`Summary` of ``player``'s games, each with its :class:`Race` (``None`` if
    its transcript could not be read: not a tie)."""
    played = wins = draws = ties = unread = 0
    tied_maps: Counter[str] = Counter()
    for line, found in games:
        if player not in line.names:
            continue
        played += 1
        score = line.score_of(player)
        wins += score == 1.0
        if line.winner is None:
            draws += 1
            if found is None:
                unread += 1
            elif found.tie:
                ties += 1
                tied_maps[line.map] += 1
    both = tuple(name for name, count in tied_maps.items() if count >= 2)
    return Summary(player, played, wins, draws, ties, unread, both)


def _race_of(line: GameLine, folder: Path) -> Race | None:
    """The game's :class:`Race` from its transcript (its path as written, else relative to
    the results file's ``folder``: the run's folder), or ``None``, said why, if unreadable."""
    if not line.transcript:
        print(f"{line.key}: no transcript kept (run with --keep-transcripts)")
        return None
    path = Path(line.transcript)
    if not path.exists() and (folder / path).exists():
        path = folder / path
    try:
        return race(game_from_file(path))
    except (CommandError, TranscriptError, ValueError) as error:
        print(f"{line.key}: {error}")
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.mirror_races", description=__doc__.split("\n")[0]
    )
    parser.add_argument("results", type=Path, help="a results file, with transcripts kept")
    parser.add_argument("--player", help="whose score (default: the first participant)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        header, lines = read_results(args.results)
    except InputFileError as error:
        print(error, file=sys.stderr)
        return 2
    player = args.player or header.participants[0][0]
    games = []
    for line in lines:
        found = (
            _race_of(line, args.results.parent)
            if line.winner is None and player in line.names
            else None
        )
        games.append((line, found))
        if found is not None:
            side = "vampires" if line.vampires.name == player else "werewolves"
            kind = f"not a mirrored tie: {found.why_not}" if found.why_not else "mirrored tie"
            v, w = found.final
            print(f"{line.map:>18} {player} as the {side:<10} draw {v}-{w}, {kind}")
    summary = summarise(player, games)
    if not summary.games:
        print(f"{player} played no game in {args.results}", file=sys.stderr)
        return 2
    print(
        f"{player}: {summary.games} games, {summary.wins}-{summary.draws}-"
        f"{summary.games - summary.wins - summary.draws}, {summary.score:.1%}"
    )
    unread = f" ({summary.unread} not read)" if summary.unread else ""
    print(f"draws: {summary.draws}, of which mirrored ties: {summary.ties}{unread}")
    print(f"maps tied as both sides: {len(summary.both_sides)} {' '.join(summary.both_sides)}")
    print(f"best score with the mirrored ties kept: {summary.best:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
