"""One fault, one verdict, told the same everywhere: what ``vvw match`` says of a game is
what its transcript (so ``replay``, ``log show``, the ladder) says."""

import sys
from pathlib import Path

from engine import Termination
from protocol.records import Result
from vvw.cli import main
from vvw.transcripts import read_transcript
from vvw.wording import plies

BOT = Path(__file__).resolve().parents[1] / "server" / "bots" / "bot.py"
CHATTY = Path(__file__).resolve().parent / "bots" / "chatty_nme.py"


def bot(mode: str) -> str:
    return f"{sys.executable} {BOT} {mode} {{host}} {{port}}"


def _kept_results(folder: Path) -> list[Result]:
    results = []
    for path in sorted(folder.iterdir()):
        (result,) = [r for r in read_transcript(path) if isinstance(r, Result)]
        results.append(result)
    return results


def test_a_crashed_bots_transcript_carries_the_crash_and_its_last_words(tmp_path, capsys):
    folder = tmp_path / "kept"
    words = ["--map", "testmap", "random", "name=crash", bot("crash"), "--games", "2"]
    assert main(["match", *words, "--transcript", str(folder), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    results = _kept_results(folder)
    assert [r.termination for r in results] == [Termination.CRASH] * 2
    for result in results:
        assert ": its process " in result.detail and "-crash exited with code 3: " in result.detail
        assert result.detail.endswith("Traceback (most recent call last):\nboom: the bot broke")
        said = result.detail.replace("\n", "\\n")  # a line of the match: printable
        assert f" win by crash after {plies(result.plies)}: {said} |" in out
    for path in sorted(folder.iterdir()):
        assert main(["log", "show", str(path)]) == 0
        shown = capsys.readouterr().out
        assert "crash" in shown and "exited with code 3" in shown and "boom: the bot broke" in shown


def test_text_right_after_nme_is_a_protocol_error_on_either_side_with_a_transcript(
    tmp_path, capsys
):
    """Seated first (the vampires) or second, the bot's bytes that are no message are judged
    by the game: a protocol error every time, never 'left its seat' (and no transcript)."""
    folder = tmp_path / "kept"
    chatty = f"name=chatty {sys.executable} {CHATTY} {{host}} {{port}}"
    words = ["--map", "testmap", chatty, "random", "--games", "4", "--transcript", str(folder)]
    assert main(["match", *words, "--move-time", "1"]) == 0
    out = capsys.readouterr().out
    games = [line for line in out.splitlines() if line.startswith("game ")]
    assert len(games) == 4
    assert all("(random) win by protocol error after" in line for line in games), out
    results = _kept_results(folder)
    assert [r.termination for r in results] == [Termination.PROTOCOL_ERROR] * 4
    assert all("chatty" in r.detail for r in results)
