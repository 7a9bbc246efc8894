"""``vvw check-bot "python mybot.py {host} {port}"``: a compliance check of a bot, step by step.

A scripted server starts the bot (a command, with ``{host}`` and ``{port}`` replaced, or a
built-in name), walks it through numbered steps, and prints Passed or Failed for each; a
failure shows the offending bytes, what was expected, and the bot's last output. The steps
run in four sessions, each a fresh start of the bot:

- A (vampires, small map): 1 NME, 2 greeting, 3 first UPD, 4 mid-game UPDs (the opponent
  walks its whole group every ply, so each UPD lists a cell that is now empty), 5 END, BYE
  and exit;
- B: 6 the second seat (werewolves: a first UPD that is not empty), 7 a second game on the
  same connection (after END, a new SET… with no BYE in between);
- C: 8 a long game on a large map, every reply in time;
- D: 9 the server closing without END: does the bot exit, or spin at 100 % CPU?

Exit status 0 when every step run passed, 1 otherwise (2: bad usage).
"""

import argparse
import contextlib
import os
import random
import shlex
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import attrs
import trio

from engine import GameState, Kind, Move, apply_ply, end_of_game, find_violation
from engine.drawing import draw_board
from engine.mapfile import GameMap
from engine.mapgen import generate_map
from engine.movegen import random_ply
from protocol.cells import map_cells, ply_cells, update_cells
from protocol.codec import (
    FROM_BOT,
    Bye,
    Decoder,
    End,
    Hme,
    Hum,
    Map,
    Message,
    Mov,
    Nme,
    ProtocolError,
    Set,
    Upd,
    describe,
    encode,
)
from server.processes import BotProcess, start_bot, stop_bot
from vvw.argtypes import positive_float, positive_int
from vvw.bots import BUILTIN, bot_command

STEPS = {
    1: "connects and sends a well-formed NME",
    2: "reads SET, HUM, HME and MAP without a word",
    3: "answers the first, empty UPD with a legal MOV in time",
    4: "answers mid-game UPDs (cells emptied included) with legal MOVs in time",
    5: "after END then BYE, exits",
    6: "plays the second seat (werewolves: its first UPD is not empty)",
    7: "plays a second game on the same connection (SET again after END)",
    8: "plays a long game on a large map, every MOV in time",
    9: "exits when the server closes without END (no spinning)",
}
SESSIONS = ((1, 2, 3, 4, 5), (6, 7), (8,), (9,))
SMALL_MAP = (10, 8, 3, 1)  # width, height, homes, seed
LARGE_MAP = (30, 30, 12, 2)
QUIET_TIME = 0.3
"""Seconds the bot is watched for stray bytes after the greeting."""
EXIT_GRACE = 2.0
"""Seconds a bot has to exit after the connection ends."""
MID_GAME_TURNS = 6
LATE_WATCH = 2.0
"""Seconds a MOV that did not come in time is still waited for, to say how late it was."""


class StepFailed(Exception):
    """A step failed: what was expected, what came instead (text and bytes)."""

    def __init__(self, expected: str, got: str, data: bytes = b"") -> None:
        super().__init__(got)
        self.expected = expected
        self.got = got
        self.data = data


@attrs.define
class Outcome:
    number: int
    passed: bool
    detail: str = ""
    failure: StepFailed | None = None
    output: str = ""


class Wire:
    """The scripted server's end of the connection: messages from the bot, with their bytes."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.decoder = Decoder(FROM_BOT)
        self.pending: list[tuple[Message, bytes]] = []
        self.closed = False
        self.recent = b""
        """The last bytes received (for failure reports)."""

    async def send(self, *messages: Message) -> None:
        try:
            await self.stream.send_all(b"".join(encode(m) for m in messages))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise StepFailed("the connection open", "the bot closed its connection") from None

    async def receive(self, within: float, expected: str) -> tuple[Message, bytes] | None:
        """The next message within ``within`` seconds, or ``None``; StepFailed on garbage or
        a closed connection."""
        with trio.move_on_after(within):
            while not self.pending:
                if self.closed:
                    raise StepFailed(expected, "the bot closed its connection")
                try:
                    data = await self.stream.receive_some()
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    data = b""
                if not data:
                    self.closed = True
                    continue
                self.recent = (self.recent + data)[-64:]
                try:
                    messages = self.decoder.feed(data)
                except ProtocolError as error:
                    got = f"bytes that are no message: {error}"
                    raise StepFailed(expected, got, data) from None
                self.pending.extend((m, encode(m)) for m in messages)
            return self.pending.pop(0)
        return None

    def drop_pending(self) -> None:
        """Forget what arrived unasked (a server discards it before the next UPD)."""
        self.pending.clear()


def _walk(state: GameState, rng: random.Random) -> tuple[Move, ...]:
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


class Game:
    """One scripted game with the bot on ``species``' side; the opponent walks."""

    def __init__(self, wire: Wire, game_map: GameMap, species: Kind, move_time: float) -> None:
        self.wire = wire
        self.map = game_map
        self.species = species
        self.move_time = move_time
        self.state = game_map.initial_state()
        self.rng = random.Random(7)
        self.last: dict[Kind, list[tuple[int, int]]] = {Kind.VAMPIRES: [], Kind.WEREWOLVES: []}
        self.over = False
        self.emptied = 0
        """UPDs sent that listed a cell now empty."""
        self.slowest = 0.0

    async def greet(self) -> None:
        home = self.map.start(self.species == Kind.VAMPIRES)
        await self.wire.send(
            Set(self.map.rows, self.map.cols),
            Hum(tuple((x, y) for x, y, _ in self.map.humans)),
            Hme(home[0], home[1]),
        )
        await self.wire.send(Map(map_cells(self.state)))

    def _play(self, ply: tuple[Move, ...]) -> None:
        mover = self.state.to_move
        self.state = apply_ply(self.state, ply, self.rng).state
        self.last[mover] = ply_cells(ply)
        self.over = end_of_game(self.state) is not None

    async def opponent_moves(self) -> None:
        if not self.over and self.state.to_move != self.species:
            self._play(_walk(self.state, self.rng))

    async def _late(self, sent: float) -> str:
        """What a bot that did not answer in time did: a late MOV, or nothing at all."""
        got = f"no MOV in {self.move_time:g} s"
        with contextlib.suppress(StepFailed):
            late = await self.wire.receive(max(2 * self.move_time, LATE_WATCH), "")
            if late is not None:
                after = time.monotonic() - sent
                return f"{got}: `{describe(late[0])}` came {after:.3f} s after the UPD"
        return got

    async def turn(self) -> None:
        """One UPD to the bot and its MOV, judged; then the opponent's ply."""
        await self.opponent_moves()
        if self.over:
            return
        cells = update_cells(self.state, (self.last[Kind.VAMPIRES], self.last[Kind.WEREWOLVES]))
        if any(h == v == w == 0 for _, _, h, v, w in cells):
            self.emptied += 1
        self.wire.drop_pending()
        upd = Upd(cells)
        await self.wire.send(upd)
        sent = time.monotonic()
        expected = f"a MOV within {self.move_time:g} s of `{describe(upd)[:120]}`"
        while True:
            received = await self.wire.receive(self.move_time, expected)
            if received is None:
                raise StepFailed(expected, await self._late(sent))
            message, raw = received
            if isinstance(message, Mov):
                break
            if not isinstance(message, Nme):
                raise StepFailed(expected, f"`{describe(message)}`", raw)
        self.slowest = max(self.slowest, time.monotonic() - sent)
        ply = tuple(Move(*move) for move in message.moves)
        violation = find_violation(self.state, ply)
        if violation is not None:
            state = self.state
            if state.cols <= 20:
                board_cells = [
                    (pos % state.cols, pos // state.cols, Kind(kind), n)
                    for pos, kind, n in state.cells
                ]
                board = "\n".join(draw_board(state.rows, state.cols, board_cells, indent=" " * 8))
            else:
                board = "        " + describe(Map(map_cells(self.state)))
            raise StepFailed(
                f"a legal ply for the {self.species.name.lower()} on the board it was told of:\n"
                f"{board}",
                f"`{describe(message)}`: {violation}",
                raw,
            )
        self._play(ply)
        await self.opponent_moves()


@attrs.define
class Session:
    """One start of the bot: its process, its connection, and the log folder."""

    log_dir: Path
    label: str
    connect_time: float
    bot: BotProcess | None = None
    wire: Wire | None = None
    listener: trio.SocketListener | None = None

    def output(self, lines: int = 8) -> str:
        """The bot's last lines of standard output and error."""
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
                texts.append(f"{name}:\n" + "\n".join(f"  | {line}" for line in tail))
        return "\n".join(texts) or "(nothing on stdout or stderr)"

    async def connect(self, port_command: Callable[[int], list[str]]) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.listener = listeners[0]
        port = self.listener.socket.getsockname()[1]
        self.bot = await start_bot(self.label, port_command(port), self.log_dir)
        stream = None
        with trio.move_on_after(self.connect_time):
            async with trio.open_nursery() as nursery:

                async def exited() -> None:
                    assert self.bot is not None
                    await self.bot.process.wait()
                    nursery.cancel_scope.cancel()

                nursery.start_soon(exited)
                stream = await self.listener.accept()
                nursery.cancel_scope.cancel()
        if stream is None:
            code = self.bot.process.returncode
            got = (
                f"the bot exited with code {code} without connecting"
                if code is not None
                else f"no connection in {self.connect_time:g} s"
            )
            raise StepFailed(f"a connection to 127.0.0.1:{port}", got)
        self.wire = Wire(stream)

    async def exits(self, grace: float = EXIT_GRACE) -> bool:
        assert self.bot is not None
        with trio.move_on_after(grace):
            await self.bot.process.wait()
            return True
        return False

    async def close(self) -> None:
        if self.wire is not None:
            with contextlib.suppress(Exception):
                await self.wire.stream.aclose()
        if self.listener is not None:
            await self.listener.aclose()
        if self.bot is not None:
            await stop_bot(self.bot)


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

    def _command(self, port: int) -> list[str]:
        return bot_command(self.spec, "127.0.0.1", port, move_time=self.move_time)

    async def run(self) -> list[Outcome]:
        for number, session_steps in enumerate(SESSIONS):
            wanted = [step for step in session_steps if step in self.steps]
            if not wanted:
                continue
            last = max(wanted)
            session = Session(
                self.log_dir / f"session{number + 1}", f"bot{number + 1}", self.connect_time
            )
            try:
                await self._session(session, [s for s in session_steps if s <= last])
            finally:
                await session.close()
        return self.outcomes

    async def _session(self, session: Session, steps: list[int]) -> None:
        context: dict[str, object] = {}
        for step in steps:
            try:
                detail = await getattr(self, f"_step{step}")(session, context)
            except StepFailed as failure:
                if session.bot is not None:
                    with trio.move_on_after(0.2):  # a crash: its exit code says more
                        await session.bot.process.wait()
                    code = session.bot.process.returncode
                    if code is not None and not session.bot.signalled:
                        failure.got += f" (the bot exited with code {code})"
                self._done(Outcome(step, False, failure=failure, output=session.output()))
                for later in steps[steps.index(step) + 1 :]:
                    self._done(Outcome(later, False, f"not run: step {step} failed"))
                return
            self._done(Outcome(step, True, detail or ""))

    def _done(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        self.report(outcome)

    # --- session A --------------------------------------------------------------------------

    async def _hello(self, session: Session) -> str:
        await session.connect(self._command)
        assert session.wire is not None
        expected = f"NME within {self.connect_time:g} s of connecting"
        received = await session.wire.receive(self.connect_time, expected)
        if received is None:
            raise StepFailed(expected, f"nothing in {self.connect_time:g} s")
        message, raw = received
        if not isinstance(message, Nme):
            raise StepFailed(expected, f"`{describe(message)}` first", raw)
        return f"`{describe(message)}`"

    async def _step1(self, session: Session, context: dict) -> str:
        return await self._hello(session)

    async def _step2(self, session: Session, context: dict) -> str:
        assert session.wire is not None
        game = Game(session.wire, generate_map(*SMALL_MAP), Kind.VAMPIRES, self.move_time)
        context["game"] = game
        await game.greet()
        received = await session.wire.receive(QUIET_TIME, "nothing before the first UPD")
        if received is not None:
            message, raw = received
            raise StepFailed("nothing before the first UPD", f"`{describe(message)}`", raw)
        return ""

    async def _step3(self, session: Session, context: dict) -> str:
        game: Game = context["game"]
        await game.turn()
        return f"in {game.slowest:.3f} s"

    async def _step4(self, session: Session, context: dict) -> str:
        game: Game = context["game"]
        turns = 0
        while turns < MID_GAME_TURNS and not game.over:
            await game.turn()
            turns += 1
        if game.emptied == 0:
            raise StepFailed("a UPD listing an emptied cell", "the game ended before one")
        emptied = f"{game.emptied} listing emptied cells"
        return f"{turns} UPDs, {emptied}; slowest MOV {game.slowest:.3f} s"

    async def _goodbye_exits(self, session: Session, with_bye: bool = True) -> None:
        assert session.wire is not None and session.bot is not None
        await session.wire.send(End(), *([Bye()] if with_bye else []))
        await session.wire.stream.aclose()
        if not await session.exits():
            raise StepFailed(
                f"the bot exits within {EXIT_GRACE:g} s of END, BYE and the connection closing",
                await self._still_running(session),
            )

    async def _still_running(self, session: Session) -> str:
        assert session.bot is not None
        share = await _cpu_share(session.bot.process.pid)
        if share is None:
            return f"still running after {EXIT_GRACE:g} s"
        state = "busy (spinning?)" if share > 0.3 else "idle"
        return f"still running after {EXIT_GRACE:g} s, {state} at {share:.0%} CPU"

    async def _step5(self, session: Session, context: dict) -> str:
        await self._goodbye_exits(session)
        assert session.bot is not None
        return f"exit code {session.bot.process.returncode}"

    # --- session B --------------------------------------------------------------------------

    async def _step6(self, session: Session, context: dict) -> str:
        await self._hello(session)
        assert session.wire is not None
        game = Game(session.wire, generate_map(*SMALL_MAP), Kind.WEREWOLVES, self.move_time)
        await game.greet()
        for _ in range(3):
            await game.turn()
        return f"3 UPDs answered; slowest MOV {game.slowest:.3f} s"

    async def _step7(self, session: Session, context: dict) -> str:
        assert session.wire is not None
        await session.wire.send(End())
        await trio.sleep(QUIET_TIME)  # what a bot sends after END (an NME…) is ignored
        session.wire.drop_pending()
        game = Game(session.wire, generate_map(*SMALL_MAP), Kind.VAMPIRES, self.move_time)
        await game.greet()
        for _ in range(3):
            await game.turn()
        await session.wire.send(End(), Bye())
        return f"3 UPDs answered; slowest MOV {game.slowest:.3f} s"

    # --- session C --------------------------------------------------------------------------

    async def _step8(self, session: Session, context: dict) -> str:
        await self._hello(session)
        assert session.wire is not None
        game = Game(session.wire, generate_map(*LARGE_MAP), Kind.VAMPIRES, self.move_time)
        await game.greet()
        while game.state.ply < self.long_plies and not game.over:
            await game.turn()
        await session.wire.send(End(), Bye())
        rows, cols = game.map.rows, game.map.cols
        return f"{game.state.ply} plies on {rows} × {cols}; slowest MOV {game.slowest:.3f} s"

    # --- session D --------------------------------------------------------------------------

    async def _step9(self, session: Session, context: dict) -> str:
        await self._hello(session)
        assert session.wire is not None
        game = Game(session.wire, generate_map(*SMALL_MAP), Kind.VAMPIRES, self.move_time)
        await game.greet()
        await game.turn()
        await session.wire.stream.aclose()
        if not await session.exits():
            raise StepFailed(
                f"the bot exits within {EXIT_GRACE:g} s of the server closing mid-game",
                await self._still_running(session),
            )
        return ""


def parse_steps(text: str) -> frozenset[int]:
    """An argparse type: ``1,3-5`` → {1, 3, 4, 5}."""
    steps: set[int] = set()
    try:
        for part in text.split(","):
            first, _, last = part.strip().partition("-")
            steps.update(range(int(first), int(last or first) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of steps like 1,3-5") from None
    unknown = steps - STEPS.keys()
    if unknown or not steps:
        raise argparse.ArgumentTypeError(f"steps are 1..{len(STEPS)}, got {text!r}")
    return frozenset(steps)


def format_outcome(outcome: Outcome) -> list[str]:
    title = f"{outcome.number}. {STEPS[outcome.number]}"
    if outcome.passed:
        return [f"{title}: Passed" + (f" ({outcome.detail})" if outcome.detail else "")]
    if outcome.failure is None:
        return [f"{title}: Failed ({outcome.detail})"]
    failure = outcome.failure
    lines = [f"{title}: Failed", f"     expected: {failure.expected}", f"     got: {failure.got}"]
    if failure.data:
        lines.append(f"     bytes: {failure.data[:64].hex(' ')}")
    if outcome.output:
        lines.append("     the bot's last output:")
        lines += ["       " + line for line in outcome.output.splitlines()]
    return lines


def run(args: argparse.Namespace) -> int:
    try:
        bot_command(args.bot, "127.0.0.1", 0)
    except ValueError as error:
        print(f"vvw check-bot: {error}", file=sys.stderr)
        return 2
    shown = args.bot if args.bot.split()[0] in BUILTIN else shlex.join(shlex.split(args.bot))
    print(f"checking {shown} (move time {args.move_time:g} s)", flush=True)

    def report(outcome: Outcome) -> None:
        print("\n".join(format_outcome(outcome)), flush=True)

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
        try:
            outcomes = trio.run(checker.run)
        except OSError as error:
            print(f"vvw check-bot: {error}", file=sys.stderr)
            return 2
    failed = sum(not outcome.passed for outcome in outcomes)
    print(f"{len(outcomes) - failed} passed, {failed} failed")
    return 1 if failed else 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check-bot",
        help="check a bot's protocol compliance, step by step",
        description=(
            "Start a bot against a scripted server and check it step by step: "
            + "; ".join(f"{n}. {text}" for n, text in STEPS.items())
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
        default=frozenset(STEPS),
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
