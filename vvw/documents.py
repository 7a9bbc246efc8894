"""Where the guides are: ``docs/`` of a clone, installed as the package ``vvw.docs``.

A command's help names a guide by its path as it is on this machine, so that an
installed user is never sent to a file the wheel does not hold.
"""

from importlib import resources


def guide(name: str) -> str:
    """The path of the guide ``name`` (``ladder.md``) as installed here."""
    return str(resources.files("vvw.docs").joinpath(name))
