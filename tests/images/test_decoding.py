"""Large pictures take turns on a machine, across processes; small ones never wait."""

import multiprocessing
import threading

from images.decoding import LARGE_PIXELS, decoding

LARGE = (LARGE_PIXELS // 1000, 1000)
# Forked, so the children share this test's settings (the slots' folder).
FORK = multiprocessing.get_context("fork")


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


def hold_large(inside, release) -> None:
    with decoding(*LARGE):
        inside.set()
        release.wait(10)


def enter_large(entered) -> None:
    with decoding(*LARGE):
        entered.set()


def another_process_enters_while_held(settings, tmp_path, slots: int) -> bool:
    """Whether a second process decodes a large picture while a first one does."""
    settings.DECODE_SLOTS_DIR = tmp_path
    settings.DECODE_SLOTS = slots
    inside, release, entered = FORK.Event(), FORK.Event(), FORK.Event()
    first = FORK.Process(target=hold_large, args=(inside, release))
    first.start()
    assert inside.wait(10), "the first process never got in"
    second = FORK.Process(target=enter_large, args=(entered,))
    second.start()
    got_in = entered.wait(1)
    release.set()
    assert entered.wait(10), "the second process never got its turn"
    first.join(10)
    second.join(10)
    return got_in


def test_a_second_large_picture_waits_for_the_first():
    """While one large picture is decoded, another large one waits its turn."""
    assert not enters_while_held(LARGE, LARGE)


def test_a_small_picture_does_not_wait_for_a_large_one():
    """A web-sized photo is decoded at once, even beside a large one."""
    assert enters_while_held(LARGE, (1600, 900))


def test_a_large_picture_in_another_process_waits_its_turn(settings, tmp_path):
    """The limit is the machine's: a second worker process waits for the first."""
    assert not another_process_enters_while_held(settings, tmp_path, slots=1)


def test_two_slots_let_two_processes_decode_at_once(settings, tmp_path):
    """DECODE_SLOTS=2 lets a second large picture in beside the first."""
    assert another_process_enters_while_held(settings, tmp_path, slots=2)
