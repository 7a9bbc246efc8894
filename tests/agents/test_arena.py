"""The in-process arena: valid records for real games, forfeits for misbehaving bots."""

import json
import time
from pathlib import Path

import pytest

from agents.arena import drive, new_game, play_game
from agents.random_bot import RandomAgent
from engine import GameResult, GameState, Kind, Limits, Move, OnTimeout, Ply, Rules, Termination
from engine.ending import totals, winner_by_count
from engine.kinds import HUMANS, VAMPIRES, WEREWOLVES
from engine.mapfile import load_map
from vvw.records.results import read_results
from vvw.records.stats import wdl_estimate

MAPS = Path(__file__).resolve().parents[2] / "maps"


class Stub:
    """A bot that answers with ``reply(state)``; records what the arena told it."""

    def __init__(self, reply, name: str = "stub") -> None:
        self.reply = reply
        self.name = name
        self.species: Kind | None = None

    def new_game(self, species: Kind, state: GameState) -> None:
        self.species = species

    def choose_ply(self, state: GameState, deadline: float) -> Ply:
        return self.reply(state, deadline)


def first_group_step(state: GameState, deadline: float) -> Ply:
    """A legal ply: the first own group moves whole one cell (right, or left at the edge)."""
    x, y, n = state.groups(state.to_move)[0]
    tx = x + 1 if x + 1 < state.cols else x - 1
    return (Move(x, y, n, tx, y),)


TWO_GROUPS = GameState.from_cells(
    3, 5, {(0, 0): (VAMPIRES, 3), (4, 2): (WEREWOLVES, 3), (2, 1): (HUMANS, 2)}
)


@pytest.mark.parametrize("map_name", ["thetrap.xml", "testmap.xml", "testmap2.xml"])
@pytest.mark.parametrize("seed", range(4))
def test_random_games_end_with_a_consistent_record(map_name: str, seed: int) -> None:
    game_map = load_map(MAPS / map_name)
    start = game_map.initial_state()
    vampires, werewolves = RandomAgent(seed), RandomAgent(seed + 100)
    game = new_game(vampires, werewolves, game_map, limits=Limits(move_time=1.0), seed=seed)
    record = drive(game, vampires, werewolves)
    assert isinstance(record, GameResult)
    assert record is game.result
    final = game.state
    assert final.ply == record.plies
    counts = (record.vampires.creatures, record.werewolves.creatures)
    assert counts == totals(final)
    # Creatures are never created: at most the starting monsters plus every human.
    assert sum(counts) <= sum(n for _, _, n in start.cells)
    if record.termination == Termination.ELIMINATION:
        assert min(counts) == 0
        assert record.winner == (VAMPIRES if counts[1] == 0 else WEREWOLVES)
    else:
        assert record.termination == Termination.PLY_LIMIT
        assert record.plies == Rules().max_plies
        assert record.winner == winner_by_count(final)
    assert (record.vampires.name, record.werewolves.name) == (vampires.name, werewolves.name)
    assert record.map_name == game_map.name and record.seed == seed
    thinks = (record.vampires.longest_think, record.werewolves.longest_think)
    assert all(seconds is not None and 0 < seconds < 1.0 for seconds in thinks)


def test_the_same_seeds_replay_the_same_game() -> None:
    game_map = load_map(MAPS / "thetrap.xml")
    games = [
        new_game(RandomAgent(3), RandomAgent(4), game_map, limits=Limits(move_time=1.0), seed=9)
        for _ in range(2)
    ]
    first, second = (drive(game, RandomAgent(3), RandomAgent(4)) for game in games)
    assert games[0].state == games[1].state
    assert first.winner == second.winner


def test_the_arena_tells_each_bot_its_species() -> None:
    vampires, werewolves = Stub(first_group_step), Stub(first_group_step)
    play_game(vampires, werewolves, TWO_GROUPS, move_time=1.0, rules=Rules(max_plies=2))
    assert (vampires.species, werewolves.species) == (VAMPIRES, WEREWOLVES)


def test_the_ply_limit_ends_the_game_with_the_winner_by_count() -> None:
    record = play_game(
        Stub(first_group_step),
        Stub(first_group_step),
        TWO_GROUPS,
        move_time=1.0,
        rules=Rules(max_plies=1),
    )
    assert record.termination == Termination.PLY_LIMIT
    assert record.plies == 1
    assert record.winner is None  # 3 against 3: a draw


def test_stop_when_ends_the_game_before_the_bots_see_that_position() -> None:
    asked: list[int] = []

    def step(state: GameState, deadline: float) -> Ply:
        asked.append(state.ply)
        return first_group_step(state, deadline)

    game = new_game(Stub(step), Stub(step), TWO_GROUPS, limits=Limits(move_time=1.0))
    record = drive(game, Stub(step), Stub(step), stop_when=lambda s: s.ply == 3)
    assert (record.termination, record.winner, record.plies) == (Termination.ABORTED, None, 3)
    assert asked == [0, 1, 2]
    assert game.state.ply == 3
    assert (record.vampires.creatures, record.werewolves.creatures) == totals(game.state)


def illegal(state: GameState, deadline: float) -> Ply:
    x, y, n = state.groups(state.to_move)[0]
    return (Move(x, y, n + 1, x + 1, y),)


def empty(state: GameState, deadline: float) -> Ply:
    return ()


def crash(state: GameState, deadline: float) -> Ply:
    raise RuntimeError("boom")


def malformed(state: GameState, deadline: float) -> Ply:
    return ("not", "moves")  # type: ignore[return-value]


def overrun(state: GameState, deadline: float) -> Ply:
    while time.monotonic() <= deadline:
        pass
    return first_group_step(state, deadline)


@pytest.mark.parametrize(
    ("reply", "termination", "words"),
    [
        (illegal, Termination.ILLEGAL_PLY, "rule 3"),
        (empty, Termination.ILLEGAL_PLY, "rule 1"),
        (crash, Termination.CRASH, "boom"),
        (overrun, Termination.TIME_FORFEIT, "replied after"),
        (malformed, Termination.ILLEGAL_PLY, "malformed ply"),
    ],
)
@pytest.mark.parametrize("culprit", [VAMPIRES, WEREWOLVES])
def test_a_misbehaving_bot_loses_with_the_reason(
    reply, termination: Termination, words: str, culprit: Kind
) -> None:
    bad, good = Stub(reply, "bad"), Stub(first_group_step, "good")
    vampires, werewolves = (bad, good) if culprit == VAMPIRES else (good, bad)
    record = play_game(
        vampires, werewolves, TWO_GROUPS, move_time=0.02, on_timeout=OnTimeout.FORFEIT
    )
    assert record.termination == termination
    assert record.winner == (WEREWOLVES if culprit == VAMPIRES else VAMPIRES)
    assert record.detail.startswith("bad: ")
    assert words in record.detail
    assert record.plies == (0 if culprit == VAMPIRES else 1)
    if termination == Termination.TIME_FORFEIT:
        think = record.player(culprit).longest_think
        assert think is not None and think > 0.02


def test_a_late_reply_skips_the_turn_as_on_the_server() -> None:
    # The vampires overrun every turn: each turn is skipped, the late plies never played.
    record = play_game(
        Stub(overrun, "slow"),
        Stub(first_group_step),
        TWO_GROUPS,
        move_time=0.02,
        rules=Rules(max_plies=4),
    )
    assert (record.termination, record.winner, record.plies) == (Termination.PLY_LIMIT, None, 4)
    assert (record.vampires.skipped_turns, record.werewolves.skipped_turns) == (2, 0)


# -- the strength benchmark, which plays in the arena ---------------------------------------


def test_strength_swaps_sides_cycles_maps_and_keeps_every_game(tmp_path: Path, capsys) -> None:
    from benchmarks import strength

    out = tmp_path / "strength.json"
    arguments = ["--pairs", "random:random", "--games", "6", "--maps", "thetrap,gen"]
    arguments += ["--move-time", "1", "--jobs", "1", "--json", str(out)]
    arguments += ["--results", str(tmp_path / "games.jsonl")]
    assert strength.main(arguments) == 0
    printed = capsys.readouterr().out
    assert "command: python -m benchmarks.strength --pairs random:random" in printed
    payload = json.loads(out.read_text())
    games = sorted(payload["games"], key=lambda game: game["index"])
    assert [g["first_species"] for g in games] == ["vampires", "werewolves"] * 3
    assert [g["map_name"] for g in games] == [
        "thetrap",
        "thetrap",
        "gen",
        "gen",
        "thetrap",
        "thetrap",
    ]
    (row,) = payload["table"]
    assert row["games"] == 6
    assert row["wins"] + row["draws"] + row["losses"] == 6
    assert row["score"] == pytest.approx(sum(g["score"] for g in games) / 6)
    assert 0 <= row["low"] <= row["score"] <= row["high"] <= 1
    assert row["elo"] == wdl_estimate(row["wins"], row["draws"], row["losses"]).elo
    header, lines = read_results(tmp_path / "games.jsonl")  # vvw tournament's format
    assert header.participants == (("random", "random"),) and len(lines) == 6
    assert [line.vampires.name == "random" for line in lines] == [True] * 6
    assert sum(line.winner is None for line in lines) == sum(g["score"] == 0.5 for g in games)
    by_map = {entry["map"]: entry for entry in payload["maps"]}
    assert list(by_map) == ["thetrap", "gen"]
    for name, played in (("thetrap", 4), ("gen", 2)):
        entry = by_map[name]
        here = [g for g in games if g["map_name"] == name]
        assert entry["games"] == played
        assert entry["vampires_games"] == entry["werewolves_games"] == played // 2
        assert entry["points"] == sum(g["score"] for g in here)
        assert entry["vampires_points"] == sum(
            g["score"] for g in here if g["first_species"] == "vampires"
        )
        assert entry["points"] == entry["vampires_points"] + entry["werewolves_points"]
    assert "per map" in printed and "as werewolves" in printed


def test_the_benchmark_never_plays_a_generated_map_where_conversions_stall() -> None:
    from benchmarks.strength import game_map
    from benchmarks.target_maps import playable

    for seed in range(30):
        assert playable(game_map("gen", seed))
