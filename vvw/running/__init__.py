"""Games run: who plays (participants, bots, seeds), what is played (schedules), one
runner that plays a game and tells its observers, and a bot's compliance check."""
