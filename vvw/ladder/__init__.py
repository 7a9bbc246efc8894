"""The class ladder: an always-on server's store, ratings, pairing, credentials and pages.

See ``docs/ladder.md``. Each module is one idea: ``credentials`` (team names, tokens and
their wire form in ``NME``), ``limiter`` (failed logins slowed per address), ``settings``
(what every ladder game is played with), ``store`` (the SQLite file), ``ratings`` (Elo from
all games at once), ``pairing`` (who plays whom next), ``tables`` (what the pages show) and
``pages`` (the pages as HTML).
"""
