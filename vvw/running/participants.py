"""Who plays: each participant has a name of its own and a bot (built-in or a command).

On the command line a participant is a built-in bot's name with its options
(``"alphabeta --depth 4"``), a command (``"./mybot {host} {port}"``), or either one
preceded by ``name=NAME`` and given as ``cmd=…`` (``name=mybot cmd="python bot.py"``), or
all in one word (``"name=mybot python bot.py"``), or the name of a bot of a bots file
(:mod:`vvw.running.botsfile`), which may also say the folder it runs in. Results are always kept
per participant name, whatever name the bot sends in its NME.
"""

import difflib
import os
import shlex
import shutil
from collections.abc import Mapping

import attrs

from vvw.errors import UsageError
from vvw.running.bots import BUILTIN, bot_command, check_builtin

NAME_FORM = 'name=NAME BOT, as two words (name=mine "./mybot {host} {port}") or one'

INTERPRETERS = frozenset({"python", "python3", "pypy3", "java", "node", "sh", "bash", "ruby"})
"""Programs whose script, not themselves, names a bot by default (``python bot.py`` → bot.py)."""


@attrs.frozen
class Participant:
    """A named bot: ``spec`` is a built-in name with options or a command template."""

    name: str
    spec: str
    folder: str | None = None
    """The folder the bot runs in (a bots file's ``folder``); ``None``: where vvw runs."""

    @property
    def builtin(self) -> bool:
        return shlex.split(self.spec)[0] in BUILTIN

    def argv(
        self, host: str, port: int, seed: int | None = None, move_time: float | None = None
    ) -> list[str]:
        """The command that runs this bot against ``host:port`` (see :func:`bot_command`)."""
        return bot_command(self.spec, host, port, seed=seed, name=self.name, move_time=move_time)

    def problem(self, commands_too: bool = True) -> str | None:
        """Why this bot cannot start, known before any game (``None`` if it can): an option
        a built-in bot refuses, or (with ``commands_too``) a program that is not there or
        cannot run."""
        if self.builtin:
            try:
                check_builtin(self.spec)
            except ValueError as error:
                return str(error)
            return None
        if not commands_too:
            return None
        words = shlex.split(self.spec)
        return _program_problem(words[0], self.folder) or _script_problem(words, self.folder)


def _program_problem(program: str, folder: str | None = None) -> str | None:
    """Why ``program`` (a command's first word, run in ``folder``) cannot run; ``None``
    if it can."""
    path = os.path.join(folder or "", program)
    there = f" in {folder}" if folder is not None and not os.path.isabs(program) else ""
    if os.sep not in program:
        if shutil.which(program):
            return None
        here = f"; the file{there or ' here'} is ./{program}" if os.path.isfile(path) else ""
        close = difflib.get_close_matches(program, sorted(BUILTIN), n=1)
        meant = f": did you mean the built-in bot {close[0]}?" if close else ""
        return f"{program} not found (not a program on PATH{here}){meant}"
    if os.path.isdir(path):
        return f"{program}{there} is a folder, not a program"
    if not os.path.exists(path):
        return f"{program} not found{there}"
    if not os.access(path, os.X_OK):
        instead = f", or run it as `python3 {program}`" if program.endswith(".py") else ""
        return f"{program}{there} is not executable: chmod +x {program}{instead}"
    return None


SCRIPT_SUFFIXES = (".py", ".js", ".rb", ".sh", ".jar")


def _script_problem(words: list[str], folder: str | None = None) -> str | None:
    """``bots/mine.py not found`` when an interpreter is given a script file that is not
    there (``python3 bots/mine.py {host} {port}``); ``None`` otherwise."""
    program = os.path.basename(words[0])
    if program not in INTERPRETERS and not program.startswith("python"):
        return None
    for word in words[1:]:
        if word in ("-m", "-c", "-e"):  # a module or code, not a file
            return None
        if word.startswith("-") or "{" in word:
            continue
        if word.endswith(SCRIPT_SUFFIXES) and not os.path.isfile(os.path.join(folder or "", word)):
            there = f" in {folder}" if folder is not None and not os.path.isabs(word) else ""
            return f"{word} not found{there} (the script {program} is given)"
        return None
    return None


def default_name(spec: str) -> str:
    """A built-in bot's words (``alphabeta --depth 4``); for a command its program's or
    script's file name (``python bots/mine.py {host} {port}`` → ``mine.py``)."""
    words = shlex.split(spec)
    if words[0] in BUILTIN:
        return " ".join(words)
    program = os.path.basename(words[0])
    if program in INTERPRETERS or program.startswith("python"):
        for word in words[1:]:
            if not word.startswith("-") and "{" not in word:
                return os.path.basename(word)
    return program


def parse_participants(
    words: list[str], known: Mapping[str, Participant] | None = None
) -> list[Participant]:
    """The participants named by ``words``; ``ValueError`` with a one-line reason.

    A word that is a name of ``known`` (a bots file's) is that participant, under the
    name before it if ``name=`` gives one. Unnamed participants sharing a default name are
    told apart as ``greedy#1``, ``greedy#2``; two participants given the same name is an
    error.
    """
    known = known or {}
    given: list[tuple[str | None, str, str | None]] = []
    pending: str | None = None
    for word in words:
        if word.startswith("name="):
            if pending is not None:
                raise ValueError(f"name={pending} is not followed by a bot: {NAME_FORM}")
            name, *rest = word.removeprefix("name=").split(maxsplit=1) or [""]
            if not name:
                raise ValueError(f"name= needs a name: {NAME_FORM}")
            pending = name
            if not rest:
                continue
            word = rest[0]
        if word in known:
            bot = known[word]
            given.append((pending or bot.name, bot.spec, bot.folder))
            pending = None
            continue
        spec = word.removeprefix("cmd=")
        words_of_spec = shlex.split(spec)  # ValueError: "No closing quotation"
        if not words_of_spec:
            raise ValueError("empty bot command")
        given.append((pending, spec, None))
        pending = None
    if pending is not None:
        raise ValueError(f"name={pending} is not followed by a bot: {NAME_FORM}")
    explicit = [name for name, _, _ in given if name is not None]
    for name in explicit:
        if explicit.count(name) > 1:
            raise ValueError(f"two participants are named {name!r}")
    defaults = [default_name(spec) for name, spec, _ in given if name is None]
    counters: dict[str, int] = {}
    participants = []
    for given_name, spec, folder in given:
        name = given_name or default_name(spec)
        if given_name is None and (defaults.count(name) > 1 or name in explicit):
            counters[name] = counters.get(name, 0) + 1
            name = f"{name}#{counters[name]}"
        participants.append(Participant(name, spec, folder))
    return participants


def parsed(words: list[str], known: Mapping[str, Participant] | None = None) -> list[Participant]:
    """:func:`parse_participants` for a command: its reason a :class:`UsageError`."""
    try:
        return parse_participants(words, known)
    except ValueError as error:
        raise UsageError(str(error)) from None


def check_startable(players: list[Participant], commands_too: bool = True) -> None:
    """:class:`UsageError` for the first participant that cannot start (see
    :meth:`Participant.problem`), before any game."""
    for player in players:
        why = player.problem(commands_too)
        if why is not None:
            raise UsageError(f"cannot start {player.name}: {why}")


def understood(players: list[Participant]) -> str:
    """``'greedy' (greedy); 'mine' (./mybot)``: how a command line was read."""
    return "; ".join(f"{p.name!r} ({p.spec})" for p in players)
