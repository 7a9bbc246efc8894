"""The results file: JSON Lines, a header line then one line per finished game, appended
(and flushed to disk) the moment each game ends, so a run stopped in any way keeps every
game it finished. ``vvw tournament``, ``vvw tournament report`` and
``benchmarks/strength.py`` all read and write it.

The header (``"type": "run"``) says the file's ``version`` and what was planned:
participants and their commands, format, maps, rounds, seed, settings, SPRT; a game line
(``"type": "game"``) says which scheduled game it is (``key``), who played which side
with what seed, the map and battle seed, the winner (``"vampires"``, ``"werewolves"`` or
``null``), the termination (a :class:`~engine.result.Termination`'s value) and reason,
plies, every think time (and the longest), the plies that were a client library's fallback,
and where its transcript and the bots' output
are. The reader gives back a :class:`GameLine` with the winner a :class:`~engine.kinds.Kind` and the
termination a ``Termination``; a file of a newer version is refused.
"""

import json
import os
from pathlib import Path
from typing import IO, Any

import attrs

from engine import Kind, Termination
from protocol.transcript import jsonable
from vvw.errors import InputFileError

VERSION = 3
"""The version this module writes in the header. It reads this one and the ones before: a
file without a version (written before versions) is version 1; version 2 added each
side's ``thinks``, version 3 its ``fallbacks``."""


class ResultsFileError(InputFileError):
    """A results file that cannot be read, or that belongs to another run."""


@attrs.frozen
class Side:
    """One side of a finished game."""

    name: str
    command: str
    seed: int | None = None
    creatures: int = 0
    longest_think: float | None = None
    skipped_turns: int = 0
    outputs: tuple[str, ...] = attrs.field(default=(), converter=lambda items: tuple(items))
    """The bot's non-empty output files (standard output, standard error)."""
    thinks: tuple[float, ...] = attrs.field(default=(), converter=lambda items: tuple(items))
    """Every reply's time in seconds, in turn order (version 2; ``()`` in older files)."""
    fallbacks: int = 0
    """Its plies that were its client library's fallbacks, not its own (version 3; bots on
    vvw's client library only, see :data:`server.processes.FALLBACKS_VARIABLE`)."""


@attrs.frozen
class GameLine:
    """One finished game, as written to the results file."""

    key: str
    """Which scheduled game: the same in every run of the same plan (resume skips it)."""
    pair: str
    """The two games of a pair (same map and battle seed, sides swapped) share it."""
    round: int
    map: str
    battle_seed: int | None
    vampires: Side = attrs.field(converter=lambda s: s if isinstance(s, Side) else Side(**s))
    werewolves: Side = attrs.field(converter=lambda s: s if isinstance(s, Side) else Side(**s))
    winner: Kind | None
    """The winning side, ``None`` for a draw (or an aborted game)."""
    termination: Termination
    reason: str = ""
    plies: int = 0
    transcript: str | None = None
    logs: str | None = None
    """The game's folder (bots' output, transcript), if anything was kept."""
    seconds: float | None = None
    retries: int = 0
    """Times the game was played again because its worker was lost (on a cluster)."""
    node: str | None = None
    """The machine that played it (on a cluster; its ``logs`` are there)."""

    @property
    def abnormal(self) -> bool:
        return self.termination.is_abnormal

    @property
    def names(self) -> tuple[str, str]:
        return (self.vampires.name, self.werewolves.name)

    def side(self, species: Kind) -> Side:
        """The side that played ``species``."""
        return self.vampires if species is Kind.VAMPIRES else self.werewolves

    def score_of(self, name: str) -> float:
        """1 for a win of ``name``, ½ for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.side(self.winner).name == name else 0.0

    def loser(self) -> Side | None:
        if self.winner is None:
            return None
        return self.side(Kind.WEREWOLVES if self.winner is Kind.VAMPIRES else Kind.VAMPIRES)


@attrs.frozen
class Header:
    """What the run planned. ``plan`` (all but the command line) must match to resume."""

    participants: tuple[tuple[str, str], ...] = attrs.field(
        converter=lambda items: tuple(tuple(item) for item in items)
    )
    """``(name, command)`` of each participant, in order."""
    format: str
    maps: tuple[str, ...] = attrs.field(converter=lambda items: tuple(items))
    rounds: int
    seed: int
    games: int
    """Games scheduled."""
    settings: dict[str, Any] = attrs.field(factory=dict)
    sprt: dict[str, float] | None = None
    command: str = ""

    def plan(self) -> dict[str, Any]:
        return {k: v for k, v in jsonable(self).items() if k != "command"}


def _line(kind: str, value: Any, **extra: Any) -> str:
    return json.dumps({"type": kind, **extra, **jsonable(value)}, ensure_ascii=False) + "\n"


def _build(cls: type, fields: dict[str, Any]) -> Any:
    known = {field.name for field in attrs.fields(cls)}
    return cls(**{k: v for k, v in fields.items() if k in known})


def _header(path: Path, fields: dict[str, Any]) -> Header:
    version = fields.pop("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"version {version!r} is not a version number")
    if version > VERSION:
        raise ResultsFileError(
            f"{path}: results file version {version} is newer than this vvw reads"
            f" ({VERSION}): upgrade vvw"
        )
    header: Header = _build(Header, fields)
    return header


_WINNERS = {"vampires": Kind.VAMPIRES, "werewolves": Kind.WEREWOLVES, None: None}


def _game(fields: dict[str, Any]) -> GameLine:
    """A game line's fields, the winner and the termination given back as enums."""
    winner = fields.get("winner")
    if winner not in _WINNERS:
        raise ValueError(f"winner {winner!r} is not vampires, werewolves or null")
    fields["winner"] = _WINNERS[winner]
    fields["termination"] = Termination(fields.get("termination"))  # ValueError if unknown
    line: GameLine = _build(GameLine, fields)
    return line


def read_results(path: Path) -> tuple[Header, list[GameLine]]:
    """The header and the games of a results file; :class:`ResultsFileError` if it is not
    one. A last line cut short (the run was killed mid-write) is left out."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ResultsFileError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ResultsFileError(f"{path} is not a results file (not UTF-8 text)") from None
    header: Header | None = None
    games: list[GameLine] = []
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            fields = json.loads(line)
            kind = fields.pop("type")
            if kind == "run":
                header = _header(path, fields)
            elif kind == "game":
                games.append(_game(fields))
        except ResultsFileError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            if number == len(lines):  # no newline after it: cut short by a kill
                break
            raise ResultsFileError(
                f"{path}, line {number}, is not a results line ({error}): mend it or delete"
                " it (--resume plays the game of a deleted line again)"
            ) from None
    if header is None:
        raise ResultsFileError(f"{path}: no header line: not a vvw results file")
    return header, games


def differing(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The keys, sorted, whose values differ between ``old`` and ``new`` (or that only one
    of them has)."""
    return [key for key in sorted(old.keys() | new.keys()) if old.get(key) != new.get(key)]


def differences(old: dict[str, Any], new: dict[str, Any]) -> str:
    """``move_time 0.3 there, 0.2 here; seed 5 there, 6 here``: what differs between two
    plans (settings one by one)."""
    parts = []
    for key in differing(old, new):
        there, here = old.get(key), new.get(key)
        if isinstance(there, dict) and isinstance(here, dict):
            parts += [
                f"{k} {there.get(k)} there, {here.get(k)} here" for k in differing(there, here)
            ]
        else:
            parts.append(f"{key} {there} there, {here} here")
    return "; ".join(parts)


def combine_runs(runs: list[tuple[Path, Header, list[GameLine]]]) -> tuple[Header, list[GameLine]]:
    """Several runs' results as one tournament's: rounds played apart (other seeds, other
    maps, other days or machines) under the same settings. Each game keeps its run in its
    ``key`` and ``pair`` (``"2/r1:m0:a:b:1"``), since keys repeat from run to run.

    :class:`ResultsFileError` if two runs cannot be counted together: the same name for
    two commands, other settings (``move_time``…), or the same plan twice (the same
    seed schedules the same games: not more of them)."""
    if len(runs) == 1:
        ((_, header, games),) = runs
        return header, games
    commands = _commands_of(runs)
    first = runs[0][1]
    headers = [header for _, header, _ in runs]
    formats = sorted({header.format for header in headers})
    sprts = [header.sprt for header in headers]
    combined = Header(
        participants=[(name, command) for name, (_, command) in commands.items()],
        format=formats[0] if len(formats) == 1 else "+".join(formats),
        maps=list(dict.fromkeys(m for header in headers for m in header.maps)),
        rounds=sum(header.rounds for header in headers),
        seed=first.seed,
        games=sum(header.games for header in headers),
        settings=first.settings,
        sprt=sprts[0] if all(sprt == sprts[0] for sprt in sprts) else None,
        command=" ; ".join(header.command for header in headers),
    )
    games = [
        attrs.evolve(game, key=f"{number}/{game.key}", pair=f"{number}/{game.pair}")
        for number, (_, _, run_games) in enumerate(runs, 1)
        for game in run_games
    ]
    return combined, games


def _commands_of(
    runs: list[tuple[Path, Header, list[GameLine]]],
) -> dict[str, tuple[Path, str]]:
    """Each participant's command (and the first run naming it), once every run is known
    to count with the others: :class:`ResultsFileError` if not (see :func:`combine_runs`)."""
    commands: dict[str, tuple[Path, str]] = {}
    plans: dict[str, Path] = {}
    first_path, first, _ = runs[0]
    for path, header, _ in runs:
        for name, command in header.participants:
            seen_in, seen = commands.setdefault(name, (path, command))
            if seen != command:
                raise ResultsFileError(
                    f"{seen_in} and {path} name two different bots {name!r}"
                    f" ({seen!r} and {command!r}): rename one of them"
                )
        changed = differing(first.settings, header.settings)
        if changed:
            key = changed[0]
            raise ResultsFileError(
                f"{first_path} and {path} were played under different settings ({key}"
                f" {first.settings.get(key)} and {header.settings.get(key)}):"
                " their games are not one tournament's"
            )
        plan = json.dumps(header.plan(), sort_keys=True)
        if plan in plans:
            raise ResultsFileError(
                f"{plans[plan]} and {path} hold the same plan (seed {header.seed}): the same"
                " games, not more of them; give each run a --seed of its own"
            )
        plans[plan] = path
    return commands


class ResultsWriter:
    """Appends game lines to a results file, each on disk before :meth:`add` returns."""

    def __init__(self, path: Path, header: Header) -> None:
        """Start ``path`` with ``header``, or continue it when it has the same plan."""
        self.path = path
        if path.exists() and path.stat().st_size > 0:
            existing, _ = read_results(path)
            if existing.plan() != header.plan():
                raise ResultsFileError(
                    f"{path} holds another run ({differences(existing.plan(), header.plan())}):"
                    " to resume it, give what it was played with; else another file"
                )
            _cut_partial_line(path)
            self._file: IO[str] = path.open("a", encoding="utf-8")
        else:
            self._file = path.open("w", encoding="utf-8")
            self._write(_line("run", header, version=VERSION))

    def _write(self, text: str) -> None:
        self._file.write(text)
        self._file.flush()
        os.fsync(self._file.fileno())

    def add(self, game: GameLine) -> None:
        self._write(_line("game", game))

    def close(self) -> None:
        self._file.close()


def _cut_partial_line(path: Path) -> None:
    """Drop a last line with no newline (a write cut short), so appending starts clean."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as file:
            file.truncate(data.rfind(b"\n") + 1)
