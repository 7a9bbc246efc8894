"""One ladder game played and recorded: its two entrants greeted, the game played by the
server's own parts (:func:`server.lobby.greet`, :func:`server.serving.play_seated`), its
transcript kept in the folder beside the ladder, its beginning and its end written to the
store (each in one transaction, off the event loop), and the relays told how it ended
(:mod:`vvw.ladder.notes`).

A game stopped by the server's stop is recorded as aborted, its end written before the
server stops; one whose greeting cannot reach a bot is recorded as aborted too, never
rated.
"""

from collections.abc import Callable

import attrs
import trio

from engine import GameResult, Kind, PlayerRecord, Termination
from engine.mapfile import GameMap
from server.events import GameEnded, Seated, ServerEvent
from server.lobby import greet
from server.player import Player, SendFailed
from server.referee import say_goodbye
from server.serving import TranscriptKeeper, Transcripts, play_seated
from server.table import Seats
from server.transcript import FrameRecorder
from vvw.ladder.analysing import Analyses
from vvw.ladder.diskthread import StoreThread
from vvw.ladder.events import LadderEvent
from vvw.ladder.notes import note_of, send_note
from vvw.ladder.pairing import Match
from vvw.ladder.ratings import Outcome
from vvw.ladder.schema import transcripts_folder
from vvw.ladder.snapshot import Pairing, StoredGame
from vvw.ladder.store import LadderStore
from vvw.ladder.tables import outcomes


@attrs.define(eq=False)
class Entrant:
    """A connection that plays for a team or a built-in bot, from its admission to the
    end of its game."""

    seat: int
    name: str
    player: Player
    since: float
    """When it began to wait (trio's clock)."""
    relay: bool = False
    """Whether it is ``vvw ladder join``'s relay, which reads a note after its game."""
    assigned: trio.Event = attrs.field(factory=trio.Event)
    """Set when its game begins: from then on its connection is held until ``done``."""
    done: trio.Event = attrs.field(factory=trio.Event)


class LadderGames:
    """The ladder's games played and recorded (see the module's docstring); each finished
    game's outcome is added to :attr:`outcomes`, and given to ``analyses`` if any."""

    def __init__(
        self,
        store: LadderStore,
        store_thread: StoreThread,
        recorder: FrameRecorder,
        tell: Callable[[LadderEvent], None],
        analyses: Analyses | None,
    ) -> None:
        self.store = store
        self.settings = store.settings
        self.outcomes: list[Outcome] = outcomes(store.snapshot().games)
        """Every finished game's, oldest first."""
        self._store = store_thread
        self._recorder = recorder
        self._tell = tell
        self._analyses = analyses
        self._folder = transcripts_folder(store.path)
        self._transcripts = Transcripts(self._folder, keep_all=True, lines=True)

    async def play(self, match: Match, vampires: Entrant, werewolves: Entrant) -> None:
        """Greet both and play the game: recorded as it begins and as it ends (an aborted
        game's end too, before the server stops: :meth:`_finished`)."""
        pairing, leg = await self._pairing_of(match, vampires, werewolves)
        game = await self._store.run(self.store.begin_game, pairing.id, leg)
        for entrant, species in ((vampires, Kind.VAMPIRES), (werewolves, Kind.WEREWOLVES)):
            entrant.player.species = species
            entrant.assigned.set()
        ended: list[GameEnded] = []
        try:
            try:
                await self._greet_and_play(game.id, pairing, (vampires, werewolves), ended)
            finally:
                for event in ended:  # written even when the server stops (shielded)
                    await self._finished(event)
            await self._send_notes(game.id, (vampires, werewolves))
        finally:
            vampires.done.set()
            werewolves.done.set()

    async def _pairing_of(
        self, match: Match, vampires: Entrant, werewolves: Entrant
    ) -> tuple[Pairing, int]:
        """The pairing and leg ``match`` plays: a return game's, or a new pairing's first."""
        if match.return_of is not None:
            return await self._store.run(self.store.pairing, match.return_of), 2
        return await self._store.run(self.store.new_pairing, vampires.name, werewolves.name), 1

    async def _greet_and_play(
        self,
        number: int,
        pairing: Pairing,
        entrants: tuple[Entrant, Entrant],
        ended: list[GameEnded],
    ) -> None:
        """Greet both and play game ``number``; its end put in ``ended``, for :meth:`play`
        to write before it is told."""
        players = [entrant.player for entrant in entrants]
        game_map = self.settings.map_of(pairing.id).game_map
        for player in players:
            try:
                await greet(player, game_map, species_of(player))
            except SendFailed as error:
                ended.append(_never_began(number, players, game_map, player, error))
                await say_goodbye(players)
                return
        for player in players:
            self._tell(Seated(species_of(player), player.name, player.peer))
        seats = Seats(players=players)
        seats.full.set()
        settings = attrs.evolve(self.settings.game, seed=pairing.battle_seed)

        def hold_the_end(event: ServerEvent) -> None:
            if isinstance(event, GameEnded):
                ended.append(event)
            else:
                self._tell(event)

        keeper = TranscriptKeeper(self._transcripts, self._folder, hold_the_end)
        await play_seated(number, seats, game_map, settings, keeper, self._recorder)

    async def _finished(self, ended: GameEnded) -> None:
        """A game's end: written to the store in one transaction (off the event loop), then
        counted in the outcomes, given to the analyses and told."""
        game = await self._store.run(_write_end, self.store, ended)
        self.outcomes.extend(outcomes([game]))
        if self._analyses is not None and game.rated and ended.transcript is not None:
            self._analyses.add(game.id, ended.transcript)
        self._tell(ended)

    async def _send_notes(self, number: int, entrants: tuple[Entrant, Entrant]) -> None:
        """Tell the relays among ``entrants`` how game ``number`` ended (after its BYE)."""
        game = await self._store.run(self.store.game, number)
        for entrant in entrants:
            if entrant.relay:
                await send_note(entrant.player, note_of(game, entrant.name))


def _write_end(store: LadderStore, ended: GameEnded) -> StoredGame:
    """Write the end of a game in one transaction (in the store's thread); the game."""
    transcript = None if ended.transcript is None else ended.transcript.name
    store.finish_game(ended.number, ended.result, transcript)
    return store.game(ended.number)


def species_of(player: Player) -> Kind:
    assert player.species is not None  # set before the greeting
    return player.species


def _never_began(
    number: int, players: list[Player], game_map: GameMap, gone: Player, error: SendFailed
) -> GameEnded:
    """The end of a game whose greeting could not reach ``gone``: aborted, never rated."""
    start = game_map.initial_state()
    vampires, werewolves = (
        PlayerRecord(species_of(p), p.name, start.total(species_of(p))) for p in players
    )
    detail = f"{gone.name} left before the game began ({error})"
    result = GameResult(
        None, Termination.ABORTED, detail, 0, vampires, werewolves, map_name=game_map.name
    )
    return GameEnded(number, result)
