"""What the ladder's pages show, computed from a :class:`~vvw.ladder.snapshot.Snapshot` alone.

* :func:`leaderboard`: every player that still plays, best rating first, with its games,
  wins, draws and losses and whether it is online now.
* :func:`team_report`: one team's rating on each map, its score against each opponent and
  the Elo difference it means (± 95 %), its games that ended abnormally with their exact
  reasons, its latest games.

Only finished games count; aborted ones are kept and listed, never rated. The ratings of
all games (:func:`ratings_of`) take the longest to compute: a caller that shows many pages
computes them once per new game and passes them in.
"""

from collections.abc import Collection, Iterable, Mapping

import attrs

from vvw.ladder.ratings import Outcome, Rating, fit_ratings
from vvw.ladder.snapshot import Player, Snapshot, StoredGame
from vvw.records.tally import Tally

RECENT_GAMES = 20
"""Games a team's page lists under "latest games"."""


@attrs.frozen
class Standing:
    """A player's line on the leaderboard."""

    rank: int | None
    """``None`` until it has a rated game."""
    player: Player
    rating: Rating | None
    tally: Tally
    online: bool
    anchor: bool


@attrs.frozen
class MapLine:
    """A team's rating on one map (from that map's games alone)."""

    map: str
    rating: Rating
    tally: Tally


@attrs.frozen
class OpponentLine:
    """A team's score against one opponent and the Elo difference it means: the team's
    rating from these games alone, the opponent anchored at 0 (the model and prior of
    :mod:`vvw.ladder.ratings`, so a clean sweep still has a finite interval)."""

    opponent: str
    tally: Tally
    difference: Rating


@attrs.frozen
class TeamReport:
    """Everything a team's page shows."""

    standing: Standing
    by_map: tuple[MapLine, ...]
    by_opponent: tuple[OpponentLine, ...]
    abnormal: tuple[StoredGame, ...]
    """Its games that did not end by the board or the clock (aborted ones too), newest
    first."""
    latest: tuple[StoredGame, ...]
    """Its latest games, newest first (at most :data:`RECENT_GAMES`)."""


def outcomes(games: Iterable[StoredGame]) -> list[Outcome]:
    """The rated games as the ratings read them."""
    return [
        Outcome(game.vampires, game.werewolves, game.score_of(game.vampires))
        for game in games
        if game.rated
    ]


def ratings_of(snapshot: Snapshot, games: Iterable[StoredGame] | None = None) -> dict[str, Rating]:
    """The ratings from ``games`` (all the snapshot's by default), on the ladder's scale."""
    settings = snapshot.settings
    chosen = snapshot.games if games is None else games
    return fit_ratings(outcomes(chosen), settings.anchor, settings.anchor_rating)


def _tallies(games: Iterable[StoredGame]) -> dict[str, Tally]:
    """Every player's :class:`~vvw.records.tally.Tally` of its rated games, by name, in one
    pass over ``games``."""
    scores: dict[str, list[float]] = {}
    for game in games:
        if game.rated:
            for name in game.names:
                scores.setdefault(name, []).append(game.score_of(name))
    return {name: Tally.of(counted) for name, counted in scores.items()}


def _tally(name: str, games: Iterable[StoredGame]) -> Tally:
    """``name``'s :class:`~vvw.records.tally.Tally` of its rated games in ``games``."""
    return Tally.of(game.score_of(name) for game in games if game.rated and name in game.names)


def map_ratings_of(snapshot: Snapshot) -> dict[str, dict[str, Rating]]:
    """Every player's rating on each map, from that map's games alone, by map and name."""
    labels = {game.map for game in snapshot.games if game.rated}
    return {
        label: ratings_of(snapshot, [game for game in snapshot.games if game.map == label])
        for label in labels
    }


def leaderboard(
    snapshot: Snapshot, ratings: dict[str, Rating], online: Collection[str] = ()
) -> list[Standing]:
    """Every player that still plays: rated ones best first, then those yet to play.
    ``ratings`` are :func:`ratings_of` the snapshot."""
    tallies = _tallies(snapshot.games)
    players = [player for player in snapshot.players if player.removed is None]
    rated = sorted(
        (p for p in players if p.name in tallies),
        key=lambda p: (-ratings[p.name].elo, p.name.casefold()),
    )
    unrated = sorted((p for p in players if p.name not in tallies), key=lambda p: p.name.casefold())
    return [
        Standing(
            rank if player.name in tallies else None,
            player,
            ratings.get(player.name),
            tallies.get(player.name, Tally()),
            player.name in online,
            player.name == snapshot.settings.anchor,
        )
        for rank, player in enumerate(rated + unrated, 1)
    ]


def team_report(
    snapshot: Snapshot,
    name: str,
    ratings: dict[str, Rating],
    online: Collection[str] = (),
    map_ratings: Mapping[str, dict[str, Rating]] | None = None,
) -> TeamReport | None:
    """The page of the player ``name`` (a team, removed or not, or a built-in bot);
    ``None`` if there is none. ``ratings`` are :func:`ratings_of` the snapshot, and
    ``map_ratings`` its :func:`map_ratings_of` (computed here if not given: a caller
    that shows many teams' pages computes them once)."""
    everyone = {
        standing.player.name: standing for standing in leaderboard(snapshot, ratings, online)
    }
    removed = {player.name: player for player in snapshot.players if player.removed is not None}
    if name in removed:
        player = removed[name]
        tally = _tally(name, snapshot.games)
        everyone[name] = Standing(None, player, ratings.get(name), tally, False, False)
    standing = everyone.get(name)
    if standing is None:
        return None
    mine = [game for game in snapshot.games if name in game.names]
    if map_ratings is None:
        map_ratings = map_ratings_of(snapshot)
    by_map = []
    for label in sorted({game.map for game in mine if game.rated}, key=str.casefold):
        on_map = [game for game in mine if game.map == label]
        by_map.append(MapLine(label, map_ratings[label][name], _tally(name, on_map)))
    by_opponent = []
    for opponent in sorted({g.opponent_of(name) for g in mine if g.rated}, key=str.casefold):
        between = [g for g in mine if g.opponent_of(name) == opponent]
        difference = fit_ratings(outcomes(between), opponent, 0.0)[name]
        by_opponent.append(OpponentLine(opponent, _tally(name, between), difference))
    abnormal = [game for game in mine if game.abnormal]
    return TeamReport(
        standing,
        tuple(by_map),
        tuple(by_opponent),
        tuple(reversed(abnormal)),
        tuple(reversed(mine[-RECENT_GAMES:])),
    )
