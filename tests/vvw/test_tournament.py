"""``vvw tournament`` as users run it: schedules, results files, resume, signals, bad bots."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Kind, Termination
from tests.helpers.processes import processes_mentioning
from vvw.cli import main
from vvw.mapchoice import resolve_maps
from vvw.records.results import read_results
from vvw.running.participants import parse_participants
from vvw.running.schedule import schedule, scheduled_numbers

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "server" / "bots" / "bot.py"
FAST = ["--maps", "testmap", "--ply-limit", "8", "--seed", "5"]


def bot(mode: str, *extra: str) -> str:
    return " ".join([sys.executable, str(BOT), mode, "{host}", "{port}", *extra])


def comparable(path: Path) -> list[tuple]:
    """What decides a game, without times and paths: equal for equal plays."""
    _, games = read_results(path)
    return sorted(
        (
            g.key,
            g.vampires.name,
            g.werewolves.name,
            g.vampires.seed,
            g.werewolves.seed,
            g.map,
            g.battle_seed,
            g.winner,
            g.termination,
            g.plies,
            g.vampires.creatures,
            g.werewolves.creatures,
        )
        for g in games
    )


def test_schedule_pairs_games_with_sides_swapped_on_the_same_map_and_seed():
    players = parse_participants(["random", "greedy", "name=c", "random"])
    maps = resolve_maps(["thetrap", "testmap"])
    games = schedule(players, "round-robin", maps, 2, seed=3)
    assert len(games) == 3 * 2 * 2 * 2  # pairings × maps × rounds × 2
    assert len({g.key for g in games}) == len(games)
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first.pair == second.pair and first.map == second.map
        assert first.battle_seed == second.battle_seed
        assert (first.vampires, first.werewolves) == (second.werewolves, second.vampires)
    assert games == schedule(players, "round-robin", maps, 2, seed=3)  # reproducible
    assert [g.battle_seed for g in games] != [
        g.battle_seed for g in schedule(players, "round-robin", maps, 2, seed=4)
    ]
    gauntlet = schedule(players, "gauntlet", maps[:1], 1, seed=3)
    assert {(g.vampires.name, g.werewolves.name) for g in gauntlet} == {
        ("random", "greedy"),
        ("greedy", "random"),
        ("random", "c"),
        ("c", "random"),
    }


@pytest.mark.parametrize("form", ["round-robin", "gauntlet"])
def test_a_games_number_follows_from_the_plan_alone(form: str) -> None:
    players = parse_participants(["random", "greedy", "name=c", "random", "name=d", "random"])
    maps = resolve_maps(["thetrap", "testmap", "testmap2"])
    games = schedule(players, form, maps, 2, seed=3)
    names = [player.name for player in players]
    assert scheduled_numbers(names, form, len(maps), 2) == {g.key: g.number for g in games}
    assert [g.number for g in games] == list(range(1, len(games) + 1))


def test_a_crashing_bot_loses_its_games_and_the_run_goes_on(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    code = main(
        [
            "tournament",
            "name=good",
            bot("play"),
            "name=bad",
            bot("crash"),
            "name=also",
            bot("play"),
            *FAST,
            "--results",
            str(results),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    header, games = read_results(results)
    assert len(games) == header.games == 6
    crashes = [g for g in games if g.termination is Termination.CRASH]
    assert len(crashes) == 4 and all(g.loser().name == "bad" for g in crashes)
    assert all("exited with code 3" in g.reason for g in crashes)
    for game in crashes:
        (err,) = game.loser().outputs
        assert Path(err).read_text().endswith("boom: the bot broke\n")
        assert game.logs is not None and game.logs in out  # the summary says where
    assert "abnormal games (4):" in out


def test_report_recomputes_the_tables_from_the_file_alone(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    assert (
        main(
            [
                "tournament",
                "name=one",
                bot("play"),
                "name=two",
                bot("play"),
                *FAST,
                "--rounds",
                "2",
                "--results",
                str(results),
                "--sprt",
                "elo0=0,elo1=50",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert main(["tournament", "report", str(results)]) == 0
    again = capsys.readouterr().out
    assert again.strip() in printed and "LLR" in again
    assert main(["tournament", "report", str(results), "--json"]) == 0
    tables = json.loads(capsys.readouterr().out)
    one = next(row for row in tables["participants"] if row["participant"] == "one")
    assert one["games"] == 4 and one["wins"] + one["draws"] + one["losses"] == 4
    assert tables["sprt"]["upper"] == pytest.approx(2.944, abs=0.001)
    assert main(["tournament", "report", str(results), "--csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("participant,opponent,games")


def test_report_of_a_file_that_is_not_results_is_one_line(tmp_path, capsys):
    bad = tmp_path / "x.jsonl"
    bad.write_text("hello\n")
    assert main(["tournament", "report", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}, line 1, is not a results line (" in err
    assert err.strip().endswith(
        "mend it or delete it (--resume plays the game of a deleted line again)"
    )
    assert len(err.strip().splitlines()) == 1


def test_an_existing_results_file_needs_resume_and_the_same_plan(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    base = [
        "tournament",
        "name=one",
        bot("play"),
        "name=two",
        bot("play"),
        *FAST,
        "--results",
        str(results),
    ]
    assert main(base) == 0
    assert main(base) == 2
    assert "add --resume" in capsys.readouterr().err
    assert main([*base, "--resume", "--move-time", "1"]) == 2
    assert "holds another run (move_time 2.0 there, 1.0 here)" in capsys.readouterr().err
    assert main([*base, "--resume", "--seed", "6"]) == 2
    assert "holds another run (seed 5 there, 6 here)" in capsys.readouterr().err
    assert main([*base, "--resume"]) == 0  # nothing left to play
    assert "2 games, 0 to play" in capsys.readouterr().out


def test_concurrency_two_plays_the_same_games_as_one(tmp_path):
    players = ["name=a", bot("play"), "name=b", bot("play"), "name=c", bot("play")]
    files = []
    for concurrency in ("1", "2"):
        results = tmp_path / f"c{concurrency}.jsonl"
        assert (
            main(
                [
                    "tournament",
                    *players,
                    *FAST,
                    "--concurrency",
                    concurrency,
                    "--results",
                    str(results),
                ]
            )
            == 0
        )
        files.append(comparable(results))
    assert files[0] == files[1] and len(files[0]) == 6


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)]
)
def test_a_signal_mid_run_ends_every_bot_keeps_every_game_and_resume_plays_the_rest(
    tmp_path, signum, code
):
    stalled = tmp_path / "stalled.pid"
    results = tmp_path / "r.jsonl"
    command = [
        sys.executable,
        "-m",
        "vvw",
        "tournament",
        "name=a",
        bot("play"),
        "name=b",
        bot("play"),
        "name=s",
        bot("stall", str(stalled)),
        "--maps",
        "testmap",
        "--ply-limit",
        "8",
        "--seed",
        "5",
        "--move-time",
        "0.5",
        "--on-timeout",
        "forfeit",
        "--results",
        str(results),
    ]
    run = subprocess.Popen(
        command,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    deadline = time.monotonic() + 60
    while not stalled.exists():  # a separate process: nothing to wait on but its file
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.02)
    run.send_signal(signum)  # during a game of a:s, after the two games of a:b
    out, err = run.communicate(timeout=30)
    assert run.returncode == code, err
    assert "Traceback" not in err.decode() and "--resume" in err.decode()
    assert processes_mentioning(str(tmp_path)) == []
    _, kept = read_results(results)
    assert [g.key for g in kept] == ["r1:m0:a:b:1", "r1:m0:a:b:2"]
    assert "2 of 6 games played" in out.decode()
    resumed = subprocess.run(
        [*command, "--resume"],
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "6 games, 4 to play" in resumed.stdout.decode()
    header, games = read_results(results)
    assert len(games) == header.games == 6 and len({g.key for g in games}) == 6
    assert [g.key for g in games[:2]] == [g.key for g in kept]


def test_progress_lines_print_names_as_they_are(capsys):
    from vvw.records.results import GameLine, Header, Side
    from vvw.records.standings import standings
    from vvw.running.terminal import RunProgress

    game = GameLine(
        key="r1:m0:a:b:1",
        pair="r1:m0:a:b",
        round=1,
        map="thetrap",
        battle_seed=1,
        vampires=Side("[bold]a", "x"),
        werewolves=Side("b", "y"),
        winner=None,
        termination=Termination.PLY_LIMIT,
    )
    header = Header(
        participants=[("[bold]a", "x"), ("b", "y")],
        format="round-robin",
        maps=["thetrap"],
        rounds=1,
        seed=1,
        games=2,
    )
    with RunProgress(2, 0) as progress:
        progress.finished(game, standings(header, [game]))
    assert "[1/2] r1:m0:a:b:1 on thetrap: [bold]a vs b: draw by ply limit" in (
        capsys.readouterr().out
    )


def test_the_standings_count_each_participants_late_turns_and_its_think_times():
    from vvw.records.results import GameLine, Header, Side
    from vvw.records.standings import format_text, standings, to_json

    def game(n: int, a: Side, b: Side) -> GameLine:
        return GameLine(
            key=f"r1:m0:a:b:{n}",
            pair="r1:m0:a:b",
            round=1,
            map="thetrap",
            battle_seed=1,
            vampires=a,
            werewolves=b,
            winner=Kind.VAMPIRES,
            termination=Termination.ELIMINATION,
        )

    games = [
        game(
            1,
            Side("a", "x", longest_think=0.9, skipped_turns=2, thinks=[0.1] * 9 + [0.9]),
            Side("b", "y", longest_think=0.5, thinks=[0.5, 0.3]),
        ),
        game(
            2,
            Side("b", "y", longest_think=0.75, skipped_turns=1),  # a file of version 1
            Side("a", "x", longest_think=0.1, skipped_turns=3, thinks=[0.1] * 10),
        ),
    ]
    header = Header(
        participants=[("a", "x"), ("b", "y")],
        format="round-robin",
        maps=["thetrap"],
        rounds=1,
        seed=1,
        games=2,
    )
    table = standings(header, games)
    rows = {row["participant"]: row for row in to_json(table)["participants"]}
    thinks = {name: [row[f"think_{x}"] for x in ("mean", "p95")] for name, row in rows.items()}
    assert (rows["a"]["late_turns"], rows["a"]["slowest_think"], thinks["a"]) == (
        5,
        0.9,
        [0.14, 0.1],
    )
    assert (rows["b"]["late_turns"], rows["b"]["slowest_think"], thinks["b"]) == (
        1,
        0.75,
        [0.4, 0.5],
    )
    text = format_text(table)
    assert " late fallback  think    p95    max\n" in text
    (line_a,) = [line for line in text.splitlines() if line.startswith(" 1  a ")]
    assert line_a.endswith("    5        0  0.14s  0.10s  0.90s")


def test_report_of_several_runs_counts_their_games_together(tmp_path, capsys):
    files = []
    for seed in ("5", "6"):
        files.append(tmp_path / f"seed{seed}.jsonl")
        assert (
            main(
                [
                    "tournament",
                    "name=one",
                    bot("play"),
                    "name=two",
                    bot("play"),
                    "--maps",
                    "testmap",
                    "--ply-limit",
                    "8",
                    "--seed",
                    seed,
                    "--results",
                    str(files[-1]),
                ]
            )
            == 0
        )
    capsys.readouterr()
    alone = []
    for path in files:
        assert main(["tournament", "report", str(path), "--json"]) == 0
        alone.append(json.loads(capsys.readouterr().out)["pairs"][0])
    assert main(["tournament", "report", *map(str, files), "--json"]) == 0
    tables = json.loads(capsys.readouterr().out)
    (pair,) = tables["pairs"]
    for count in ("games", "wins", "draws", "losses"):
        assert pair[count] == alone[0][count] + alone[1][count]
    assert pair["games"] == tables["played"] == tables["scheduled"] == 4
    assert [run["seed"] for run in tables["runs"]] == [5, 6]
    assert main(["tournament", "report", *map(str, files)]) == 0
    assert capsys.readouterr().out.startswith(
        "4 of 4 games played in 2 runs (round-robin, 1 map, seeds 5, 6)"
    )


def _run(path: Path, seed: int, move_time: float = 2.0, command: str = "x") -> Path:
    from vvw.records.results import GameLine, Header, ResultsWriter, Side

    header = Header(
        participants=[("a", command), ("b", "y")],
        format="round-robin",
        maps=["thetrap"],
        rounds=1,
        seed=seed,
        games=2,
        settings={"move_time": move_time, "ply_limit": 200},
    )
    writer = ResultsWriter(path, header)
    commands = dict(header.participants)
    for number, (first, second) in enumerate([("a", "b"), ("b", "a")], 1):
        writer.add(
            GameLine(
                key=f"r1:m0:a:b:{number}",
                pair="r1:m0:a:b",
                round=1,
                map="thetrap",
                battle_seed=seed,
                vampires=Side(first, commands[first]),
                werewolves=Side(second, commands[second]),
                winner=Kind.VAMPIRES,
                termination=Termination.ELIMINATION,
            )
        )
    writer.close()
    return path


@pytest.mark.parametrize(
    ("other", "says"),
    [
        ({"seed": 1}, "hold the same plan (seed 1)"),
        ({"seed": 2, "move_time": 0.5}, "different settings (move_time 2.0 and 0.5)"),
        ({"seed": 2, "command": "z"}, "name two different bots 'a' ('x' and 'z')"),
    ],
)
def test_report_refuses_runs_that_are_not_one_tournament(tmp_path, capsys, other, says):
    first = _run(tmp_path / "first.jsonl", seed=1)
    second = _run(tmp_path / "second.jsonl", **other)
    assert main(["tournament", "report", str(first), str(second)]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1


def test_combined_runs_keep_their_games_apart_though_their_keys_repeat(tmp_path):
    from vvw.records.results import combine_runs
    from vvw.records.standings import standings

    paths = [_run(tmp_path / f"{seed}.jsonl", seed) for seed in (1, 2)]
    header, games = combine_runs([(path, *read_results(path)) for path in paths])
    assert (header.games, header.rounds, header.seed) == (4, 2, 1)
    assert [g.key for g in games] == [
        "1/r1:m0:a:b:1",
        "1/r1:m0:a:b:2",
        "2/r1:m0:a:b:1",
        "2/r1:m0:a:b:2",
    ]
    (pair,) = standings(header, games).pairs
    assert (pair.tally.wins, pair.tally.losses, pair.pairs) == (2, 2, (0, 0, 2, 0, 0))
