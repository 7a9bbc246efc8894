#!/usr/bin/env python3
"""Set up the project in ./.venv and run it: the README's two quick-start commands.

    python3 dev.py play   # set up, then play a match between two built-in bots
    python3 dev.py test   # set up, then run ruff (lint and format), mypy and the tests

Needs only Python 3.11+ and access to PyPI. Set-up is skipped when ``.venv`` is already
up to date with ``pyproject.toml``. Extra arguments go to ``pytest``, or to ``vvw match``
beside the defaults they do not replace (``play --move-time 0.3`` keeps the map, the bots
and the two games; ``play random greedy`` keeps the map and the games).
"""

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".vvw-installed"
DEFAULT_BOTS = ["alphabeta", "greedy"]
DEFAULT_MAP = ["--map", "maps/thetrap.xml"]
DEFAULT_GAMES = ["--games", "2"]
MATCH_FLAGS = frozenset(
    {"-h", "--help", "--force", "--keep-transcripts", "--no-transcript", "--view"}
)
"""The options of ``vvw match`` that take no value (a test keeps this true)."""
QUIET_INSTALL = {"PYTHONWARNINGS": "ignore:Editable installation"}
"""Hides setuptools' notice at each editable install (a box warning that a folder named like
a package may be imported instead of it: here those folders are the packages)."""


def run(*command: str | Path) -> int:
    """Run a command from the project's root; return its exit code."""
    print("+", " ".join(str(part) for part in command), flush=True)
    return subprocess.call([str(part) for part in command], cwd=ROOT)


def set_up(with_tests: bool = True) -> None:
    """Create ``.venv`` and install the project, with its test tools (and the heavy optional
    extras they test: Ray, Playwright) when ``with_tests``; nothing if already up to date."""
    if sys.version_info < (3, 11):  # noqa: UP036 (dev.py may run under an old python3)
        sys.exit(f"vvw needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    done = STAMP.read_text().split() if STAMP.exists() else []
    if done[:1] == [digest] and (not with_tests or "test" in done[1:]):
        return
    if not (BIN / "python").exists():
        print(f"creating {VENV.name}/", flush=True)
        venv.create(VENV, with_pip=True)
    python = BIN / "python"
    if run(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip") != 0:
        sys.exit("could not upgrade pip in .venv")
    target = ".[test]" if with_tests else "."
    os.environ.update(QUIET_INSTALL)  # to pip and the build it starts
    if run(python, "-m", "pip", "install", "--quiet", "-e", target) != 0:
        sys.exit("could not install the project into .venv (is PyPI reachable?)")
    STAMP.write_text(digest + (" test" if with_tests else ""))


def _looks_like_map(word: str) -> bool:
    """A word after ``--map`` that names a map rather than a bot (as ``vvw match`` tells)."""
    return (
        word.endswith(".xml")
        or word.startswith("gen:")
        or any(char in word for char in "*?[")
        or (ROOT / "maps" / f"{word}.xml").exists()
    )


def match_arguments(extra: list[str]) -> list[str]:
    """``vvw match``'s arguments for ``play``: the default bots, map and games, each unless
    ``extra`` gives its own, then ``extra``."""
    given: set[str] = set()
    index = 0
    while index < len(extra):
        word = extra[index]
        index += 1
        if not word.startswith("-") or word[1:2].isdigit():
            given.add("bots")
            continue
        name, equals, _ = word.partition("=")
        name = "--map" if name == "--maps" else name
        given.add(name)
        if equals or name in MATCH_FLAGS:
            continue
        if name != "--map":
            index += 1  # its value
            continue
        while index < len(extra) and not extra[index].startswith("-"):
            if not _looks_like_map(extra[index]):
                given.add("bots")  # bots after the maps, as vvw match reads them
            index += 1
    return [
        *(DEFAULT_BOTS if "bots" not in given else []),
        *(DEFAULT_MAP if "--map" not in given else []),
        *(DEFAULT_GAMES if "--games" not in given else []),
        *extra,
    ]


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("play", "test", "setup"):
        print(__doc__.strip())
        return 2
    command, extra = argv[0], argv[1:]
    set_up(with_tests=command != "play")
    if command == "play":
        return run(BIN / "vvw", "match", *match_arguments(extra))
    if command == "test":
        lint = run(BIN / "ruff", "check", ".")
        layout = run(BIN / "ruff", "format", "--check", ".")
        types = run(BIN / "mypy")
        tests = run(BIN / "python", "-m", "pytest", *extra)
        return tests or lint or layout or types
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
