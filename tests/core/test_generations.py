"""Generation counters: read once per request, advanced everywhere at once."""

from django.core.cache import cache

from core import generations
from publishing.page_cache import GENERATION_KEY


def test_a_counter_starts_at_one():
    """A counter nobody has advanced yet reads 1, and is stored."""
    assert generations.current(GENERATION_KEY) == 1
    assert cache.get(GENERATION_KEY) == 1


def test_advancing_a_counter_is_seen_by_the_next_read():
    """Outside a request every read goes to the cache."""
    before = generations.current(GENERATION_KEY)
    cache.incr(GENERATION_KEY)  # as another server would
    assert generations.current(GENERATION_KEY) == before + 1


def test_within_one_reading_a_counter_is_read_once():
    """A request sees the counters as they were when it first read them."""
    with generations.one_reading():
        before = generations.current(GENERATION_KEY)
        cache.incr(GENERATION_KEY)  # another server purges meanwhile
        assert generations.current(GENERATION_KEY) == before
    assert generations.current(GENERATION_KEY) == before + 1


def test_a_request_sees_its_own_advance():
    """A purge made by the request itself is seen by the rest of it."""
    with generations.one_reading():
        before = generations.current(GENERATION_KEY)
        generations.advance(GENERATION_KEY)
        assert generations.current(GENERATION_KEY) == before + 1


def test_an_evicted_counter_starts_again_above_every_old_generation():
    """Advancing a counter the cache lost gives 2, never the 1 a fresh one reads."""
    cache.delete(GENERATION_KEY)
    generations.advance(GENERATION_KEY)
    assert generations.current(GENERATION_KEY) == 2


def test_the_counters_are_read_in_one_round_trip(monkeypatch):
    """Every registered counter comes with the first read."""
    calls = []
    original = cache.get_many

    def counted(keys, *args, **kwargs):
        calls.append(list(keys))
        return original(keys, *args, **kwargs)

    monkeypatch.setattr(cache, "get_many", counted)
    with generations.one_reading():
        for key in generations.KEYS:
            generations.current(key)
    assert calls == [generations.KEYS]


def test_a_key_stamp_holds_until_the_key_moves():
    stamps = generations.key_stamps(
        ["article-1", "home"], family=GENERATION_KEY, begun=1
    )
    assert generations.keys_unchanged(stamps)
    generations.advance_keys(["home"])
    assert not generations.keys_unchanged(stamps)


def test_a_key_stamp_is_not_given_when_its_family_moved_meanwhile():
    """A change committed while the entry was made: it is not stamped as fresh."""
    begun = generations.current(GENERATION_KEY)
    generations.advance(GENERATION_KEY)
    assert generations.key_stamps(["home"], family=GENERATION_KEY, begun=begun) is None


def test_a_key_counter_the_cache_lost_counts_as_moved():
    stamps = generations.key_stamps(["home"], family=GENERATION_KEY, begun=1)
    cache.clear()
    assert not generations.keys_unchanged(stamps)


def test_two_advances_of_one_key_both_leave_it_changed():
    """Set, not incremented: no advance is lost to another made at once."""
    first = generations.key_stamps(["home"], family=GENERATION_KEY, begun=1)
    generations.advance_keys(["home"])
    second = generations.key_stamps(["home"], family=GENERATION_KEY, begun=1)
    generations.advance_keys(["home"])
    assert first != second
    assert not generations.keys_unchanged(second)
