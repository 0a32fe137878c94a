"""Wrong control tokens slowed per address: five free, then a doubling wait up to ten minutes."""

from __future__ import annotations

from companion.base.clock import ManualClock
from companion.web.guard import FREE_TRIES, MAX_ADDRESSES, MAX_WAIT, TokenGuard, address_key


def test_a_few_wrong_tokens_are_free_then_each_waits_twice_as_long_up_to_ten_minutes():
    clock = ManualClock()
    guard = TokenGuard(clock)
    waits = []
    for _ in range(20):
        assert guard.wait("192.168.1.23") == 0
        wrong, delay = guard.wrong("192.168.1.23")
        waits.append(delay)
        clock.advance(delay)
    assert wrong == 20
    assert waits[:FREE_TRIES] == [0.0] * FREE_TRIES
    assert waits[FREE_TRIES:FREE_TRIES + 10] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
    assert waits[-1] == MAX_WAIT
    # at the cap an address tries 6 times an hour: all 2^32 tokens would take about 82,000 years
    assert round(2**32 * MAX_WAIT / (365.25 * 24 * 3600), -3) == 82_000


def test_a_waiting_address_is_told_how_long_and_others_are_not_slowed():
    clock = ManualClock()
    guard = TokenGuard(clock)
    for _ in range(FREE_TRIES + 3):
        guard.wrong("10.0.0.5")
    assert guard.wait("10.0.0.5") == 4
    clock.advance(1.5)
    assert guard.wait("10.0.0.5") == 2.5
    assert guard.wait("10.0.0.6") == 0
    guard.right("10.0.0.5")
    assert guard.wait("10.0.0.5") == 0


def test_ipv6_addresses_count_by_their_64_and_mapped_ipv4_as_ipv4():
    assert address_key("2001:db8:1:2::17") == address_key("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert address_key("::ffff:192.168.1.9") == "192.168.1.9"
    assert address_key(None) == "?"


def test_the_addresses_remembered_are_bounded_the_least_recent_forgotten():
    guard = TokenGuard(ManualClock())
    for _ in range(FREE_TRIES + 1):
        guard.wrong("10.9.9.9")
    for n in range(MAX_ADDRESSES):
        guard.wrong(f"10.1.{n // 256}.{n % 256}")
    assert guard.wait("10.9.9.9") == 0  # forgotten, the oldest
    assert len(guard._tries) == MAX_ADDRESSES
