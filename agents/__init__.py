"""Bots that play Vampires vs Werewolves as ordinary protocol clients."""
