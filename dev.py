#!/usr/bin/env python3
"""Set up the project in ./.venv and run it: the README's two quick-start commands.

    python3 dev.py play   # set up, then play a match between two built-in bots
    python3 dev.py test   # set up, then run ruff (lint and format), mypy and the tests

Needs only Python 3.11+ and access to PyPI. Set-up is skipped when ``.venv`` is already
up to date with ``pyproject.toml``. Extra arguments go to ``vvw match`` or ``pytest``.
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
DEFAULT_MATCH = ["--map", "maps/thetrap.xml", "alphabeta", "greedy", "--games", "2"]


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
    if run(python, "-m", "pip", "install", "--quiet", "-e", target) != 0:
        sys.exit("could not install the project into .venv (is PyPI reachable?)")
    STAMP.write_text(digest + (" test" if with_tests else ""))


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("play", "test", "setup"):
        print(__doc__.strip())
        return 2
    command, extra = argv[0], argv[1:]
    set_up(with_tests=command != "play")
    if command == "play":
        return run(BIN / "vvw", "match", *(extra or DEFAULT_MATCH))
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
