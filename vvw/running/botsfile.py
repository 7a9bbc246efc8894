"""A bots file (``--bots bots.toml``): each participant's command, options, working folder
and time budget, written once and named on the command line (cutechess-cli's engines.json).

::

    # bots.toml: one table per bot, named by its key
    [mine]
    command = "python3 bot.py {host} {port} --think {time_budget}"  # a command, or a built-in bot
    folder = "../mybot"        # where it runs, relative to this file (default: where vvw runs)
    time_budget = 1.5          # seconds per reply it is told: {time_budget} in a command,
                               # --time-budget for a built-in bot
    options = { depth = 4 }    # added after the command: --depth 4 (true: --flag alone)

    [deep]
    command = "alphabeta"
    options = { depth = 6 }

In ``vvw match --bots bots.toml mine deep`` and ``vvw tournament --bots bots.toml`` a word
that names a bot of the file is that participant (``name=other mine``: the same bot under
another name); with no bot named, all of the file's play.
"""

import argparse
import shlex
import tomllib
from pathlib import Path

from vvw.running.bots import BUILTIN
from vvw.running.participants import Participant

KEYS = ("command", "folder", "time_budget", "options")
FORM = '[NAME] then command = "…" (and folder, time_budget, options)'


def read_bots(path: Path) -> dict[str, Participant]:
    """The participants of the bots file at ``path``, by name, in the file's order;
    ``ValueError`` with one line naming the file, the bot and what is wrong."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"cannot read the bots file {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a bots file: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path}: not a bots file: bad TOML, {error}") from None
    if not data:
        raise ValueError(f"{path}: no bot in it: one table per bot, {FORM}")
    return {name: _participant(path, name, table) for name, table in data.items()}


def _participant(path: Path, name: str, table: object) -> Participant:
    where = f"{path}: [{name}]"
    if not isinstance(table, dict):
        raise ValueError(f"{path}: {name} = … is not a bot: one table per bot, {FORM}")
    unknown = [key for key in table if key not in KEYS]
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (a bot has {', '.join(KEYS)})")
    command = table.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ValueError(f'{where}: no command = "…" (a built-in bot or a command line)')
    try:
        builtin = shlex.split(command)[0] in BUILTIN
    except ValueError as error:  # "No closing quotation"
        raise ValueError(f"{where}: command: {error}") from None
    words = _option_words(where, table.get("options", {}))
    spec = command
    budget = table.get("time_budget")
    if budget is not None:
        if isinstance(budget, bool) or not isinstance(budget, int | float) or budget <= 0:
            raise ValueError(f"{where}: time_budget is seconds per reply, above 0: {budget!r}")
        if builtin:
            words += ["--time-budget", f"{budget:g}"]
        elif "{time_budget}" in command:
            spec = command.replace("{time_budget}", f"{budget:g}")
        else:
            raise ValueError(
                f"{where}: time_budget reaches a command through {{time_budget}} in it"
                ' (command = "./mybot {host} {port} --think {time_budget}")'
            )
    if words:
        spec = f"{spec} {shlex.join(words)}"
    return Participant(name, spec, _folder(path, where, table.get("folder")))


def _option_words(where: str, options: object) -> list[str]:
    """``{depth = 4, fast = true}`` → ``["--depth", "4", "--fast"]``."""
    if not isinstance(options, dict):
        raise ValueError(f"{where}: options is a table: options = {{ depth = 4 }}")
    words: list[str] = []
    for key, value in options.items():
        if value is True:
            words.append(f"--{key}")
        elif value is False:
            continue
        elif isinstance(value, int | float | str):
            words += [f"--{key}", str(value)]
        else:
            raise ValueError(f"{where}: option {key} is a number, text or true/false: {value!r}")
    return words


def _folder(path: Path, where: str, folder: object) -> str | None:
    """The bot's working folder, made absolute from the bots file's folder."""
    if folder is None:
        return None
    if not isinstance(folder, str) or not folder:
        raise ValueError(f'{where}: folder is a path: folder = "bots/mine"')
    found = (path.parent / Path(folder).expanduser()).resolve()
    if not found.is_dir():
        raise ValueError(f"{where}: folder {folder} is not a folder ({found})")
    return str(found)


def bots_named(words: list[str], path: Path | None) -> tuple[list[str], dict[str, Participant]]:
    """The bot words of a command line and the participants of its bots file (``path``,
    if given): with no word, every bot of the file; ``ValueError`` as :func:`read_bots`."""
    if path is None:
        return words, {}
    known = read_bots(path)
    return (words or list(known)), known


def add_bots_argument(parser: argparse.ArgumentParser) -> None:
    """``--bots FILE``, for ``vvw match`` and ``vvw tournament``."""
    parser.add_argument(
        "--bots",
        dest="bots_file",
        type=Path,
        default=None,
        metavar="FILE",
        help="a bots file (TOML, one [NAME] table per bot: command, folder, time_budget,"
        " options): a BOT that is one of its names is that bot; with no BOT, all of them",
    )
