"""Who plays: each participant has a name of its own and a bot (built-in or a command).

On the command line a participant is a built-in bot's name with its options
(``"alphabeta --depth 4"``), a command (``"./mybot {host} {port}"``), or either one
preceded by ``name=NAME`` and given as ``cmd=…`` (``name=mybot cmd="python bot.py"``).
Results are always kept per participant name, whatever name the bot sends in its NME.
"""

import os
import shlex
import shutil

import attrs

from vvw.bots import BUILTIN, bot_command

INTERPRETERS = frozenset({"python", "python3", "pypy3", "java", "node", "sh", "bash", "ruby"})
"""Programs whose script, not themselves, names a bot by default (``python bot.py`` → bot.py)."""


@attrs.frozen
class Participant:
    """A named bot: ``spec`` is a built-in name with options or a command template."""

    name: str
    spec: str

    @property
    def builtin(self) -> bool:
        return shlex.split(self.spec)[0] in BUILTIN

    def argv(
        self, host: str, port: int, seed: int | None = None, move_time: float | None = None
    ) -> list[str]:
        """The command that runs this bot against ``host:port`` (see :func:`bot_command`)."""
        return bot_command(self.spec, host, port, seed=seed, name=self.name, move_time=move_time)

    def program(self) -> str | None:
        """The program an external bot runs, if it cannot be found; ``None`` when it can."""
        if self.builtin:
            return None
        first = shlex.split(self.spec)[0]
        if os.sep in first:
            return None if os.access(first, os.X_OK) else first
        return None if shutil.which(first) else first


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


def parse_participants(words: list[str]) -> list[Participant]:
    """The participants named by ``words``; ``ValueError`` with a one-line reason.

    Unnamed participants sharing a default name are told apart as ``greedy#1``,
    ``greedy#2``; two participants given the same name is an error.
    """
    given: list[tuple[str | None, str]] = []
    pending: str | None = None
    for word in words:
        if word.startswith("name="):
            if pending is not None:
                raise ValueError(f"name={pending} is not followed by a bot")
            pending = word.removeprefix("name=").strip()
            if not pending:
                raise ValueError("name= needs a name")
            continue
        spec = word.removeprefix("cmd=")
        words_of_spec = shlex.split(spec)  # ValueError: "No closing quotation"
        if not words_of_spec:
            raise ValueError("empty bot command")
        given.append((pending, spec))
        pending = None
    if pending is not None:
        raise ValueError(f"name={pending} is not followed by a bot")
    explicit = [name for name, _ in given if name is not None]
    for name in explicit:
        if explicit.count(name) > 1:
            raise ValueError(f"two participants are named {name!r}")
    defaults = [default_name(spec) for name, spec in given if name is None]
    counters: dict[str, int] = {}
    participants = []
    for given_name, spec in given:
        name = given_name or default_name(spec)
        if given_name is None and (defaults.count(name) > 1 or name in explicit):
            counters[name] = counters.get(name, 0) + 1
            name = f"{name}#{counters[name]}"
        participants.append(Participant(name, spec))
    return participants
