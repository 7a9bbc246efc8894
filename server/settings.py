"""Match settings, with the course's reference server's defaults."""

import attrs

from engine import Limits, OnTimeout, Rules


@attrs.frozen
class Settings:
    """Everything the referee needs to know besides the map and the players."""

    rules: Rules = attrs.field(factory=Rules)
    move_time: float = 2.0
    """Seconds a player has to answer an UPD with a MOV (the specification's 2 s)."""
    on_timeout: OnTimeout = OnTimeout.SKIP
    game_time: float = 300.0
    """Wall-time limit of a game in seconds, checked after the second player's ply."""
    connect_time: float = 30.0
    """Seconds a connection has to complete its NME before it is dropped."""
    seed: int | None = None
    """Seed of the random battles; ``None`` draws one (and the result records it)."""

    @property
    def limits(self) -> Limits:
        """The clocks of the game's flow (:class:`engine.game.Game`)."""
        return Limits(self.move_time, self.game_time, self.on_timeout)
