"""The rule set as a value: which reading of the battle rules, and the ply limit."""

from enum import Enum

import attrs


class Variant(Enum):
    """Which reading of the battle rules to play.

    ``SERVER`` is how the course's reference server plays (the default).
    ``SPEC`` adds the specification's sentence: against monsters, defenders at least
    1.5 times the attackers kill them all and lose nothing.
    """

    SERVER = "server"
    SPEC = "spec"


@attrs.frozen
class Rules:
    """Everything about a game that is a setting rather than a law of the board."""

    variant: Variant = Variant.SERVER
    max_plies: int = attrs.field(default=200, validator=attrs.validators.ge(1))


DEFAULT_RULES = Rules()
