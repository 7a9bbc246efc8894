"""The web side: the one HTTP server and the pages built on it.

- :mod:`~vvw.web.server`: the HTTP server (h11 on trio, accepting with
  ``trio.serve_listeners``), bounded, one request a connection, event streams;
- :mod:`~vvw.web.html`: the one HTML builder, every text escaped by default;
- :mod:`~vvw.web.palette`: the one palette, every colour of the pages named once;
- :mod:`~vvw.web.model`: a game's transcript records as the viewer's events;
- :mod:`~vvw.web.viewer`: the viewer's page (``viewer.html``, ``viewer.css``,
  ``viewer.js``; ``play.html`` adds a person's side of the board), replays from disk;
- :mod:`~vvw.web.live`: the live view, games pushed to browsers as they are played;
- :mod:`~vvw.web.dashboard`: a tournament's dashboard (live, or a folder of pages).
"""
