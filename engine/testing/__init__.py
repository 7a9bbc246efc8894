"""Tools to test a reimplementation of the rules against this engine.

- :mod:`engine.testing.oracles`: the exact answers (an encounter's outcome distribution,
  a ply's distribution of next states, the rule a ply breaks first). No extra dependency.
- :mod:`engine.testing.plies`: legal plies, and plies built to break a given rule, drawn
  with a ``random.Random``. No extra dependency.
- :mod:`engine.testing.strategies`: hypothesis strategies for maps, game states, legal
  and arbitrary plies, and encounters. Needs ``pip install 'vvw[testing]'``.

docs/testing-your-rules.md shows them at work.
"""
