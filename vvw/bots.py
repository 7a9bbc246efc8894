"""Bot specs on the command line: a built-in bot's name (with options) or a command template."""

import shlex
import sys

from agents.registry import BOTS

BUILTIN = frozenset(BOTS)
"""Bot names run as ``vvw agent NAME`` (the registry imports bots lazily)."""


def bot_command(spec: str, host: str, port: int, builtin: frozenset[str] = BUILTIN) -> list[str]:
    """The argv for a bot given as a built-in name or a command template.

    A built-in bot's name (``alphabeta``, optionally with options: ``"alphabeta --depth 4"``)
    runs ``python -P -m vvw agent NAME HOST PORT …``: ``-P`` keeps the current folder off
    ``sys.path``, so a user's own ``engine.py`` there cannot shadow ours. Anything else is a
    command line in which ``{host}`` and ``{port}`` are replaced; without them, host and port
    are appended, as students' bots take them (``./mybot`` → ``./mybot 127.0.0.1 5555``).
    """
    words = shlex.split(spec)
    if not words:
        raise ValueError("empty bot command")
    if words[0] in builtin:
        return [sys.executable, "-P", "-m", "vvw", "agent", words[0], host, str(port), *words[1:]]
    if "{host}" in spec or "{port}" in spec:
        return [word.replace("{host}", host).replace("{port}", str(port)) for word in words]
    return [*words, host, str(port)]
