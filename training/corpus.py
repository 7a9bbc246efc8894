"""A corpus of games with their results, to learn winning chances from.

    python -m training.corpus [--games 3000] [--out runs/corpus] [--seed 1] [--jobs 1]

Plays games between varied bots in the in-process arena (:mod:`agents.arena`, the
engine's own :class:`engine.game.Game`, no sockets): every built-in and reference bot of
:mod:`agents.registry`, the search bots at several fixed depths (:data:`PLAYERS`), each
ply replaced by a random legal one with a small probability (:data:`NOISE`) so that the
positions vary; on the official maps of ``maps/`` and on maps generated at every size up
to 40 × 40 (:func:`choose_map`). Every third game is between two bots of one reference
family (``seed2019``, ``zcsn``, ``seed2025``): the games a family is measured on when
it is left out of the training.

Game ``i`` depends only on ``--seed`` and ``i`` (the bots search to fixed depths, the
game clock is off), so a corpus is the same on any machine, whatever the load or
``--jobs``. Each game is written as it ends, to ``OUT/games/NNNNNN.parquet``; a run
stopped (Ctrl-C) and started again with the same options plays only the missing games.

The format (Parquet, one row per position before a turn; read all with
:func:`read_corpus`) is told in :data:`SCHEMA_DOC` and in docs/analysis.md. Needs the
``train`` extra (``pip install -e '.[train]'``: pyarrow).
"""

import argparse
import json
import os
import random
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import attrs

from agents.arena import play_game
from agents.base import Agent
from agents.registry import make_agent
from engine import GameResult, GameState, Kind, Ply, Termination, Turn
from engine.kinds import VAMPIRES
from engine.mapfile import GameMap, load_map
from engine.mapgen import generate_map
from engine.movegen import random_ply
from protocol.printable import printable

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"
OFFICIAL_MAPS = tuple(sorted(path.stem for path in MAPS_DIR.glob("*.xml")))
"""The map files that come with vvw (the course's official maps and fixed generated ones)."""
MAX_SIDE = 40
"""Generated maps are up to this many cells on a side."""
MIN_SIDE = 3
REFERENCE_FAMILIES = ("seed2019", "zcsn", "seed2025")
"""The reference bots (earlier students' bots): each left out in turn by the calibration."""


@attrs.frozen
class Player:
    """A bot of a family with its options; ``label`` names it in the corpus."""

    family: str
    options: tuple[tuple[str, int], ...] = ()

    @property
    def label(self) -> str:
        return self.family + "".join(f" {name}={value}" for name, value in self.options)

    def make(self, seed: int) -> Agent:
        return make_agent(self.family, seed=seed, **dict(self.options))


def _depths(family: str, *depths: int) -> list[Player]:
    return [Player(family, (("depth", d),)) for d in depths]


PLAYERS: tuple[Player, ...] = (
    Player("random"),
    Player("greedy"),
    *_depths("alphabeta", 1, 2, 3),
    *_depths("expectiminimax", 1, 2, 3),
    *_depths("seed2019", 1, 2, 3),
    *_depths("zcsn", 2, 3, 4),
    *_depths("seed2025", 1, 2, 3),
    Player("racer"),
    Player("striker"),
)
"""Who plays: every bot of the registry, the search bots at several fixed depths (time
budgets would make a game depend on the machine and its load)."""
RANDOM_DEPTH = 2
"""The deepest search that plays ``random``: its plies split groups at random, and the
many small groups make a deeper search's plies take minutes."""
NOISE = 0.03
"""Probability that a ply of a bot (not ``random``) is replaced by a random legal ply."""
MOVE_TIME = 120.0
"""Seconds per reply: a limit only (the bots search to fixed depths), far above any reply."""
GAME_TIME = 1e9
"""The game clock, off: a game ends by elimination or at the ply limit only."""
PLAN = 3
"""The version of :func:`plan_game` (a corpus made by another plan is refused): 3 added
``racer`` and ``striker`` to :data:`PLAYERS`."""
GAMES = 3000
"""The games of a full corpus (about 260,000 positions; docs/analysis.md tells the time)."""

SCHEMA_DOC = {
    "game": "int32: the game's index (its seed is --seed + game)",
    "ply": "int16: the ply number of the position (even: vampires to move)",
    "rows": "int16: the board's rows",
    "cols": "int16: the board's columns",
    "cells": "list<int32>: the board, (pos, kind, count) flattened, pos = y·cols + x,"
    " kind 1 humans, 2 vampires, 3 werewolves (engine.kinds)",
    "score": "float32: what the side to move scored in the end (1 win, 0.5 draw, 0 loss)",
    "map": "string: the map's name (a file of maps/, or gen-WxH-HOMES-SEED)",
    "vampires": "string: the vampires' player (family and options)",
    "werewolves": "string: the werewolves' player",
    "vampires_family": "string: the vampires' bot family (agents.registry name)",
    "werewolves_family": "string: the werewolves' bot family",
    "plies": "int16: the plies the game lasted",
    "termination": "string: how it ended (elimination, ply limit)",
}
"""The corpus's columns, one row per position before a turn (the final board is not kept)."""


class Noisy:
    """A bot whose plies are each, with probability ``noise``, a random legal ply instead."""

    def __init__(self, agent: Agent, noise: float, seed: int) -> None:
        self.agent = agent
        self.name = agent.name
        self.noise = noise
        self.rng = random.Random(seed)

    def new_game(self, species: Kind, state: GameState) -> None:
        self.agent.new_game(species, state)

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        if self.rng.random() < self.noise:
            return random_ply(state, self.rng)
        return self.agent.choose_ply(state, deadline)


@attrs.frozen
class Planned:
    """One game of the corpus: its index, seed, players and map."""

    index: int
    seed: int
    vampires: Player
    werewolves: Player
    map_label: str


def choose_map(rng: random.Random) -> str:
    """An official map one time in four, else ``gen:WxH:HOMES``: sides of 3 to 40, as many
    mirrored homes as one cell in 25 (1 to 20)."""
    if rng.random() < 0.25:
        return rng.choice(OFFICIAL_MAPS)
    width, height = rng.randint(MIN_SIDE, MAX_SIDE), rng.randint(MIN_SIDE, MAX_SIDE)
    room = (width // 2) * height + (width % 2) * (height // 2) - 1
    homes = max(0, min(room, rng.randint(1, max(1, min(20, width * height // 25)))))
    return f"gen:{width}x{height}:{homes}"


def shallow(player: Player) -> bool:
    """Whether ``player`` searches at most :data:`RANDOM_DEPTH` plies deep (or not at all)."""
    return dict(player.options).get("depth", 0) <= RANDOM_DEPTH


def plan_game(index: int, seed: int) -> Planned:
    """Game ``index`` of the corpus seeded ``seed``: every third one between two players of
    one reference family, the others between any two players (``random``'s opponent a
    shallow one: :data:`RANDOM_DEPTH`)."""
    game_seed = seed + index
    rng = random.Random(game_seed)
    if index % 3 == 0:
        family = REFERENCE_FAMILIES[(index // 3) % len(REFERENCE_FAMILIES)]
        own = [p for p in PLAYERS if p.family == family]
        vampires, werewolves = rng.choice(own), rng.choice(own)
    else:
        vampires, werewolves = rng.choice(PLAYERS), rng.choice(PLAYERS)
        if "random" in (vampires.family, werewolves.family):
            pick = [p for p in PLAYERS if shallow(p)]
            vampires = vampires if shallow(vampires) else rng.choice(pick)
            werewolves = werewolves if shallow(werewolves) else rng.choice(pick)
    return Planned(index, game_seed, vampires, werewolves, choose_map(rng))


def game_map(label: str, seed: int) -> GameMap:
    """A map by name in ``maps/``, or ``gen:WxH:HOMES`` generated with ``seed``."""
    if label.startswith("gen:"):
        size, homes = label[4:].split(":")
        width, height = (int(n) for n in size.split("x"))
        return generate_map(width, height, int(homes), seed)
    return load_map(MAPS_DIR / f"{label}.xml")


def play(planned: Planned, noise: float = NOISE) -> tuple[GameMap, list[Turn], GameResult]:
    """Play one planned game: its map, its turns and its result."""
    chosen = game_map(planned.map_label, planned.seed)
    turns: list[Turn] = []

    def player(p: Player, salt: int) -> Agent:
        agent = p.make(planned.seed + salt)
        return agent if p.family == "random" else Noisy(agent, noise, planned.seed * 2 + salt)

    result = play_game(
        player(planned.vampires, 0),
        player(planned.werewolves, 1),
        chosen,
        move_time=MOVE_TIME,
        game_time=GAME_TIME,
        seed=planned.seed,
        on_turn=turns.append,
    )
    return chosen, turns, result


def game_rows(planned: Planned, noise: float = NOISE) -> dict[str, list[Any]]:
    """The columns of one game's positions (:data:`SCHEMA_DOC`), played."""
    chosen, turns, result = play(planned, noise)
    if result.termination not in (Termination.ELIMINATION, Termination.PLY_LIMIT):
        raise RuntimeError(f"game {planned.index}: {printable(result.summary())}")
    vampires_score = 0.5 if result.winner is None else float(result.winner == VAMPIRES)
    states = [chosen.initial_state(), *(turn.state for turn in turns[:-1])]
    columns: dict[str, list[Any]] = {name: [] for name in SCHEMA_DOC}
    for state in states:
        mover_score = vampires_score if state.to_move == VAMPIRES else 1.0 - vampires_score
        columns["game"].append(planned.index)
        columns["ply"].append(state.ply)
        columns["rows"].append(state.rows)
        columns["cols"].append(state.cols)
        columns["cells"].append([int(v) for cell in state.cells for v in cell])
        columns["score"].append(mover_score)
    n = len(states)
    game_level = {
        "map": chosen.name or planned.map_label,
        "vampires": planned.vampires.label,
        "werewolves": planned.werewolves.label,
        "vampires_family": planned.vampires.family,
        "werewolves_family": planned.werewolves.family,
        "plies": len(turns),
        "termination": result.termination.value,
    }
    for name, value in game_level.items():
        columns[name] = [value] * n
    return columns


def _schema() -> Any:
    import pyarrow as pa

    types = {
        "game": pa.int32(),
        "ply": pa.int16(),
        "rows": pa.int16(),
        "cols": pa.int16(),
        "cells": pa.list_(pa.int32()),
        "score": pa.float32(),
        "plies": pa.int16(),
    }
    return pa.schema([(name, types.get(name, pa.string())) for name in SCHEMA_DOC])


def write_game(directory: Path, planned: Planned, noise: float = NOISE) -> int:
    """Play game ``planned`` and write it to ``directory/NNNNNN.parquet`` (atomically: a
    file there is a whole game); the positions written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = game_rows(planned, noise)
    table = pa.table(columns, schema=_schema())
    path = directory / f"{planned.index:06d}.parquet"
    partial = path.with_suffix(".partial")
    pq.write_table(table, partial)
    os.replace(partial, path)
    return table.num_rows


def read_corpus(out: Path) -> Any:
    """The whole corpus in ``out`` as one ``pyarrow.Table`` (rows sorted by game and ply)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = sorted((out / "games").glob("*.parquet"))
    if not files:
        raise FileNotFoundError(f"no games in {out / 'games'}: make them with training.corpus")
    return pa.concat_tables([pq.read_table(path, schema=_schema()) for path in files])


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """What makes a corpus what it is (checked again when a run resumes)."""
    return {
        "format": "vvw-corpus",
        "version": 1,
        "plan": PLAN,
        "seed": args.seed,
        "noise": args.noise,
        "players": [p.label for p in PLAYERS],
        "columns": SCHEMA_DOC,
    }


def _prepare(args: argparse.Namespace) -> Path:
    """``OUT/games/`` made, the settings written or checked against the corpus's."""
    games = args.out / "games"
    games.mkdir(parents=True, exist_ok=True)
    manifest = args.out / "corpus.json"
    wanted = settings(args)
    if manifest.exists():
        found = json.loads(manifest.read_text())
        if {k: v for k, v in found.items() if k != "games"} != wanted:
            raise SystemExit(
                f"{manifest} was made with other settings (seed, noise or players): "
                "use another --out, or the same options"
            )
    manifest.write_text(json.dumps({**wanted, "games": args.games}, indent=1) + "\n")
    return games


def played(
    todo: Sequence[Planned], directory: Path, noise: float, jobs: int
) -> Iterator[tuple[Planned, int]]:
    """Play and write the games ``todo``, in this process (``jobs`` 1) or in ``jobs``
    processes; each game with its positions as it is written."""
    if jobs <= 1:
        for planned in todo:
            yield planned, write_game(directory, planned, noise)
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(write_game, directory, p, noise): p for p in todo}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def main(argv: Sequence[str] | None = None) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    parser = argparse.ArgumentParser(
        prog="python -m training.corpus", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=GAMES, help=f"games (default {GAMES})")
    parser.add_argument(
        "--out", type=Path, default=Path("runs/corpus"), help="directory (runs/corpus)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of game 0 (1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games (1)")
    parser.add_argument("--noise", type=float, default=NOISE, help=f"random plies ({NOISE})")
    args = parser.parse_args(argv)
    try:
        import pyarrow  # noqa: F401
    except ModuleNotFoundError:
        print("the corpus needs pyarrow: pip install -e '.[train]'", file=sys.stderr)
        return 2
    directory = _prepare(args)
    done = {int(path.stem) for path in directory.glob("*.parquet")}
    todo = [plan_game(i, args.seed) for i in range(args.games) if i not in done]
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    positions = 0
    with Progress(*columns) as progress:
        task = progress.add_task("games", total=args.games, completed=len(done))
        try:
            for p, written in played(todo, directory, args.noise, args.jobs):
                positions += written
                progress.update(task, advance=1, description=f"games ({positions} positions)")
                progress.console.print(
                    f"{p.index}: {p.vampires.label} vs {p.werewolves.label} on {p.map_label}",
                    highlight=False,
                )
        except KeyboardInterrupt:
            progress.console.print("stopped: run the same command again to go on")
            return 130
    print(f"{args.games} games in {args.out}, {positions} positions written by this run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
