"""One game played here: a person at the board is a participant like a bot process, its agent
played in this process by the bots' own client (here a built-in bot stands for the page)."""

import trio

from agents.registry import make_agent
from engine import Kind
from server.settings import Settings
from tests.helpers.maps import load
from vvw.running.local_game import Person, play_one
from vvw.running.participants import Participant
from vvw.transcripts import read_transcript


async def test_a_person_plays_a_bot_process_through_the_one_runner(tmp_path):
    person = Person(make_agent("greedy", seed=1), time_budget=1.0)
    bot = Participant("rand", "random")
    with trio.fail_after(60):
        played = await play_one(
            load("testmap"),
            Settings(move_time=2.0),
            (bot, person),
            tmp_path / "game",
            seeds=(5, None),
            transcript_dir=tmp_path,
            keep_transcript=True,
        )
    result = played.result
    assert played.began and result.plies > 0
    assert (result.vampires.name, result.werewolves.name) == ("rand", person.name)
    assert Kind.WEREWOLVES not in played.outputs  # the person has no process
    assert played.transcript is not None
    assert read_transcript(played.transcript)  # the game kept as any other
