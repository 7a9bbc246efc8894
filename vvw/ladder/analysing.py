"""Each finished ladder game analysed in the background (``vvw ladder serve --analyse``).

A game's transcript is given to ``vvw analyse`` (:mod:`vvw.commands.analyse`) as its game
ends, one game at a time, in a process of its own at a lower priority (nice
:data:`NICENESS`, one search process), so that the games being played keep the machine
first. The analysis file goes beside the transcript (``GAME.analysis.json``), where the
ladder's replay page finds it. When games end faster than they are analysed, the queue
keeps the :data:`BACKLOG` latest and lets the older ones go unanalysed.
"""

import logging
import os
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path

import attrs
import trio

from vvw.analysis.files import analysis_path

log = logging.getLogger(__name__)

NICENESS = 10
BACKLOG = 20
"""Finished games waiting for their analysis at most (the older ones are let go)."""
DEPTH = 4
"""The depth the ladder analyses at: two plies shallower than ``vvw analyse``'s default,
so a busy ladder keeps up with its games (``--depth`` of ``vvw analyse`` gives more)."""


@attrs.frozen
class Analysed:
    """Game ``number``'s analysis was written to ``path``."""

    number: int
    path: Path


class Analyses:
    """The games waiting for their analysis, and the task that analyses them in turn."""

    def __init__(self, tell: Callable[[Analysed], None], depth: int = DEPTH) -> None:
        self._tell = tell
        self.depth = depth
        self._waiting: deque[tuple[int, Path]] = deque(maxlen=BACKLOG)
        self._added = trio.Event()

    def add(self, number: int, transcript: Path) -> None:
        """Game ``number`` ended and its transcript is ``transcript``: analyse it."""
        if len(self._waiting) == BACKLOG:
            log.info("game %d left unanalysed: %d newer games wait", self._waiting[0][0], BACKLOG)
        self._waiting.append((number, transcript))
        self._added.set()

    async def run(self) -> None:
        """Analyse the games as they are added, one at a time, until cancelled."""
        while True:
            await self._added.wait()
            self._added = trio.Event()
            while self._waiting:
                number, transcript = self._waiting.popleft()
                if await self._analyse(transcript):
                    self._tell(Analysed(number, analysis_path(transcript)))

    async def _analyse(self, transcript: Path) -> bool:
        argv = [sys.executable, "-P", "-m", "vvw", "analyse", str(transcript), "--jobs", "1"]
        argv += ["--depth", str(self.depth)]
        done = await trio.run_process(
            argv,
            stdout=subprocess.DEVNULL,
            capture_stderr=True,
            check=False,
            preexec_fn=lambda: os.nice(NICENESS),
        )
        if done.returncode != 0:
            why = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["?"]
            log.warning("vvw analyse %s failed: %s", transcript.name, why[0])
            return False
        return True
