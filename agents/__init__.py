"""Bots that play Vampires vs Werewolves as ordinary protocol clients.

Beside a user's own ``engine.py``, ``protocol.py`` or ``server.py`` (a student's bot
folder), every module of the package is imported at once with our packages' names meaning
ours (:mod:`agents.shield`), so the client library works and the user's files stay theirs.
"""

from agents import shield

if _hidden := shield.shadowed(("engine", "protocol", "server")):
    shield.import_ours(shield.all_agents(), _hidden)
