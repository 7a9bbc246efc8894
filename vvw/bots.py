"""Bot specs on the command line: a built-in bot's name (with options) or a command template."""

import shlex
import sys

from agents.registry import BOTS

BUILTIN = frozenset(BOTS)
"""Bot names run as ``vvw agent NAME`` (the registry imports bots lazily)."""
MARGIN_SHARE = 0.1
"""The share of the server's time per move a built-in bot leaves unused (0.2 s of 2 s)…"""
MARGIN = 0.1
"""…and at least this many seconds, for a busy machine to schedule it and send the MOV."""


def time_budget(move_time: float) -> float:
    """Seconds a built-in bot thinks when the server allows ``move_time`` per move: 1.8 of
    2 s, 0.4 of 0.5 s, never less than half of it.

    A bot that thought longer than the server waits would have its turns skipped and its
    late replies judged against a board that has moved on (illegal plies).
    """
    margin = max(move_time * MARGIN_SHARE, MARGIN)
    return round(max(move_time - margin, move_time / 2), 3)


def bot_command(
    spec: str,
    host: str,
    port: int,
    builtin: frozenset[str] = BUILTIN,
    *,
    seed: int | None = None,
    name: str | None = None,
    move_time: float | None = None,
) -> list[str]:
    """The argv for a bot given as a built-in name or a command template.

    A built-in bot's name (``alphabeta``, optionally with options: ``"alphabeta --depth 4"``)
    runs ``python -P -m vvw agent NAME HOST PORT …``: ``-P`` keeps the current folder off
    ``sys.path``, so a user's own ``engine.py`` there cannot shadow ours. Anything else is a
    command line in which ``{host}`` and ``{port}`` are replaced; without them, host and port
    are appended, as students' bots take them (``./mybot`` → ``./mybot 127.0.0.1 5555``).

    A built-in bot is given ``--seed seed``, ``--name name`` and the ``--time-budget`` that
    fits ``move_time`` (before its own options, which win); a command's ``{seed}`` is
    replaced by ``seed``.
    """
    words = shlex.split(spec)
    if not words:
        raise ValueError("empty bot command")
    if words[0] in builtin:
        ours = [
            *(["--seed", str(seed)] if seed is not None else []),
            *(["--name", name] if name is not None else []),
            *(["--time-budget", str(time_budget(move_time))] if move_time is not None else []),
        ]
        return [
            sys.executable,
            "-P",
            "-m",
            "vvw",
            "agent",
            words[0],
            host,
            str(port),
            *ours,
            *words[1:],
        ]
    fields = {"{host}": host, "{port}": str(port), "{seed}": str(seed or 0)}

    def fill(word: str) -> str:
        for field, value in fields.items():
            word = word.replace(field, value)
        return word

    if "{host}" in spec or "{port}" in spec:
        return [fill(word) for word in words]
    return [*(fill(word) for word in words), host, str(port)]
