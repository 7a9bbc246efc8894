"""Subcommands of the ``vvw`` command line, one module each (see :mod:`vvw.cli`)."""
