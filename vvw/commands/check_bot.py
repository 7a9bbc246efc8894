"""``vvw check-bot "python mybot.py {host} {port}"``: a compliance check of a bot, step by step.

A scripted server starts the bot (a command, with ``{host}`` and ``{port}`` replaced, or a
built-in name), walks it through numbered steps, and prints Passed, Failed or Skipped for
each; a failure shows what was expected, what came instead (cut when long), the offending
bytes and the bot's last output, once: the same fault at a later step is one line. The
server is ours, cut to a script: the connection is a :class:`server.player.Player`, the
greeting :func:`server.lobby.greet`, the game an :class:`engine.Game` in which the scripted
opponent walks. The steps (:data:`STEPS`) run in four sessions, each a fresh start of the
bot:

- A (vampires, small map): 1 NME, 2 greeting, 3 first UPD, 4 mid-game UPDs (the opponent
  walks its whole group every ply, so each UPD lists a cell that is now empty), 5 END, BYE
  and exit;
- B: 6 the second seat (werewolves: a first UPD that is not empty), 7 a second game on the
  same connection (after END, a new SET… with no BYE in between);
- C: 8 a long game on a large map, every reply in time;
- D: 9 the server closing without END: does the bot exit, or spin at 100 % CPU?

A step after a failed one in its session is skipped. Exit status 0 when every step run
passed, 1 otherwise (2: bad usage).
"""

import argparse
import contextlib
import enum
import os
import random
import shlex
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import NoReturn

import attrs
import trio

from engine import Game, GameState, IllegalPly, Kind, Move, Ply, Rules, find_violation
from engine.drawing import draw_board, window_around
from engine.mapfile import GameMap
from engine.mapgen import generate_map
from engine.movegen import random_ply
from protocol.cells import ply_cells, update_cells
from protocol.codec import Bye, End, Message, Mov, Nme, Upd, describe, encode
from server.lobby import connected, greet
from server.player import Closed, Garbled, Player, Received, SendFailed
from server.processes import BotProcess, start_bot, stop_bot
from server.race import wait_unless
from vvw import signals
from vvw.argtypes import positive_float, positive_int
from vvw.errors import Stopped, UsageError, system_refusal
from vvw.running.bots import BUILTIN, bot_command
from vvw.wording import plural

SMALL_MAP = (10, 8, 3, 1)  # width, height, homes, seed
LARGE_MAP = (30, 30, 12, 2)
QUIET_TIME = 0.3
"""Seconds the bot is watched for stray bytes after the greeting."""
EXIT_GRACE = 2.0
"""Seconds a bot has to exit after the connection ends."""
MID_GAME_TURNS = 6
LATE_WATCH = 2.0
"""Seconds a MOV that did not come in time is still waited for, to say how late it was."""
LONG = 160
"""Characters of a message, a ply or a line of the bot's output shown; the rest is cut."""
BOARD_WINDOW = 12
"""Columns and rows of a board drawn with a failure (a larger one is drawn around the move)."""


def cut(text: str, limit: int = LONG) -> str:
    """``text`` on one line, at most ``limit`` characters (``…`` where it was cut)."""
    text = " ".join(text.split("\n"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


class StepFailed(Exception):
    """A step failed: what was expected, what came instead (text and bytes), and the fault
    in a few words (the same fault at a later step is reported by them alone)."""

    def __init__(self, expected: str, got: str, data: bytes = b"", fault: str = "") -> None:
        super().__init__(got)
        self.expected = expected
        self.got = got
        self.data = data
        self.fault = fault or got


class Status(enum.Enum):
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


class Connection:
    """The scripted server's end of the connection: a :class:`Player` (its reader task
    decodes what the bot sends), whose ending is kept once seen."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.ended: Closed | Garbled | None = None

    async def send(self, *messages: Message) -> None:
        try:
            await self.player.send_together(messages)
        except SendFailed:
            raise StepFailed("the connection open", "the bot closed its connection") from None

    async def greet(self, game_map: GameMap, species: Kind) -> None:
        try:
            await greet(self.player, game_map, species)
        except SendFailed:
            raise StepFailed("the connection open", "the bot closed its connection") from None

    async def receive(self, within: float, expected: str) -> tuple[Message, bytes] | None:
        """The next message within ``within`` seconds, or ``None``; StepFailed on garbage or
        a closed connection."""
        with trio.move_on_after(within):
            while self.ended is None:
                event = await self.player.next_event()
                if isinstance(event, Received):
                    return event.message, encode(event.message)
                self.ended = event
            self._fail(self.ended, expected)
        return None

    def drop_stale(self) -> None:
        """Forget what arrived unasked, as a server does before the next UPD."""
        for event in self.player.stale_events():
            if not isinstance(event, Received) and self.ended is None:
                self.ended = event

    @staticmethod
    def _fail(event: Closed | Garbled, expected: str) -> NoReturn:
        if isinstance(event, Garbled):
            got = f"bytes that are no message: {event.error}"
            raise StepFailed(expected, got, event.error.data, "bytes that are no message")
        raise StepFailed(expected, "the bot closed its connection")

    async def hang_up(self) -> None:
        """Close the connection at once (no END, no waiting for the bot)."""
        await self.player.stream.aclose()


def _walk(state: GameState, rng: random.Random) -> Ply:
    """The opponent's ply: its largest group, whole, to an empty neighbouring cell (so the
    cell it leaves is listed empty in the next UPD); any legal ply if it cannot."""
    species = state.to_move
    groups = sorted(state.groups(species), key=lambda g: -g[2])
    if groups:
        x, y, n = groups[0]
        targets = [
            (x + dx, y + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy)
            and 0 <= x + dx < state.cols
            and 0 <= y + dy < state.rows
            and state.at(x + dx, y + dy)[1] == 0
        ]
        if targets:
            tx, ty = rng.choice(targets)
            return (Move(x, y, n, tx, ty),)
    return tuple(random_ply(state, rng))


def _board(state: GameState, move: Move | None) -> str:
    """The board the bot was told of; a large one around ``move``'s source."""
    window = None
    if move is not None and max(state.rows, state.cols) > BOARD_WINDOW:
        window = window_around(state.rows, state.cols, move.x, move.y, BOARD_WINDOW)
    lines = draw_board(state.rows, state.cols, state.board_cells(), indent=" " * 8, window=window)
    if window is not None:
        xs, ys = window
        lines.insert(
            0,
            f"        (around the move: columns {xs[0]}-{xs[-1]} and rows {ys[0]}-{ys[-1]}"
            f" of {state.rows} rows × {state.cols} columns)",
        )
    return "\n".join(lines)


class ScriptedGame:
    """One game with the bot on ``species``' side, played as our referee plays it (an
    :class:`engine.Game`); the opponent walks."""

    def __init__(
        self,
        connection: Connection,
        game_map: GameMap,
        species: Kind,
        move_time: float,
        fallbacks: Callable[[], list[str]] = list,
    ) -> None:
        self.connection = connection
        self.fallbacks = fallbacks
        """The fallback plies the bot's client library has noted so far (why each)."""
        self.map = game_map
        self.species = species
        self.move_time = move_time
        names = ("the bot", "the opponent")
        self.game = Game(
            game_map.initial_state(),
            names=names if species is Kind.VAMPIRES else names[::-1],
            rules=Rules(max_plies=10**6),  # the game ends when the step has seen enough
            seed=7,
        )
        self.rng = random.Random(7)
        self.changed: dict[Kind, list[tuple[int, int]]] = {
            Kind.VAMPIRES: [],
            Kind.WEREWOLVES: [],
        }
        """The cells of each side's last ply, as the next UPD lists them."""
        self.emptied = 0
        """UPDs sent that listed a cell now empty."""
        self.slowest = 0.0

    @property
    def over(self) -> bool:
        return self.game.result is not None

    @property
    def plies(self) -> int:
        return self.game.state.ply

    async def greet(self) -> None:
        await self.connection.greet(self.map, self.species)

    def _play(self, ply: Ply) -> str | None:
        """Tell the game; why it lost, if the ply lost it."""
        mover = self.game.to_move
        turn = self.game.reply(ply, 0.0, 0.0)
        if turn is None:
            assert self.game.result is not None
            return self.game.result.detail
        self.changed[mover] = ply_cells(ply)
        return None

    def _opponent_moves(self) -> None:
        if not self.over and self.game.to_move != self.species:
            self._play(_walk(self.game.state, self.rng))

    async def _late(self, sent: float) -> str:
        """What a bot that did not answer in time did: a late MOV, or nothing at all."""
        got = f"no MOV in {self.move_time:g} s"
        with contextlib.suppress(StepFailed):
            late = await self.connection.receive(max(2 * self.move_time, LATE_WATCH), "")
            if late is not None:
                after = time.monotonic() - sent
                return f"{got}: `{cut(describe(late[0]))}` came {after:.3f} s after the UPD"
        return got

    async def turn(self) -> None:
        """One UPD to the bot and its MOV, judged; then the opponent's ply."""
        self._opponent_moves()
        if self.over:
            return
        state = self.game.state
        cells = update_cells(state, (self.changed[Kind.VAMPIRES], self.changed[Kind.WEREWOLVES]))
        if any(h == v == w == 0 for _, _, h, v, w in cells):
            self.emptied += 1
        self.connection.drop_stale()
        upd = Upd(cells)
        await self.connection.send(upd)
        sent = time.monotonic()
        expected = f"a MOV within {self.move_time:g} s of `{cut(describe(upd), 120)}`"
        while True:
            received = await self.connection.receive(self.move_time, expected)
            if received is None:
                got = await self._late(sent)
                raise StepFailed(expected, got, fault=f"no MOV in {self.move_time:g} s")
            message, raw = received
            if isinstance(message, Mov):
                break
            if not isinstance(message, Nme):
                got = f"`{cut(describe(message))}`"
                raise StepFailed(expected, got, raw, fault=f"{type(message).__name__.upper()}")
        self.slowest = max(self.slowest, time.monotonic() - sent)
        ply = tuple(Move(*move) for move in message.moves)
        self._judge(state, ply, message, raw)
        self._own_ply(expected, message)
        self._opponent_moves()

    def _own_ply(self, expected: str, message: Mov) -> None:
        """Fail if the MOV was not the bot's own: its client library (vvw's) noted it sent
        a fallback, a random legal ply, since the bot was late, failed or was illegal."""
        noted = self.fallbacks()
        if noted:
            raise StepFailed(
                f"{expected}, the bot's own ply",
                f"`{cut(describe(message))}`, a fallback: its client library sent a random"
                f" legal ply as {cut(noted[-1], 100)} ({plural(len(noted), 'fallback')} so far)",
                fault="a fallback ply (the bot was late, failed or illegal)",
            )

    def _judge(self, state: GameState, ply: Ply, message: Mov, raw: bytes) -> None:
        side = self.species.name.lower()
        expected = f"a legal ply for the {side} on the board it was told of"
        violation: IllegalPly | str | None = find_violation(state, ply)
        if violation is None:
            violation = self._play(ply)  # a rule of the server's game (the UPD's size)
        if violation is None:
            return
        move, fault = None, "an illegal ply (a UPD too long)"
        if isinstance(violation, IllegalPly):
            move, rule = violation.move, violation.rule
            fault = f"an illegal ply, rule {rule.number}"
        raise StepFailed(
            f"{expected}:\n{_board(state, move)}",
            f"`{cut(describe(message))}`: {cut(str(violation))}",
            raw,
            fault,
        )


@attrs.define
class Session:
    """One start of the bot: its process, its connection, the game it plays, the logs."""

    log_dir: Path
    label: str
    connect_time: float
    bot: BotProcess | None = None
    connection: Connection | None = None
    game: ScriptedGame | None = None
    listener: trio.SocketListener | None = None
    _open: contextlib.AsyncExitStack = attrs.field(factory=contextlib.AsyncExitStack)

    def fallbacks(self) -> list[str]:
        """The fallback plies the bot's client library has noted (vvw's client only)."""
        return [] if self.bot is None else self.bot.fallbacks()

    def output(self, lines: int = 8) -> str:
        """The bot's last lines of standard output and error (long ones cut)."""
        if self.bot is None:
            return ""
        texts = []
        for path, name in ((self.bot.stdout_path, "stdout"), (self.bot.stderr_path, "stderr")):
            try:
                text = path.read_bytes()[-4096:].decode("utf-8", "replace").strip()
            except OSError:
                continue
            if text:
                tail = text.splitlines()[-lines:]
                texts.append(f"{name}:\n" + "\n".join(f"  | {cut(line)}" for line in tail))
        return "\n".join(texts) or "(nothing on stdout or stderr)"

    async def connect(self, port_command: Callable[[int], list[str]]) -> Connection:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.listener = listeners[0]
        port = self.listener.socket.getsockname()[1]
        self.bot = await start_bot(self.label, port_command(port), self.log_dir)
        stream = None
        with trio.move_on_after(self.connect_time):
            stream = await wait_unless(self.listener.accept, self.bot.process.wait)
        if stream is None:
            code = self.bot.process.returncode
            got = (
                f"the bot exited with code {code} without connecting"
                if code is not None
                else f"no connection in {self.connect_time:g} s"
            )
            raise StepFailed(f"a connection to 127.0.0.1:{port}", got + self._hidden_package())
        player = await self._open.enter_async_context(connected(stream, f"127.0.0.1:{port}"))
        self.connection = Connection(player)
        return self.connection

    def _hidden_package(self) -> str:
        """A hint if the bot's own ``agents.py`` hid our package from its import."""
        assert self.bot is not None
        try:
            errors = self.bot.stderr_path.read_bytes()[-4096:]
        except OSError:
            return ""
        if b"'agents' is not a package" not in errors:
            return ""
        return (
            "; the bot's own agents.py hides vvw's agents package: import the client"
            " library as `from vvw.client import play_blocking` (or rename the file)"
        )

    async def exits(self, grace: float = EXIT_GRACE) -> bool:
        assert self.bot is not None
        with trio.move_on_after(grace):
            await self.bot.process.wait()
            return True
        return False

    async def close(self) -> None:
        if self.bot is not None:
            await stop_bot(self.bot)  # first: the connection then closes at once
            for path in (self.bot.stdout_path, self.bot.stderr_path):  # nothing said: no file
                with contextlib.suppress(OSError):
                    if path.stat().st_size == 0:
                        path.unlink()
            with contextlib.suppress(OSError):  # not empty
                self.log_dir.rmdir()
        await self._open.aclose()
        if self.listener is not None:
            await self.listener.aclose()


def _cpu_seconds(pid: int) -> float | None:
    """CPU time used by a process so far (Linux), or ``None``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _cpu_share(pid: int, over: float = 1.0) -> float | None:
    before = _cpu_seconds(pid)
    await trio.sleep(over)
    after = _cpu_seconds(pid)
    return None if before is None or after is None else (after - before) / over


StepRun = Callable[["Checker", Session], Awaitable[str]]


@attrs.frozen
class Step:
    """A numbered check: what it checks, the session (one start of the bot) it runs in,
    and how (returns a detail shown when it passed; raises :class:`StepFailed`)."""

    number: int
    text: str
    session: int
    run: StepRun


class Checker:
    """Runs the sessions and reports each step as it ends."""

    def __init__(
        self,
        spec: str,
        move_time: float,
        steps: frozenset[int],
        long_plies: int,
        log_dir: Path,
        report: Callable[[Outcome], None],
        connect_time: float = 10.0,
    ) -> None:
        self.connect_time = connect_time
        self.spec = spec
        self.move_time = move_time
        self.steps = steps
        self.long_plies = long_plies
        self.log_dir = log_dir
        self.report = report
        self.outcomes: list[Outcome] = []
        self._faults: dict[str, int] = {}
        """Each fault seen, with the first step that failed with it."""

    def _command(self, port: int) -> list[str]:
        return bot_command(self.spec, "127.0.0.1", port, move_time=self.move_time)

    async def run(self) -> list[Outcome]:
        for number in sorted({step.session for step in STEPS}):
            in_session = [step for step in STEPS if step.session == number]
            wanted = [step.number for step in in_session if step.number in self.steps]
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
        await session.connection.send(End(), Bye())
        await session.connection.hang_up()
        if not await session.exits():
            raise StepFailed(
                f"the bot exits within {EXIT_GRACE:g} s of END, BYE and the connection closing",
                await self._still_running(session),
            )
        return f"exit code {session.bot.process.returncode}"

    async def _still_running(self, session: Session) -> str:
        assert session.bot is not None
        share = await _cpu_share(session.bot.process.pid)
        if share is None:
            return f"still running after {EXIT_GRACE:g} s"
        state = "busy (spinning?)" if share > 0.3 else "idle"
        return f"still running after {EXIT_GRACE:g} s, {state} at {share:.0%} CPU"

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
        await connection.send(End())
        await trio.sleep(QUIET_TIME)  # what a bot sends after END (an NME…) is ignored
        connection.drop_stale()
        game = self._new_game(session, SMALL_MAP, Kind.VAMPIRES)
        await game.greet()
        for _ in range(3):
            await game.turn()
        await connection.send(End(), Bye())
        return f"3 UPDs answered; slowest MOV {game.slowest:.3f} s"

    # --- session 3 --------------------------------------------------------------------------

    async def long_game(self, session: Session) -> str:
        await self.hello(session)
        game = self._new_game(session, LARGE_MAP, Kind.VAMPIRES)
        await game.greet()
        while game.plies < self.long_plies and not game.over:
            await game.turn()
        await game.connection.send(End(), Bye())
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
                await self._still_running(session),
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
TEXTS = {step.number: step.text for step in STEPS}


def parse_steps(text: str) -> frozenset[int]:
    """An argparse type: ``1,3-5`` → {1, 3, 4, 5}."""
    steps: set[int] = set()
    try:
        for part in text.split(","):
            first, _, last = part.strip().partition("-")
            steps.update(range(int(first), int(last or first) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of steps like 1,3-5") from None
    unknown = steps - TEXTS.keys()
    if unknown or not steps:
        raise argparse.ArgumentTypeError(f"steps are 1..{len(STEPS)}, got {text!r}")
    return frozenset(steps)


def format_outcome(outcome: Outcome) -> list[str]:
    title = f"{outcome.number}. {TEXTS[outcome.number]}: {outcome.status.value}"
    failure = outcome.failure
    if failure is None:
        return [title + (f" ({outcome.detail})" if outcome.detail else "")]
    if outcome.same_as is not None:
        return [f"{title} (the same fault as step {outcome.same_as}: {cut(failure.fault, 80)})"]
    lines = [title, f"     expected: {failure.expected}", f"     got: {failure.got}"]
    if failure.data:
        more = " …" if len(failure.data) > 64 else ""
        lines.append(f"     bytes: {failure.data[:64].hex(' ')}{more}")
    if outcome.output:
        lines.append("     the bot's last output:")
        lines += ["       " + line for line in outcome.output.splitlines()]
    return lines


def summary(outcomes: list[Outcome]) -> str:
    """``4 passed, 3 failed, 2 skipped``."""
    counts = {status: 0 for status in Status}
    for outcome in outcomes:
        counts[outcome.status] += 1
    return ", ".join(f"{count} {status.value.lower()}" for status, count in counts.items())


def run(args: argparse.Namespace) -> int:
    try:
        bot_command(args.bot, "127.0.0.1", 0)
    except ValueError as error:
        raise UsageError(str(error)) from None
    shown = args.bot if args.bot.split()[0] in BUILTIN else shlex.join(shlex.split(args.bot))
    print(f"checking {shown} (move time {args.move_time:g} s)", flush=True)

    def report(outcome: Outcome) -> None:
        print("\n".join(format_outcome(outcome)), flush=True)

    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="vvw-check-") as folder:
        log_dir = Path(args.logs) if args.logs else Path(folder)
        checker = Checker(
            args.bot,
            args.move_time,
            args.steps,
            args.long_plies,
            log_dir,
            report,
            args.connect_time,
        )

        async def checking() -> None:
            try:
                outcomes.extend(await checker.run())
            except OSError as error:  # the bot cannot be started
                raise UsageError(system_refusal(error)) from None

        signum = signals.run(checking)
    if signum is not None:
        raise Stopped(signum)
    print(summary(outcomes))
    return 1 if any(outcome.status is Status.FAILED for outcome in outcomes) else 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check-bot",
        help="check a bot's protocol compliance, step by step",
        description=(
            "Start a bot against a scripted server and check it step by step: "
            + "; ".join(f"{step.number}. {step.text}" for step in STEPS)
            + ". Exit status 1 if a step failed."
        ),
    )
    parser.add_argument(
        "bot", help='a built-in name or a command, e.g. "python mybot.py {host} {port}"'
    )
    parser.add_argument(
        "--move-time",
        type=positive_float,
        default=2.0,
        metavar="S",
        help="seconds the bot has for each MOV (default 2, the course's)",
    )
    parser.add_argument(
        "--steps",
        type=parse_steps,
        default=frozenset(TEXTS),
        help="which steps to run, e.g. 1-3,9 (default all; a step's session runs the steps"
        " before it too)",
    )
    parser.add_argument(
        "--long-plies",
        type=positive_int,
        default=100,
        metavar="N",
        help="plies of the long game of step 8 (default 100)",
    )
    parser.add_argument(
        "--connect-time",
        type=positive_float,
        default=10.0,
        metavar="S",
        help="seconds the bot has to connect and send NME (default 10)",
    )
    parser.add_argument(
        "--logs", default=None, metavar="DIR", help="keep the bot's output files in DIR"
    )
    parser.epilog = 'example: vvw check-bot "python mybot.py {host} {port}" --steps 1-5'
    parser.set_defaults(func=run)
