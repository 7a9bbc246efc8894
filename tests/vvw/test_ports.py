"""A port that cannot be listened on is named with what it was for, before anything is
written: no results file, no transcript folder."""

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from vvw.cli import main
from vvw.errors import UsageError
from vvw.ports import Listening, check_free, start_listening
from vvw.web.live import LiveHub, serve_view

ROOT = Path(__file__).resolve().parents[2]
PLAY = f"{sys.executable} {ROOT / 'tests' / 'server' / 'bots' / 'bot.py'} play {{host}} {{port}}"


@pytest.fixture
def busy() -> Iterator[int]:
    """A port something else listens on."""
    with socket.create_server(("127.0.0.1", 0)) as other:
        yield other.getsockname()[1]


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    return err.strip()


@pytest.mark.parametrize(
    ("words", "use"),
    [
        (["serve", "--map", "testmap", "--port", "{busy}"], "the bots (--port)"),
        (
            ["serve", "--map", "testmap", "--port", "0", "--view", "--view-port", "{busy}"],
            "the live view (--view-port)",
        ),
        (["proxy", "--listen", "{busy}", "--upstream", "1"], "the bots (--listen)"),
        (
            ["proxy", "--listen", "0", "--upstream", "1", "--view", "--view-port", "{busy}"],
            "the live view (--view-port)",
        ),
    ],
)
def test_a_busy_port_is_named_with_what_it_was_for(
    words: list[str],
    use: str,
    busy: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([word.format(busy=busy) for word in words]) == 2
    line = _one_line(capsys)
    assert line.startswith(f"vvw {words[0]}: cannot listen on 127.0.0.1:{busy} for {use}: ")
    assert list(tmp_path.iterdir()) == []  # the proxy made no transcript folder


def test_a_tournament_with_a_busy_view_port_writes_nothing_and_says_the_same_again(
    busy: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "r.jsonl"
    command = ["tournament", PLAY, PLAY, "--maps", "testmap", "--results", str(results)]
    for _ in range(2):
        assert main([*command, "--view", "--view-port", str(busy)]) == 2
        assert _one_line(capsys) == (
            f"vvw tournament: cannot listen on 127.0.0.1:{busy} for the live view"
            " (--view-port): Address already in use"
        )
        assert not results.exists()


def test_the_same_port_twice_is_refused() -> None:
    places = [Listening("127.0.0.1", 0, "any"), Listening("127.0.0.1", 0, "another")]
    check_free(places)  # port 0: any free one, each time
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    twice = [Listening("127.0.0.1", port, "the bots"), Listening("127.0.0.1", port, "the view")]
    with pytest.raises(UsageError, match=f"127.0.0.1:{port} for the view: "):
        check_free(twice)


async def test_a_port_taken_after_the_check_is_still_named(busy: int) -> None:
    place = Listening("127.0.0.1", busy, "the live view (--view-port)")
    async with trio.open_nursery() as nursery:
        with pytest.raises(UsageError, match=f"listen on 127.0.0.1:{busy} for the live view"):
            await start_listening(nursery, place, serve_view, LiveHub(), busy, "127.0.0.1")
