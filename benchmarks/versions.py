"""Run this tree's bots and another git ref's side by side, in one run, on the same positions.

:func:`checkout` puts a git ref (``b65a12a``, ``main``, ``HEAD~3``) in a temporary ``git
worktree`` and removes it after. :class:`Searcher` is a worker process that runs the bots
of one tree (this one or a checkout): it is given a position and a bot, makes the bot
fresh, lets it choose a ply and answers with the ply and the search's statistics. It
speaks JSON lines over its standard input and output and uses only what every version
of the project since b65a12a has (``agents.registry.make_agent``,
``GameState.from_cells``, ``choose_ply``, ``last_stats``), so the same script serves an
old tree and this one. Both trees run under this interpreter, with the same installed
packages.

A benchmark sends each position to one worker per tree in turn (interleaved), so the load
of a shared machine falls on both alike.

To play an old version's bot in a ``vvw tournament`` (an SPRT against it, say):

    python -m benchmarks.versions participant b65a12a expectiminimax --depth 4

keeps a worktree of the ref in ``runs/refs/REF`` (made once) and prints the participant
(``name=expectiminimax@b65a12a cmd="…"``) that runs that tree's bot with this interpreter,
as its own command line (``vvw agent``, or ``python -m server agent`` before the command
line moved to ``vvw/``) starts it.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from engine import GameState, Move, Ply

ROOT = Path(__file__).resolve().parent.parent
"""This tree."""

WORKER = r"""
import json, logging, sys, time
from agents.registry import make_agent
from engine import GameState, Kind, Move
logging.disable(logging.CRITICAL)
for line in sys.stdin:
    task = json.loads(line)
    cells = {(x, y): (Kind(kind), n) for x, y, kind, n in task["cells"]}
    state = GameState.from_cells(task["rows"], task["cols"], cells, task["ply"])
    try:
        agent = make_agent(task["bot"], **task["options"])
        agent.new_game(state.to_move, state)
        began, cpu = time.monotonic(), time.process_time()
        seconds = task["seconds"]
        ply = agent.choose_ply(state, began + (3600.0 if seconds is None else seconds))
        cpu = time.process_time() - cpu
        freeing = getattr(getattr(agent, "expanded", None), "wait", None)
        if freeing is not None:
            freeing()  # the nodes freed after the reply, not during the next search
    except Exception as error:
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}), flush=True)
        continue
    spent = time.monotonic() - began
    stats = getattr(agent, "last_stats", None)
    searched = stats is not None and stats.nodes > 0
    print(json.dumps({
        "ply": [list(move) for move in ply],
        "depth": stats.depth if searched else None,
        "nodes": stats.nodes if searched else 0,
        "seconds": stats.seconds if searched else spent,
        "cpu": cpu,
    }), flush=True)
"""
"""The worker's script (see the module docstring); one line in, one line out."""


@attrs.frozen
class Answer:
    """What a bot did with a position: its ply, the deepest finished depth (``None``: it
    answered without a search, e.g. a solved endgame), the nodes, the seconds spent and
    the process's CPU seconds meanwhile."""

    ply: Ply
    depth: int | None
    nodes: int
    seconds: float
    cpu: float

    @property
    def nodes_per_second(self) -> float:
        """Nodes per second of CPU time: on a machine shared with other work, the figure
        that depends least on the load (the wall clock's counts the others' turns too)."""
        return self.nodes / self.cpu if self.cpu > 0 else 0.0


@contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """A temporary ``git worktree`` of ``ref`` (detached), removed afterwards;
    ``ValueError`` for a ref git does not know."""
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        raise ValueError(f"git knows no commit {ref!r} in {ROOT}")
    folder = Path(tempfile.mkdtemp(prefix="vvw-ref-"))
    path = folder / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), ref],
        check=True,
    )
    try:
        yield path
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False
        )
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], check=False)
        folder.rmdir()


class BotFailed(Exception):
    """The bot could not be made or failed to choose (a bot or option the tree lacks)."""


class Searcher:
    """A worker process that runs the bots of the tree at ``path`` (see the module
    docstring); use it as a context manager, which ends the process."""

    def __init__(self, path: Path, label: str) -> None:
        self.path = path
        self.label = label
        environment = {**os.environ, "PYTHONPATH": str(path)}
        self._process = subprocess.Popen(
            [sys.executable, "-P", "-c", WORKER],
            cwd=path,
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __enter__(self) -> "Searcher":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._process.poll() is None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()

    def choose(
        self,
        bot: str,
        state: GameState,
        seconds: float | None = None,
        options: dict[str, Any] | None = None,
    ) -> Answer:
        """A fresh ``bot`` (with ``options``) of this tree chooses a ply in ``state``,
        given ``seconds`` (``None``: as long as it likes, for a fixed ``depth`` option)."""
        task = {
            "bot": bot,
            "options": options or {},
            "rows": state.rows,
            "cols": state.cols,
            "ply": state.ply,
            "cells": [
                [pos % state.cols, pos // state.cols, kind, n]
                for pos, (kind, n) in sorted(state.contents.items())
            ],
            "seconds": seconds,
        }
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps(task) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(
                f"the {self.label} bots' process ended (exit {self._process.wait()})"
            )
        answer = json.loads(line)
        if "error" in answer:
            raise BotFailed(f"{bot} of {self.label}: {answer['error']}")
        return Answer(
            tuple(Move(*move) for move in answer["ply"]),
            answer["depth"],
            answer["nodes"],
            answer["seconds"],
            answer["cpu"],
        )


def kept_tree(ref: str) -> Path:
    """A worktree of ``ref`` in ``runs/refs/`` (made the first time, kept after)."""
    path = ROOT / "runs" / "refs" / ref.replace("/", "_")
    if not path.exists():
        found = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
            capture_output=True,
        )
        if found.returncode != 0:
            raise ValueError(f"git knows no commit {ref!r} in {ROOT}")
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), ref],
            check=True,
        )
    return path


def participant(ref: str, bot: str, words: list[str]) -> str:
    """A ``vvw tournament`` participant playing ``bot`` (with its options ``words``) as the
    tree of ``ref`` has it."""
    tree = kept_tree(ref)
    package = "vvw" if (tree / "vvw" / "commands" / "agent.py").exists() else "server"
    if package == "server":
        words = _as_o_options(words)
    command = [
        "env",
        f"PYTHONPATH={tree}",
        sys.executable,
        "-P",
        "-m",
        package,
        "agent",
        bot,
        "{host}",
        "{port}",
        *words,
    ]
    return participant_line(f"{bot}@{ref}", command)


PLACEHOLDERS = ("{host}", "{port}", "{time_budget}", "{seed}")
"""The words of a participant's command that ``vvw tournament`` fills in for each game."""


def participant_line(name: str, command: list[str]) -> str:
    """``name=NAME cmd="…"``: a ``vvw tournament`` participant running ``command`` (its
    words quoted for the shell, but for the :data:`PLACEHOLDERS`)."""
    text = " ".join(word if word in PLACEHOLDERS else shlex.quote(word) for word in command)
    return f'name={name} cmd="{text}"'


AGENT_FLAGS = ("--time-budget", "--seed", "--name", "--games")
"""Arguments of the old ``server agent`` itself; its bot's options were ``-o KEY=VALUE``."""


def _as_o_options(words: list[str]) -> list[str]:
    """``["--depth", "4", "--time-budget", "9"]`` → ``["-o", "depth=4", "--time-budget",
    "9"]``: the bot's options as the command line before ``vvw/`` took them."""
    result: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        name, equals, value = word.partition("=")
        if word.startswith("--") and name not in AGENT_FLAGS:
            if not equals and index + 1 < len(words):
                index += 1
                value = words[index]
            result += ["-o", f"{name[2:].replace('-', '_')}={value}"]
        else:
            result.append(word)
        index += 1
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.versions",
        description="Print a vvw tournament participant that plays an old version's bot.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("participant", help="a participant playing REF's BOT")
    play.add_argument("ref", help="a git ref: b65a12a, main, HEAD~3")
    play.add_argument("bot", help="a built-in bot of that version")
    play.add_argument("words", nargs=argparse.REMAINDER, help="the bot's options")
    args = parser.parse_args(argv)
    try:
        print(participant(args.ref, args.bot, args.words))
    except ValueError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
