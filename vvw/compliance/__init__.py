"""check-bot's compliance engine: a bot walked through numbered protocol steps by a
scripted server (``checker``: the steps; ``scripted``: the server's side of a game, as our
referee plays it; ``bot_start``: one start of the bot under check)."""
