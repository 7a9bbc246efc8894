"""The class ladder: an always-on server where every team's bot meets the others, rated.

See ``docs/ladder.md``. Each module is one idea: ``credentials`` (team names, tokens and
their wire form in ``NME``), ``limiter`` (failed logins slowed per address), ``settings``
(what every ladder game is played with), ``store`` (the SQLite file), ``ratings`` (Elo from
all games at once), ``pairing`` (who plays whom next), ``tables`` (what the pages show),
``pages`` (the pages as HTML), ``serving`` (the server), ``web`` (the pages served),
``joining`` (a team's bot played through a relay) and ``notes`` (the result a relay hears).
"""
