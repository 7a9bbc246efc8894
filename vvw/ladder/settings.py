"""What every game of a ladder is played with, fixed when the ladder is made.

The settings of ``vvw serve`` (maps, clocks, ply limit, variant; battle seeds derived from
one seed if given) and the ladder's own: the built-in bots that play and the one that
anchors the rating scale, how long a bot waits for a team before a built-in bot plays it,
how many connections a team may have at once. The maps are kept whole (the map file's
text), so a ladder never depends on files that may move or change.
"""

import math
import secrets
from typing import Any

import attrs

from agents.registry import BOTS
from engine import OnTimeout, Rules, Variant
from engine.mapfile import GameMap, dump_map, parse_map
from server.settings import Settings
from vvw.running.seeds import derive

BUILTINS = ("random", "greedy", "alphabeta")
"""The built-in bots that play by default: weak, middling, strong."""
ANCHOR = "greedy"
ANCHOR_RATING = 1000.0
PATIENCE = 60.0
TEAM_CONNECTIONS = 2


class SettingsError(ValueError):
    """Ladder settings that cannot be; ``str()`` says why in one line."""


@attrs.frozen
class LadderMap:
    """A map of the rotation: the name it is shown by and the map file's text."""

    label: str
    xml: str = attrs.field(repr=False)

    @classmethod
    def of(cls, label: str, game_map: GameMap) -> "LadderMap":
        return cls(label, dump_map(game_map).decode("utf-8"))

    @property
    def game_map(self) -> GameMap:
        return attrs.evolve(parse_map(self.xml, self.label), name=self.label)


@attrs.frozen
class LadderSettings:
    """A ladder's settings (see the module's docstring)."""

    maps: tuple[LadderMap, ...]
    """Played in turn: the n-th pairing plays ``maps[n mod len]``."""
    game: Settings = attrs.field(factory=Settings)
    """The games' rules and clocks (its ``seed`` is unused: each pairing has its own)."""
    seed: int | None = None
    """Battle seeds are derived from it when given, drawn afresh otherwise."""
    builtins: tuple[str, ...] = BUILTINS
    anchor: str = ANCHOR
    """The built-in bot whose rating is fixed at :attr:`anchor_rating`."""
    anchor_rating: float = ANCHOR_RATING
    patience: float = PATIENCE
    """Seconds a bot waits for a team before a built-in bot of about its strength plays it."""
    team_connections: int = TEAM_CONNECTIONS
    """Connections a team may have at once."""

    def __attrs_post_init__(self) -> None:
        if not self.maps:
            raise SettingsError("a ladder needs one map or more")
        unknown = [name for name in self.builtins if name not in BOTS]
        if unknown:
            raise SettingsError(
                f"no built-in bot {unknown[0]!r}; they are: {', '.join(sorted(BOTS))}"
            )
        if len(set(self.builtins)) != len(self.builtins):
            raise SettingsError("a built-in bot is named twice")
        if self.anchor not in self.builtins:
            raise SettingsError(
                f"the anchor {self.anchor!r} is not one of the built-in bots that play"
                f" ({', '.join(self.builtins) or 'none'})"
            )
        if not math.isfinite(self.anchor_rating):
            raise SettingsError("the anchor's rating must be a number")
        if not self.patience > 0 or self.team_connections < 1:
            raise SettingsError("the patience must be above 0 and a team needs a connection")

    def map_of(self, pairing: int) -> LadderMap:
        """The map of pairing number ``pairing`` (1, 2, …): the rotation in order."""
        return self.maps[(pairing - 1) % len(self.maps)]

    def battle_seed(self, pairing: int) -> int:
        """The battle seed of pairing number ``pairing`` (both its games play it)."""
        if self.seed is None:
            return secrets.randbelow(2**31)
        return derive(self.seed, "pairing", pairing)

    def to_record(self) -> dict[str, Any]:
        """The settings as JSON values (what the store keeps)."""
        return {
            "maps": [{"label": m.label, "xml": m.xml} for m in self.maps],
            "move_time": self.game.move_time,
            "on_timeout": self.game.on_timeout.value,
            "ply_limit": self.game.rules.max_plies,
            "game_time": self.game.game_time,
            "variant": self.game.rules.variant.value,
            "connect_time": self.game.connect_time,
            "seed": self.seed,
            "builtins": list(self.builtins),
            "anchor": self.anchor,
            "anchor_rating": self.anchor_rating,
            "patience": self.patience,
            "team_connections": self.team_connections,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "LadderSettings":
        """The settings :meth:`to_record` gave; ``KeyError``, ``ValueError`` or
        ``TypeError`` for a record that is not one."""
        game = Settings(
            rules=Rules(Variant(record["variant"]), int(record["ply_limit"])),
            move_time=float(record["move_time"]),
            on_timeout=OnTimeout(record["on_timeout"]),
            game_time=float(record["game_time"]),
            connect_time=float(record["connect_time"]),
        )
        return cls(
            maps=tuple(LadderMap(m["label"], m["xml"]) for m in record["maps"]),
            game=game,
            seed=record["seed"],
            builtins=tuple(record["builtins"]),
            anchor=record["anchor"],
            anchor_rating=float(record["anchor_rating"]),
            patience=float(record["patience"]),
            team_connections=int(record["team_connections"]),
        )

    def describe(self) -> str:
        """One line a teacher reads after making the ladder."""
        maps = ", ".join(m.label for m in self.maps)
        seed = "" if self.seed is None else f", seed {self.seed}"
        return (
            f"maps {maps} (in turn); move time {self.game.move_time:g} s"
            f" ({self.game.on_timeout.value} when late), {self.game.rules.max_plies} plies,"
            f" game time {self.game.game_time:g} s, {self.game.rules.variant.value} rules{seed};"
            f" built-in bots {', '.join(self.builtins)}, {self.anchor} anchored at"
            f" {self.anchor_rating:g}; a built-in bot plays a team's bot after"
            f" {self.patience:g} s alone; {self.team_connections} connections per team"
        )
