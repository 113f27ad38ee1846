"""Large pictures take turns in a worker; small ones never wait."""

import threading

from images.decoding import LARGE_PIXELS, decoding

LARGE = (LARGE_PIXELS // 1000, 1000)


def enters_while_held(held: tuple[int, int], wanted: tuple[int, int]) -> bool:
    """Whether a second thread gets into `decoding(*wanted)` while this thread is
    inside `decoding(*held)`."""
    entered = threading.Event()

    def second():
        with decoding(*wanted):
            entered.set()

    with decoding(*held):
        thread = threading.Thread(target=second)
        thread.start()
        got_in = entered.wait(0.5)
    thread.join(5)
    assert entered.is_set(), "the second decoding never got its turn"
    return got_in


def test_a_second_large_picture_waits_for_the_first():
    """While one large picture is decoded, another large one waits its turn."""
    assert not enters_while_held(LARGE, LARGE)


def test_a_small_picture_does_not_wait_for_a_large_one():
    """A web-sized photo is decoded at once, even beside a large one."""
    assert enters_while_held(LARGE, (1600, 900))
