"""A game cut by a killed server is recorded, when the server starts again, aborted with
the transcript its game left and the plies in it."""

from pathlib import Path

from vvw.ladder.recovery import recover_interrupted
from vvw.ladder.snapshot import GameStatus

GAME = Path(__file__).resolve().parents[3] / "docs" / "games"
GAME /= "testmap-5x9-expectiminimax-vs-zcsn.jsonl"


def test_a_game_cut_by_a_killed_server_keeps_its_transcript_and_plies(store):
    pairing = store.new_pairing("alphabeta", "greedy")
    cut = store.begin_game(pairing.id, 1)
    lines = GAME.read_bytes().splitlines(keepends=True)
    plies = [i for i, line in enumerate(lines) if b'"type": "ply"' in line]
    written = b"".join(lines[: plies[9] + 1]) + lines[plies[9] + 1][:20]  # killed mid-line
    store.transcripts.mkdir(parents=True, exist_ok=True)
    name = f"20261128-010000-game{cut.id:03d}-alphabeta-greedy.jsonl"
    (store.transcripts / name).write_bytes(written)
    other = store.begin_game(store.new_pairing("random", "greedy").id, 1)  # no transcript yet
    assert recover_interrupted(store) == [cut.id, other.id]
    game = store.game(cut.id)
    assert (game.status, game.transcript, game.plies) == (GameStatus.ABORTED, name, 10)
    assert store.game(other.id).transcript is None and store.game(other.id).plies == 0
