"""A simulated class on a ladder: 30 teams' bots of known strength, 50 viewers, 10 minutes.

    python -m benchmarks.ladder [--minutes 10] [--teams 30] [--viewers 50]
        [--concurrency 6] [--move-time 0.5] [--ply-limit 100] [--keep DIR]

Makes a ladder (``vvw ladder new``: thetrap and testmap2 in turn, the default built-in
bots), adds ``--teams`` teams and starts, each a process of its own as in a class:

- the server, ``vvw ladder serve`` on loopback;
- one ``vvw ladder join`` per team, whose bot is a built-in bot of known strength, a
  third each of ``random``, ``greedy`` and ``alphabeta`` (weakest to strongest); the
  joins and their bots run at a lower priority (nice 10), as in a class they run on the
  teams' laptops rather than beside the server;
- in this process, ``--viewers`` browsers that each ask for a page every second (the
  leaderboard, the games, a team's page in turn) and time the answer.

After ``--minutes`` it stops them all (Ctrl-C's way, the server first: its games in
progress are aborted, not rated) and prints: the games played per
minute and how they ended; the server's own CPU time (its built-in bots' apart) and its
peak memory; the pages' latency (median, 99th percentile); the server's turnaround (from a
MOV received to the next UPD sent: a game slowed by the server shows there) and the turns
the bots let pass; and how close the ratings came to the bots' known order:
the share of pairs of teams of different strength that the ratings put in the right
order, and each kind's mean rating. The machine's load average is printed before and
after: everything runs on this machine, the bots included.
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import trio

from engine import Rules
from protocol.records import Command, Direction, Frame, Record, Skip
from server.settings import Settings
from vvw.ladder.queries import LadderReader
from vvw.ladder.settings import LadderMap, LadderSettings
from vvw.ladder.snapshot import Snapshot
from vvw.ladder.store import LadderStore
from vvw.ladder.tables import ratings_of
from vvw.mapchoice import resolve_maps
from vvw.transcripts import read_transcript

KINDS = ("random", "greedy", "alphabeta")
"""The teams' bots, weakest first."""
PAGES = ("/", "/games", "/teams/{team}")
CLASS_NICENESS = 10
"""The simulated class (its joins and bots) runs at this lower priority: in a class the
bots think on the teams' laptops, not on the server's machine."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _ladder(folder: Path, teams: int, move_time: float, ply_limit: int) -> dict[str, str]:
    """A new ladder in ``folder`` with ``teams`` teams; their tokens by name."""
    maps = tuple(LadderMap.of(m.label, m.game_map) for m in resolve_maps(["thetrap", "testmap2"]))
    game = Settings(rules=Rules(max_plies=ply_limit), move_time=move_time)
    names = [f"{KINDS[number % len(KINDS)]}-{number:02d}" for number in range(teams)]
    with LadderStore.create(folder / "ladder.db", LadderSettings(maps, game, seed=1)) as store:
        return {name: store.add_team(name) for name in names}


def _spec(team: str, move_time: float) -> str:
    kind = team.rsplit("-", 1)[0]
    budget = round(move_time * 0.8, 3)
    return f"{kind} --time-budget {budget}" if kind == "alphabeta" else kind


def _own_cpu(pid: int) -> float:
    """Seconds of CPU ``pid`` has used itself (its children's apart)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _peak_memory(pid: int) -> int:
    """``pid``'s peak resident memory, in kB (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


async def _viewers(port: int, count: int, teams: list[str], seconds: float) -> list[float]:
    """``count`` viewers asking for a page every second for ``seconds``; each answer's
    latency in seconds (a failed request counts as ``inf``)."""
    latencies: list[float] = []

    async def viewer(number: int) -> None:
        await trio.sleep(number / count)  # spread over the second
        asked = 0
        while True:
            page = PAGES[(number + asked) % len(PAGES)].format(team=teams[number % len(teams)])
            asked += 1
            start = trio.current_time()
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                async with stream:
                    await stream.send_all(f"GET {page} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                    while await stream.receive_some():
                        pass
                latencies.append(trio.current_time() - start)
            except OSError:
                latencies.append(float("inf"))
            await trio.sleep(max(0.0, 1.0 - (trio.current_time() - start)))

    with trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            for number in range(count):
                nursery.start_soon(viewer, number)
    return latencies


def _turnarounds(records: list[Record]) -> list[float]:
    """Seconds from each MOV the server received to the next UPD it sent (a game's pace as
    the server sets it: a slow server shows here, a slow bot does not)."""
    times: list[float] = []
    received: float | None = None
    for record in records:
        if not isinstance(record, Frame):
            continue
        if record.command is Command.MOV and record.direction is Direction.IN:
            received = record.t
        elif record.command is Command.UPD and received is not None:
            times.append(record.t - received)
            received = None
    return times


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _order_agreement(elo: dict[str, float], teams: list[str]) -> float:
    """The share of pairs of teams of different kinds whose ratings are in the kinds' order."""
    strength = {team: KINDS.index(team.rsplit("-", 1)[0]) for team in teams}
    pairs = right = 0
    for a in teams:
        for b in teams:
            if strength[a] < strength[b]:
                pairs += 1
                right += elo[a] < elo[b]
    return right / pairs if pairs else 0.0


def _report(
    snapshot: Snapshot,
    transcripts: Path,
    teams: list[str],
    elapsed: float,
    cpu: float,
    memory: int,
    latencies: list[float],
    load_after: float,
) -> None:
    finished = [game for game in snapshot.games if game.rated]
    aborted = len(snapshot.games) - len(finished)
    endings = Counter(game.termination.value for game in finished if game.termination)
    skipped = plies = 0
    turnarounds: list[float] = []
    for game in finished:
        if game.transcript is not None:
            records = read_transcript(transcripts / game.transcript)
            skipped += sum(isinstance(record, Skip) for record in records)
            turnarounds += _turnarounds(records)
            plies += game.plies
    ratings = ratings_of(snapshot)
    rated = [team for team in teams if team in ratings]  # those that finished a game
    elo = {team: ratings[team].elo for team in rated}
    answered = [latency for latency in latencies if latency != float("inf")]
    minutes = elapsed / 60
    how = ", ".join(f"{name} {count}" for name, count in sorted(endings.items()))
    print(
        f"games: {len(finished)} finished in {minutes:.1f} min, {len(finished) / minutes:.1f}"
        f" per minute ({aborted} aborted at the stop); how they ended: {how}"
    )
    print(
        f"server: {cpu:.1f} s of CPU in {elapsed:.0f} s ({100 * cpu / elapsed:.1f} % of one"
        f" core), peak memory {memory / 1024:.1f} MB"
    )
    print(
        f"pages: {len(answered)} answered, {len(latencies) - len(answered)} failed; latency"
        f" median {1000 * statistics.median(answered):.1f} ms, p99"
        f" {1000 * _percentile(answered, 0.99):.1f} ms, max {1000 * max(answered):.1f} ms"
    )
    print(
        f"the server's turnaround (a MOV in, the next UPD out): median"
        f" {1000 * statistics.median(turnarounds):.1f} ms, p99"
        f" {1000 * _percentile(turnarounds, 0.99):.1f} ms, max {1000 * max(turnarounds):.1f} ms"
        f" over {len(turnarounds)} plies"
    )
    print(f"turns the bots let pass (no MOV in time): {skipped} of {plies} plies")
    means = ", ".join(
        f"{kind} {statistics.mean(elo[t] for t in rated if t.startswith(kind + '-')):.0f}"
        for kind in KINDS
        if any(t.startswith(kind + "-") for t in rated)
    )
    builtins = ", ".join(f"{name} {ratings[name].elo:.0f}" for name in KINDS if name in ratings)
    print(
        f"ratings ({len(rated)} teams with a game): {100 * _order_agreement(elo, rated):.1f} %"
        f" of the pairs of teams of different kinds in the right order; mean rating {means};"
        f" built-in bots {builtins}"
    )
    print(f"load average {load_after:.2f} at the end")


def _start(
    argv: list[str], folder: Path, name: str, env: dict[str, str] | None = None, nice: int = 0
) -> "subprocess.Popen[bytes]":
    out = (folder / f"{name}.out").open("wb")
    err = (folder / f"{name}.err").open("wb")
    lower = (lambda: os.nice(nice)) if nice else None
    return subprocess.Popen(argv, cwd=folder, stdout=out, stderr=err, env=env, preexec_fn=lower)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--teams", type=int, default=30)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=6)
    parser.add_argument("--move-time", type=float, default=0.5)
    parser.add_argument("--ply-limit", type=int, default=100)
    parser.add_argument("--keep", type=Path, default=None, help="keep the ladder's files here")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="vvw-ladder-bench-"))
    tokens = _ladder(folder, args.teams, args.move_time, args.ply_limit)
    teams = list(tokens)
    vvw = [sys.executable, "-P", "-m", "vvw"]
    print(
        f"{args.teams} teams ({', '.join(KINDS)} in turn), {args.viewers} viewers,"
        f" {args.minutes:g} min, concurrency {args.concurrency}, move time"
        f" {args.move_time:g} s, {args.ply_limit} plies; {os.cpu_count()} cores, load average"
        f" {os.getloadavg()[0]:.2f} before",
        flush=True,
    )
    server = _start(
        [
            *vvw,
            "ladder",
            "serve",
            "ladder.db",
            "--listen",
            "127.0.0.1:0",
            "--web",
            "127.0.0.1:0",
            "--concurrency",
            str(args.concurrency),
        ],
        folder,
        "serve",
    )
    joins = []
    try:
        while "pages on http://" not in (folder / "serve.err").read_text():
            if server.poll() is not None:
                raise SystemExit((folder / "serve.err").read_text())
            time.sleep(0.1)
        said = (folder / "serve.err").read_text()
        port = said.split("bots connect to 127.0.0.1:")[1].split()[0]
        web = int(said.split("pages on http://127.0.0.1:")[1].split("/")[0])
        for team in teams:
            env = {**os.environ, "VVW_LADDER_TOKEN": tokens[team]}
            argv = [
                *vvw,
                "ladder",
                "join",
                f"127.0.0.1:{port}",
                "--team",
                team,
                _spec(team, args.move_time),
            ]
            joins.append(_start(argv, folder, f"join-{team}", env, nice=CLASS_NICENESS))
        began = time.monotonic()
        latencies = trio.run(_viewers, web, args.viewers, teams, args.minutes * 60)
        elapsed = time.monotonic() - began
        cpu, memory = _own_cpu(server.pid), _peak_memory(server.pid)
        load_after = os.getloadavg()[0]
    finally:  # the server first: its games in progress are then aborted, not lost
        server.send_signal(signal.SIGINT)
        server.wait(60)
        for process in joins:
            process.send_signal(signal.SIGINT)
        for process in joins:
            process.wait(60)

    with LadderReader.open(folder / "ladder.db") as reader:
        snapshot = reader.snapshot()
        transcripts = reader.transcripts
    _report(snapshot, transcripts, teams, elapsed, cpu, memory, latencies, load_after)
    if args.keep is not None:
        shutil.copytree(folder, args.keep, dirs_exist_ok=True)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
