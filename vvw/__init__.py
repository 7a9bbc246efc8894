"""The ``vvw`` command line and the tools built on the engine, the protocol, the server
and the bots (one module per subcommand in :mod:`vvw.commands`)."""
