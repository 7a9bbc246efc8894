#!/usr/bin/env python3
"""Set up the project in ./.venv and run it: the README's two quick-start commands.

    python3 dev.py play   # set up, then play a match between two built-in bots
    python3 dev.py test   # set up, then run ruff (lint and format), mypy and the tests
    python3 dev.py compile [--clean]   # build the search's hot modules with mypyc (optional)

Needs only Python 3.11+ and access to PyPI. Set-up is skipped when ``.venv`` is already
up to date with ``pyproject.toml``. Extra arguments go to ``pytest``, or to ``vvw match``
beside the defaults they do not replace (``play --move-time 0.3`` keeps the map, the bots
and the two games; ``play random greedy`` keeps the map and the games).
"""

import hashlib
import os
import signal
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
STOP_SIGNALS = [
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
]
COMPILED = [
    "agents/evaluation.py",
    "agents/candidates.py",
    "agents/zobrist.py",
    "agents/search.py",
    "agents/deepening.py",
    "agents/expectiminimax.py",
]
"""The modules ``dev.py compile`` builds with mypyc: the search's hot paths. Each stays a
plain module; the built ``.so`` beside it is imported instead when present. Not the engine:
its checks of bad input say what is wrong in their own words, which compiled type checks
would not."""
COMPILED_STAMP = ROOT / "build" / "compiled-sources.txt"
"""The sources' digests at the last ``dev.py compile`` (a test compares them)."""
QUIET_INSTALL = {"PYTHONWARNINGS": "ignore:Editable installation"}
"""Hides setuptools' notice at each editable install (a box warning that a folder named like
a package may be imported instead of it: here those folders are the packages)."""


def run(*command: str | Path) -> int:
    """Run a command from the project's root; return its exit code."""
    print("+", " ".join(str(part) for part in command), flush=True)
    return subprocess.call([str(part) for part in command], cwd=ROOT)


def _terminal_reaches_child() -> bool:
    """Whether the terminal sends its Ctrl-C (and its hang-up) to our process group, which
    our child shares: it then has the signal already."""
    for fd in (0, 1, 2):
        try:
            if os.isatty(fd):
                return os.tcgetpgrp(fd) == os.getpgrp()
        except (OSError, AttributeError):
            pass
    return False


def run_to_its_end(*command: str | Path) -> int:
    """:func:`run`, for a command that stops cleanly on a signal (``vvw match``): a stop
    signal is passed on to it (unless the terminal sent it to both of us) and its own end
    is waited for, so its summary is printed and its bots are ended; its exit code."""
    print("+", " ".join(str(part) for part in command), flush=True)
    child: subprocess.Popen[bytes] | None = None
    early: list[int] = []

    def pass_on(signum: int, _frame: object) -> None:
        if signum != signal.SIGTERM and _terminal_reaches_child():
            return
        if child is None:
            early.append(signum)
        else:
            child.send_signal(signum)

    before = {signum: signal.signal(signum, pass_on) for signum in STOP_SIGNALS}
    try:  # a handler of ours is reset in the child: its own signals are its defaults
        child = subprocess.Popen([str(part) for part in command], cwd=ROOT)
        for signum in early:
            child.send_signal(signum)
        code = child.wait()
        return 128 - code if code < 0 else code  # killed by a signal: as a shell says it
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


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


def source_digests() -> str:
    """One line per module of :data:`COMPILED`: its path and its source's SHA-256."""
    return "".join(
        f"{path} {hashlib.sha256((ROOT / path).read_bytes()).hexdigest()}\n" for path in COMPILED
    )


def built_modules() -> list[Path]:
    """The compiled ``.so`` files in the tree: mypyc's shared one, and any in the packages
    (also those of a module no longer in :data:`COMPILED`)."""
    found = [*ROOT.glob("*__mypyc*.so")]
    for package in sorted(ROOT.glob("*/__init__.py")):
        found += package.parent.glob("*.so")
    return sorted(found)


def compile_modules(clean: bool = False) -> int:
    """Build :data:`COMPILED` with mypyc beside their sources (``--clean``: remove them, back
    to plain Python). Needs a C compiler; the pure-Python modules stay the reference."""
    for built in built_modules():
        built.unlink()
    COMPILED_STAMP.unlink(missing_ok=True)
    if clean:
        return 0
    digests = source_digests()  # the sources as built, even if edited meanwhile
    environment = {**os.environ, "VVW_COMPILE": "1"}
    command = [str(BIN / "python"), "setup.py", "--quiet", "build_ext", "--inplace"]
    print("+ VVW_COMPILE=1", " ".join(command[1:]), flush=True)
    if subprocess.call(command, cwd=ROOT, env=environment) != 0:
        return 1
    COMPILED_STAMP.parent.mkdir(exist_ok=True)
    COMPILED_STAMP.write_text(digests)
    return 0


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
    if not argv or argv[0] not in ("play", "test", "setup", "compile"):
        print(__doc__.strip())
        return 2
    command, extra = argv[0], argv[1:]
    set_up(with_tests=command != "play")
    if command == "compile":
        return compile_modules(clean=extra == ["--clean"])
    if command == "play":
        return run_to_its_end(BIN / "vvw", "match", *match_arguments(extra))
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
