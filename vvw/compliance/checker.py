"""check-bot's compliance engine: a bot checked step by step against a scripted server.

A scripted server starts the bot (a command, with ``{host}`` and ``{port}`` replaced, or a
built-in name), walks it through numbered steps, and reports Passed, Failed or Skipped for
each (:class:`Outcome`); a failure says what was expected, what came instead, the offending
bytes and the bot's last output, and whether the same fault was seen at an earlier step.
The server is ours, cut to a script: the connection is a :class:`server.player.Player`, the
greeting :func:`server.lobby.greet`, the game a :class:`protocol.referee.RefereeSession`
(the turn choreography our server performs) in which the scripted opponent walks. The
steps (:data:`STEPS`) run in four sessions, each a fresh start of the bot:

- A (vampires, small map): 1 NME, 2 greeting, 3 first UPD, 4 mid-game UPDs (the opponent
  walks its whole group every ply, so each UPD lists a cell that is now empty), 5 END, BYE
  and exit;
- B: 6 the second seat (werewolves: a first UPD that is not empty), 7 a second game on the
  same connection (after END, a new SET… with no BYE in between);
- C: 8 a long game on a large map, every reply in time;
- D: 9 the server closing without END: does the bot exit, or spin at 100 % CPU?

A step after a failed one in its session is skipped. The scripted server and its game are
:mod:`vvw.compliance.scripted`, each start of the bot :mod:`vvw.compliance.bot_start`;
``vvw check-bot`` (:mod:`vvw.commands.check_bot`) prints what :class:`Checker` reports.
"""

import enum
from collections.abc import Awaitable, Callable
from pathlib import Path

import attrs
import trio

from engine import Kind
from engine.mapgen import generate_map
from protocol.codec import Nme, describe
from protocol.referee import END_OF_GAME, GOODBYE
from vvw.compliance.bot_start import EXIT_GRACE, Session
from vvw.compliance.scripted import ScriptedGame, StepFailed, cut
from vvw.running.bots import bot_command

SMALL_MAP = (10, 8, 3, 1)  # width, height, homes, seed
LARGE_MAP = (30, 30, 12, 2)
QUIET_TIME = 0.3
"""Seconds the bot is watched for stray bytes after the greeting."""
MID_GAME_TURNS = 6


class Status(enum.Enum):
    """How a step went."""

    PASSED = "Passed"
    FAILED = "Failed"
    SKIPPED = "Skipped"


@attrs.define
class Outcome:
    """How one step went: its detail when it passed, why it was skipped, or its failure."""

    number: int
    status: Status
    detail: str = ""
    failure: StepFailed | None = None
    output: str = ""
    same_as: int | None = None
    """An earlier step that failed with the same fault (this one is then one line)."""


StepRun = Callable[["Checker", Session], Awaitable[str]]


@attrs.frozen
class Step:
    """A numbered check: what it checks, the session (one start of the bot) it runs in,
    and how (returns a detail shown when it passed; raises :class:`StepFailed`)."""

    number: int
    text: str
    session: int
    run: StepRun


@attrs.frozen
class CheckOptions:
    """What is checked, and how strictly."""

    bot: str
    """A built-in name or a command with ``{host}`` and ``{port}``."""
    move_time: float = 2.0
    steps: frozenset[int] = attrs.field(factory=lambda: frozenset(TEXTS))
    """The steps wanted (a step's session runs the steps before it too); all by default."""
    long_plies: int = 100
    """Plies of the long game of step 8."""
    connect_time: float = 10.0


@attrs.define
class Checker:
    """Runs the sessions and reports each step as it ends."""

    options: CheckOptions
    log_dir: Path
    """Where each session's bot writes its output."""
    report: Callable[[Outcome], None]
    outcomes: list[Outcome] = attrs.field(init=False, factory=list)
    _faults: dict[str, int] = attrs.field(init=False, factory=dict)
    """Each fault seen, with the first step that failed with it."""

    @property
    def move_time(self) -> float:
        return self.options.move_time

    @property
    def connect_time(self) -> float:
        return self.options.connect_time

    def _command(self, port: int) -> list[str]:
        return bot_command(self.options.bot, "127.0.0.1", port, move_time=self.move_time)

    async def run(self) -> list[Outcome]:
        for number in sorted({step.session for step in STEPS}):
            in_session = [step for step in STEPS if step.session == number]
            wanted = [step.number for step in in_session if step.number in self.options.steps]
            if not wanted:
                continue
            session = Session(self.log_dir / f"session{number}", f"bot{number}", self.connect_time)
            try:
                await self._session(session, [s for s in in_session if s.number <= max(wanted)])
            finally:
                await session.close()
        return self.outcomes

    async def _session(self, session: Session, steps: list[Step]) -> None:
        for index, step in enumerate(steps):
            try:
                detail = await step.run(self, session)
            except StepFailed as failure:
                await self._failed(session, step, failure)
                for later in steps[index + 1 :]:
                    self._done(Outcome(later.number, Status.SKIPPED, f"step {step.number} failed"))
                return
            self._done(Outcome(step.number, Status.PASSED, detail))

    async def _failed(self, session: Session, step: Step, failure: StepFailed) -> None:
        if session.bot is not None:
            with trio.move_on_after(0.2):  # a crash: its exit code says more
                await session.bot.process.wait()
            code = session.bot.process.returncode
            exited = f"the bot exited with code {code}"
            if code is not None and not session.bot.signalled and exited not in failure.got:
                failure.got += f" ({exited})"
        first = self._faults.setdefault(failure.fault, step.number)
        same_as = first if first != step.number else None
        outcome = Outcome(step.number, Status.FAILED, failure=failure, same_as=same_as)
        if same_as is None:
            outcome.output = session.output()
        self._done(outcome)

    def _done(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        self.report(outcome)

    # --- session 1 --------------------------------------------------------------------------

    async def hello(self, session: Session) -> str:
        connection = await session.connect(self._command)
        expected = f"NME within {self.connect_time:g} s of connecting"
        received = await connection.receive(self.connect_time, expected)
        if received is None:
            raise StepFailed(expected, f"nothing in {self.connect_time:g} s")
        message, raw = received
        if not isinstance(message, Nme):
            raise StepFailed(expected, f"`{cut(describe(message))}` first", raw)
        return f"`{cut(describe(message))}`"

    async def greeting(self, session: Session) -> str:
        game = self._new_game(session, SMALL_MAP, Kind.VAMPIRES)
        await game.greet()
        assert session.connection is not None
        received = await session.connection.receive(QUIET_TIME, "nothing before the first UPD")
        if received is not None:
            message, raw = received
            got = f"`{cut(describe(message))}`"
            raise StepFailed("nothing before the first UPD", got, raw)
        return ""

    async def first_upd(self, session: Session) -> str:
        game = self._game(session)
        await game.turn()
        return f"in {game.slowest:.3f} s"

    async def mid_game(self, session: Session) -> str:
        game = self._game(session)
        turns = 0
        while turns < MID_GAME_TURNS and not game.over:
            await game.turn()
            turns += 1
        if game.emptied == 0:
            raise StepFailed("a UPD listing an emptied cell", "the game ended before one")
        emptied = f"{game.emptied} listing emptied cells"
        return f"{turns} UPDs, {emptied}; slowest MOV {game.slowest:.3f} s"

    async def goodbye(self, session: Session) -> str:
        assert session.connection is not None and session.bot is not None
        await session.connection.send(*GOODBYE)
        await session.connection.hang_up()
        if not await session.exits():
            raise StepFailed(
                f"the bot exits within {EXIT_GRACE:g} s of END, BYE and the connection closing",
                await session.still_running(),
            )
        return f"exit code {session.bot.process.returncode}"

    # --- session 2 --------------------------------------------------------------------------

    async def second_seat(self, session: Session) -> str:
        await self.hello(session)
        game = self._new_game(session, SMALL_MAP, Kind.WEREWOLVES)
        await game.greet()
        for _ in range(3):
            await game.turn()
        return f"3 UPDs answered; slowest MOV {game.slowest:.3f} s"

    async def second_game(self, session: Session) -> str:
        connection = self._game(session).connection
        await connection.send(*END_OF_GAME)
        await trio.sleep(QUIET_TIME)  # what a bot sends after END (an NME…) is ignored
        connection.drop_stale()
        game = self._new_game(session, SMALL_MAP, Kind.VAMPIRES)
        await game.greet()
        for _ in range(3):
            await game.turn()
        await connection.send(*GOODBYE)
        return f"3 UPDs answered; slowest MOV {game.slowest:.3f} s"

    # --- session 3 --------------------------------------------------------------------------

    async def long_game(self, session: Session) -> str:
        await self.hello(session)
        game = self._new_game(session, LARGE_MAP, Kind.VAMPIRES)
        await game.greet()
        while game.plies < self.options.long_plies and not game.over:
            await game.turn()
        await game.connection.send(*GOODBYE)
        rows, cols = game.map.rows, game.map.cols
        return f"{game.plies} plies on {rows} × {cols}; slowest MOV {game.slowest:.3f} s"

    # --- session 4 --------------------------------------------------------------------------

    async def server_hangs_up(self, session: Session) -> str:
        await self.hello(session)
        game = self._new_game(session, SMALL_MAP, Kind.VAMPIRES)
        await game.greet()
        await game.turn()
        await game.connection.hang_up()
        if not await session.exits():
            raise StepFailed(
                f"the bot exits within {EXIT_GRACE:g} s of the server closing mid-game",
                await session.still_running(),
            )
        return ""

    def _new_game(
        self, session: Session, size: tuple[int, int, int, int], species: Kind
    ) -> ScriptedGame:
        assert session.connection is not None
        game_map = generate_map(*size)
        session.game = ScriptedGame(
            session.connection, game_map, species, self.move_time, session.fallbacks
        )
        return session.game

    @staticmethod
    def _game(session: Session) -> ScriptedGame:
        assert session.game is not None
        return session.game


STEPS = (
    Step(1, "connects and sends a well-formed NME", 1, Checker.hello),
    Step(2, "reads SET, HUM, HME and MAP without a word", 1, Checker.greeting),
    Step(3, "answers the first, empty UPD with a legal MOV in time", 1, Checker.first_upd),
    Step(
        4,
        "answers mid-game UPDs (cells emptied included) with legal MOVs in time",
        1,
        Checker.mid_game,
    ),
    Step(5, "after END then BYE, exits", 1, Checker.goodbye),
    Step(
        6,
        "plays the second seat (werewolves: its first UPD is not empty)",
        2,
        Checker.second_seat,
    ),
    Step(
        7,
        "plays a second game on the same connection (SET again after END)",
        2,
        Checker.second_game,
    ),
    Step(8, "plays a long game on a large map, every MOV in time", 3, Checker.long_game),
    Step(9, "exits when the server closes without END (no spinning)", 4, Checker.server_hangs_up),
)
"""The steps, in order; a step's session runs the steps before it in that session too."""
TEXTS: dict[int, str] = {step.number: step.text for step in STEPS}
