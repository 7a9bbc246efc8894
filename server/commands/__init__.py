"""Subcommands of the ``vvw`` command line, one module each (see :mod:`server.cli`)."""
