"""What can stand on a cell: nothing, humans, vampires or werewolves."""

from enum import IntEnum


class Kind(IntEnum):
    """The content kind of a cell. Vampires and werewolves are the two species."""

    EMPTY = 0
    HUMANS = 1
    VAMPIRES = 2
    WEREWOLVES = 3

    def __repr__(self) -> str:
        """``Kind.VAMPIRES``: valid Python, so a printed counterexample can be pasted back."""
        return f"Kind.{self.name}"

    @property
    def is_species(self) -> bool:
        """True for the two playing species."""
        return self >= Kind.VAMPIRES

    @property
    def wire_name(self) -> str:
        """Its name as files, the results file and pages write it: ``vampires``, ``humans``."""
        return self.name.lower()

    @property
    def letter(self) -> str:
        """One letter for drawings and logs: ``.``, ``H``, ``V``, ``W``."""
        return ".HVW"[self]


EMPTY = Kind.EMPTY
HUMANS = Kind.HUMANS
VAMPIRES = Kind.VAMPIRES
WEREWOLVES = Kind.WEREWOLVES

KINDS = tuple(Kind)
"""Every kind, indexed by its value: ``KINDS[kind]`` is ``Kind(kind)``, faster in hot loops."""


def opponent(species: Kind) -> Kind:
    """The other species."""
    if species == VAMPIRES:
        return WEREWOLVES
    if species == WEREWOLVES:
        return VAMPIRES
    raise ValueError(f"{species!r} is not a playing species")
