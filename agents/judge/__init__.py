"""The judge: what a position is worth, as an expected score, below every tool that asks.

``features`` (what a strong player looks at, as numbers), ``learned`` (winning chances
learned from games, and the shipped model's file), ``curve`` (a search value or a solved
endgame's chance as an expected score), ``leaves`` (the judge at a search's horizon),
``logistic`` (the one logistic function). The search bots use it (``expectiminimax
--leaf learned``), ``vvw analyse`` configures a search with it, the training makes it.
"""
