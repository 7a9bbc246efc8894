"""Seeds that follow from one: the same run seed gives the same battles and bots' seeds."""

import hashlib
import random


def derive(seed: int, *parts: object) -> int:
    """A seed in 0..2³¹-1 for ``parts`` (say ``"battle", 3``) under the run's ``seed``."""
    text = repr((seed, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big") & 0x7FFF_FFFF


def fresh_seed() -> int:
    """A run seed for a run not given one (printed and recorded, so it can be replayed)."""
    return random.SystemRandom().randrange(1, 1_000_000_000)
