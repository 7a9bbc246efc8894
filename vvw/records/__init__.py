"""What a run leaves: one finished-game record (the results file, ``match --json``, the
ladder), one tally, the standings and their statistics."""
