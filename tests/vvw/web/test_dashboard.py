"""A tournament's dashboard without a browser: what it shows, escaped; the report as HTML."""

from pathlib import Path

import attrs

from engine import Kind, Termination
from vvw.cli import main
from vvw.records.results import GameLine, Header, ResultsWriter, Side
from vvw.records.standings import standings
from vvw.running.tournament import kept_transcript
from vvw.web.dashboard import FinishedGame, dashboard_body, dashboard_page

EVIL = "<img src=x onerror=alert(1)>"


def _line(number: int, vampires: str, werewolves: str, **fields) -> GameLine:
    return GameLine(
        key=f"r1:m0:{vampires}:{werewolves}:{number}",
        pair=f"r1:m0:{vampires}:{werewolves}",
        round=1,
        map="thetrap",
        battle_seed=1,
        vampires=Side(vampires, "x"),
        werewolves=Side(werewolves, "y"),
        **({"winner": Kind.VAMPIRES, "termination": Termination.ELIMINATION} | fields),
    )


def _header(names: tuple[str, str]) -> Header:
    return Header(
        participants=[(names[0], "x"), (names[1], "y")],
        format="round-robin",
        maps=["thetrap"],
        rounds=1,
        seed=1,
        games=2,
    )


def test_the_dashboard_escapes_what_participants_and_games_say() -> None:
    line = _line(
        1,
        EVIL,
        "b",
        winner=Kind.WEREWOLVES,
        termination=Termination.PROTOCOL_ERROR,
        reason=f'sent "{EVIL}"',
    )
    body = dashboard_body(standings(_header((EVIL, "b")), [line]), [FinishedGame(1, line, "r")])
    html = dashboard_page(body, live=True)
    assert "<img" not in html and html.count("&lt;img src=x onerror=alert(1)&gt;") >= 4


def test_a_game_without_a_replay_says_so_and_the_latest_comes_first() -> None:
    lines = [_line(1, "a", "b"), _line(2, "b", "a")]
    finished = [FinishedGame(1, lines[0], None), FinishedGame(2, lines[1], "replay?game=2")]
    body = dashboard_body(standings(_header(("a", "b")), lines), finished)
    assert body.index('data-game="2"') < body.index('data-game="1"')
    assert body.count("no transcript kept") == 1 and 'href="replay?game=2"' in body


def test_a_report_finds_its_transcripts_from_any_folder(tmp_path, monkeypatch) -> None:
    run = tmp_path / "runs" / "t"
    (run / "r-games" / "00001").mkdir(parents=True)
    kept = run / "r-games" / "00001" / "game.jsonl"
    kept.write_text("")
    line = _line(1, "a", "b", transcript="runs/t/r-games/00001/game.jsonl")
    monkeypatch.chdir(tmp_path)  # where the run was started
    assert kept_transcript(line, Path("runs/t/r.jsonl")) == Path("runs/t/r-games/00001/game.jsonl")
    monkeypatch.chdir(run)  # somewhere else: found under the results file's folder
    assert kept_transcript(line, Path("r.jsonl")).resolve() == kept.resolve()
    assert kept_transcript(_line(2, "b", "a"), Path("r.jsonl")) is None  # none was kept


def test_report_html_writes_the_index_and_says_what_it_could_not_show(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    writer = ResultsWriter(results, _header(("a", "b")))
    writer.add(_line(1, "a", "b", transcript=str(tmp_path / "gone.jsonl")))
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not a transcript\n")
    writer.add(_line(2, "b", "a", transcript=str(broken)))
    writer.close()
    assert main(["tournament", "report", str(results), "--html", str(tmp_path / "site")]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == f"{tmp_path / 'site' / 'index.html'}: 2 games, 0 replays"
    assert err.startswith(f"vvw tournament report: cannot show game 2 (r1:m0:b:a:2): {broken}")
    index = (tmp_path / "site" / "index.html").read_text()
    assert index.count("no transcript kept") == 2 and "<script" not in index


def test_report_html_numbers_a_runs_games_by_the_schedule_not_by_finish(tmp_path, capsys):
    header = attrs.evolve(_header(("a", "b")), maps=("thetrap", "testmap"), games=4)
    results = tmp_path / "r.jsonl"
    writer = ResultsWriter(results, header)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not a transcript\n")
    # Two games at a time: the schedule's 4th game (map 1, sides swapped) ended first.
    last = _line(2, "a", "b", transcript=str(broken))
    last = attrs.evolve(last, key="r1:m1:a:b:2", pair="r1:m1:a:b")
    writer.add(last)
    writer.add(_line(1, "a", "b"))
    writer.close()
    assert main(["tournament", "report", str(results), "--html", str(tmp_path / "site")]) == 0
    _, err = capsys.readouterr()
    assert err.startswith(f"vvw tournament report: cannot show game 4 (r1:m1:a:b:2): {broken}")
    index = (tmp_path / "site" / "index.html").read_text()
    assert 'data-game="4"' in index and 'data-game="1"' in index
    assert 'data-game="2"' not in index


def test_report_html_lists_an_abnormal_game_by_its_number_its_files_linked_its_lines_kept(
    tmp_path, capsys
):
    results = tmp_path / "r.jsonl"
    logs = tmp_path / "games" / "game001"
    logs.mkdir(parents=True)
    traceback = "exited with code 1: Traceback (most recent call last):\n  File x\nValueError: y"
    crashed = _line(
        1,
        "a",
        "b",
        winner=Kind.WEREWOLVES,
        termination=Termination.CRASH,
        reason=traceback,
        logs=str(logs),
    )
    writer = ResultsWriter(results, _header(("a", "b")))
    writer.add(crashed)
    writer.close()
    assert main(["tournament", "report", str(results), "--html", str(tmp_path / "site")]) == 0
    capsys.readouterr()
    index = (tmp_path / "site" / "index.html").read_text()
    abnormal = index[index.index('<ul id="abnormal">') :].split("</ul>")[0]
    assert "r1:m0:a:b:1" not in abnormal and "<li>game 1 on thetrap: a loses by crash" in abnormal
    assert f'<a href="../games/game001"><code>{logs}</code></a>' in abnormal
    assert f'<span class="reason">{traceback}</span>' in abnormal  # its lines, as written
    assert ".reason { white-space: pre-wrap; }" in index
