"""The arguments that say how games are played, shared by serve, match, tournament, proxy.

Maps, games, clocks, limits, rules, seed, transcripts and the live view; the
:class:`server.settings.Settings` they make; and the words of ``--map`` that are bots.
"""

import argparse

from engine import OnTimeout, Rules
from engine.rules import Variant
from server.settings import Settings
from vvw.argtypes import port_number, positive_float, positive_int
from vvw.mapchoice import resolve_maps
from vvw.paths import folder_to_write
from vvw.runs import TRANSCRIPTS, TRANSCRIPTS_BUDGET, TranscriptFolder


def add_map_arguments(parser: argparse.ArgumentParser, several_maps: bool = False) -> None:
    """``--map``: one (``serve``) or several (``match``, ``tournament``)."""
    if several_maps:
        parser.add_argument(
            "--map",
            "--maps",
            dest="map",
            action="extend",
            nargs="+",
            required=True,
            metavar="MAP",
            help="map files, globs, bundled names (thetrap) or gen:SEED; played in turn",
        )
    else:
        parser.add_argument(
            "--map", action="append", required=True, help="map file, or bundled name (thetrap)"
        )


def add_game_settings(parser: argparse.ArgumentParser) -> None:
    """The settings of each game: clocks, limits, rules, seed."""
    parser.add_argument(
        "--move-time", type=positive_float, default=2.0, help="seconds per reply (default 2)"
    )
    parser.add_argument(
        "--on-timeout",
        choices=["skip", "forfeit"],
        default="skip",
        help="a bot with no MOV in time: skips its turn (default, as the course server) or loses",
    )
    parser.add_argument(
        "--ply-limit", type=positive_int, default=200, help="plies per game (default 200)"
    )
    parser.add_argument(
        "--game-time", type=positive_float, default=300.0, help="seconds per game (default 300)"
    )
    add_battle_arguments(parser)


def add_battle_arguments(parser: argparse.ArgumentParser) -> None:
    """How battles are fought: ``--variant`` (the rules' reading) and ``--seed``."""
    parser.add_argument(
        "--variant",
        choices=["server", "spec"],
        default="server",
        help="battle rules: the course server's (default) or the specification's reading",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the random battles")


def add_settings_arguments(parser: argparse.ArgumentParser, several_maps: bool = False) -> None:
    """The settings shared by ``serve`` and ``match``: maps, games, game settings, and where
    each game's transcript is kept (:func:`transcript_folder`)."""
    add_map_arguments(parser, several_maps)
    parser.add_argument("--games", type=positive_int, default=1, help="games to play (default 1)")
    add_game_settings(parser)
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--transcript",
        type=folder_to_write,
        default=None,
        metavar="DIR",
        help=f"keep each game's transcript in DIR (default {TRANSCRIPTS}, which keeps the"
        f" newest {TRANSCRIPTS_BUDGET // 2**20} MB)",
    )
    where.add_argument(
        "--no-transcript", action="store_true", help="keep no transcript, not even of a broken game"
    )
    parser.add_argument(  # every transcript is kept now: the flag of old scripts does nothing
        "--keep-transcripts", action="store_true", help=argparse.SUPPRESS
    )


def transcript_folder(args: argparse.Namespace) -> TranscriptFolder:
    """Where each game's transcript is kept, from ``--transcript`` and ``--no-transcript``."""
    if args.no_transcript:
        return TranscriptFolder(None)
    if args.transcript is not None:
        return TranscriptFolder(args.transcript)
    return TranscriptFolder(TRANSCRIPTS, bounded=True)


def add_view_arguments(parser: argparse.ArgumentParser, own_host: bool = False) -> None:
    """``--view`` and ``--view-port`` (and ``--view-host`` with ``own_host``): the live view
    in the browser, on ``--host`` unless the command has a ``--view-host`` of its own."""
    host = "--view-host" if own_host else "--host"
    parser.add_argument(
        "--view",
        action="store_true",
        help=f"show the games live in the browser (a page on {host}:--view-port)",
    )
    parser.add_argument(
        "--view-port",
        type=port_number,
        default=5580,
        metavar="PORT",
        help="port of the live view (default %(default)s; 0: any free one)",
    )
    if own_host:
        parser.add_argument(
            "--view-host",
            default="127.0.0.1",
            help="address of the live view (default %(default)s)",
        )


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings of each game, from :func:`add_game_settings`' arguments."""
    return Settings(
        rules=Rules(variant=Variant(args.variant), max_plies=args.ply_limit),
        move_time=args.move_time,
        on_timeout=OnTimeout(args.on_timeout),
        game_time=args.game_time,
        seed=args.seed,
    )


def settings_record(settings: Settings) -> dict[str, object]:
    """The settings that decide the games, as the results file's header keeps them."""
    return {
        "move_time": settings.move_time,
        "on_timeout": settings.on_timeout.value,
        "ply_limit": settings.rules.max_plies,
        "game_time": settings.game_time,
        "variant": settings.rules.variant.value,
        "connect_time": settings.connect_time,
    }


def split_maps_and_bots(maps: list[str], bots: list[str]) -> tuple[list[str], list[str]]:
    """``--map a.xml b.xml greedy random`` (a shell glob before the bots): the trailing
    words of ``--map`` that name no map are the bots; never the first, which ``--map``
    gives as a map (``--map thetrapp greedy random``: an unknown map, not three bots)."""
    maps = list(maps)
    moved: list[str] = []
    while len(maps) > 1 and not _looks_like_map(maps[-1]):
        moved.insert(0, maps.pop())
    return maps, moved + bots


def _looks_like_map(text: str) -> bool:
    try:
        resolve_maps([text])
    except ValueError:
        return text.endswith(".xml") or any(char in text for char in "*?[")
    return True
