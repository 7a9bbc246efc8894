"""The match server: the referee over trio streams, serving, bot processes, transcripts."""
