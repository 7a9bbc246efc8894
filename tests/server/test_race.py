"""``wait_unless``: what is waited for, unless something else happens first."""

import trio

from server.race import wait_unless


async def _after(seconds: float, value: str) -> str:
    await trio.sleep(seconds)
    return value


async def test_what_is_waited_for_comes_back_and_the_others_are_cancelled(autojump_clock):
    interrupted = trio.Event()

    async def interrupt() -> None:
        await trio.sleep(5)
        interrupted.set()

    assert await wait_unless(lambda: _after(1, "seated"), interrupt) == "seated"
    await trio.sleep(10)
    assert not interrupted.is_set()  # cancelled once the wanted came
    assert trio.current_time() == 11


async def test_none_when_another_returns_first_and_the_wanted_is_cancelled(autojump_clock):
    late = trio.Event()

    async def wanted() -> str:
        await trio.sleep(5)
        late.set()
        return "seated"

    assert await wait_unless(wanted, lambda: _after(2, "exited"), lambda: _after(3, "x")) is None
    assert trio.current_time() == 2
    await trio.sleep(10)
    assert not late.is_set()
