"""The parser of every ``vvw`` command: it knows the command's name and its subcommands,
and says what it cannot parse in one line (exit status 2), as every error of ``vvw``."""

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn


class CommandParser(argparse.ArgumentParser):
    """A parser that knows its command's name (``vvw map show``) for the error line, the
    subcommands under it, and the subcommands beside its own arguments (``vvw tournament
    report FILE…`` beside ``vvw tournament BOT…``), each with its own ``--help``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_defaults(command_name=self.prog)
        self.subcommands: dict[str, CommandParser] = {}
        """The parsers of ``add_subparsers``, by name, and those of :meth:`add_beside`."""
        self._beside: set[str] = set()
        self.hints: dict[str, str] = {}
        """What to say of an argument this command does not take (``--html``: where it
        belongs), added to the error line."""

    def error(self, message: str) -> NoReturn:
        """One line on standard error, ``PROG: error: why`` (the choices of a missing
        subcommand included), and exit status 2; ``PROG --help`` shows the usage."""
        if self.subcommands and "required" in message:
            message += f" (one of: {', '.join(self.subcommands)})"
        self.exit(2, f"{self.prog}: error: {message}\n")

    def unrecognized(self, words: Sequence[str]) -> NoReturn:
        """Refuse ``words`` this command does not take, with the hints for them."""
        hints = [self.hints[word] for word in words if word in self.hints]
        self.error(f"unrecognized arguments: {' '.join(words)}" + "".join(f"; {h}" for h in hints))

    def named(self, prog: str) -> "CommandParser":
        """This parser, or the subcommand's under it whose name is ``prog``."""
        if prog == self.prog:
            return self
        for parser in self.subcommands.values():
            if prog == parser.prog or prog.startswith(f"{parser.prog} "):
                return parser.named(prog)
        return self

    def add_subparsers(self, **kwargs: Any) -> Any:
        action = super().add_subparsers(**kwargs)
        self.subcommands = action.choices  # filled as its parsers are added
        return action

    def add_beside(self, name: str, **kwargs: Any) -> "CommandParser":
        """A subcommand ``PROG NAME …``, chosen when the first word is ``NAME``, beside
        this parser's own positional arguments."""
        parser = CommandParser(prog=f"{self.prog} {name}", **kwargs)
        self.subcommands[name] = parser
        self._beside.add(name)
        return parser

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        words = list(sys.argv[1:] if args is None else args)
        if words and words[0] in self._beside:
            return self.subcommands[words[0]].parse_known_args(words[1:], namespace)
        return super().parse_known_args(words, namespace)


def add_actions(
    subparsers: "argparse._SubParsersAction[Any]", name: str, **kwargs: Any
) -> "argparse._SubParsersAction[Any]":
    """Command ``NAME`` (its ``help``, ``description``… in ``kwargs``) made of actions, one
    of which must follow (``vvw map check``): the place to add them, which stores the one
    chosen as ``NAME_command``."""
    parser = subparsers.add_parser(name, **kwargs)
    return parser.add_subparsers(dest=f"{name}_command", metavar="ACTION", required=True)
