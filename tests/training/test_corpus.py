"""training.corpus: a game of the corpus is the same whoever plays it when, it is stored
with its result from each mover's view, a stopped run goes on where it stopped, and the
plan covers every bot, the official maps and every size up to 40 × 40."""

import random
from pathlib import Path

import pytest

from agents.registry import BOTS
from training.corpus import (
    MAX_SIDE,
    OFFICIAL_MAPS,
    PLAYERS,
    REFERENCE_FAMILIES,
    Planned,
    Player,
    choose_map,
    main,
    plan_game,
    read_corpus,
    shallow,
    write_game,
)

CHEAP = Planned(0, 7, Player("greedy"), Player("seed2019", (("depth", 1),)), "gen:7x6:3")


def test_a_game_is_stored_with_its_result_from_each_movers_view(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    written = write_game(tmp_path / "games", CHEAP)
    rows = read_corpus(tmp_path).to_pylist()
    assert len(rows) == written == rows[0]["plies"]
    assert [row["ply"] for row in rows] == list(range(written))
    first = rows[0]["score"]
    assert all(row["score"] == (first if row["ply"] % 2 == 0 else 1 - first) for row in rows)
    assert rows[0]["vampires_family"] == "greedy" and rows[0]["werewolves"] == "seed2019 depth=1"
    assert rows[0]["map"] == "gen-7x6-3-7"
    # The same game again, in another directory: the same positions.
    (tmp_path / "again" / "games").mkdir(parents=True)
    write_game(tmp_path / "again" / "games", CHEAP)
    assert read_corpus(tmp_path / "again").to_pylist() == rows


def _quick(game: Planned) -> bool:
    if not game.map_label.startswith("gen:"):
        return False
    width, height = (int(n) for n in game.map_label[4:].split(":")[0].split("x"))
    shallow = all(dict(p.options).get("depth", 1) <= 2 for p in (game.vampires, game.werewolves))
    return width * height <= 150 and shallow


def _cheap_seed() -> int:
    """A seed whose first three games are quick: small maps, shallow bots."""
    for seed in range(1, 100_000):
        if all(_quick(plan_game(i, seed)) for i in range(3)):
            return seed
    raise AssertionError("no quick seed")


def test_a_stopped_run_goes_on_with_the_games_it_lacks(tmp_path: Path, capsys) -> None:
    seed = str(_cheap_seed())
    out = tmp_path / "corpus"
    assert main(["--games", "2", "--out", str(out), "--seed", seed]) == 0
    first = {p.name: p.stat().st_mtime_ns for p in (out / "games").iterdir()}
    assert sorted(first) == ["000000.parquet", "000001.parquet"]
    assert main(["--games", "3", "--out", str(out), "--seed", seed]) == 0
    again = {p.name: p.stat().st_mtime_ns for p in (out / "games").iterdir()}
    assert len(again) == 3 and all(again[name] == first[name] for name in first)
    with pytest.raises(SystemExit, match="other settings"):
        main(["--games", "3", "--out", str(out), "--seed", seed, "--noise", "0.5"])


def test_every_bot_plays_and_every_third_game_is_within_a_reference_family() -> None:
    assert {p.family for p in PLAYERS} == set(BOTS)
    games = [plan_game(i, 1) for i in range(300)]
    for g in games[::3]:
        assert g.vampires.family == g.werewolves.family in REFERENCE_FAMILIES
    assert {g.vampires.family for g in games[::3]} == set(REFERENCE_FAMILIES)
    assert plan_game(17, 1) == plan_game(17, 1) != plan_game(17, 2)
    # random's many small groups would make a deep search's plies take minutes.
    against_random = [g for g in games if "random" in (g.vampires.family, g.werewolves.family)]
    assert against_random
    assert all(shallow(g.vampires) and shallow(g.werewolves) for g in against_random)


def test_maps_are_the_official_ones_and_generated_ones_of_every_size_up_to_40() -> None:
    rng = random.Random(3)
    labels = [choose_map(rng) for _ in range(3000)]
    assert set(OFFICIAL_MAPS) <= set(labels)
    sizes = [
        tuple(int(n) for n in label[4:].split(":")[0].split("x"))
        for label in labels
        if label.startswith("gen:")
    ]
    assert max(w for w, _ in sizes) == max(h for _, h in sizes) == MAX_SIDE
    assert len({max(w, h) for w, h in sizes}) >= MAX_SIDE - 3
